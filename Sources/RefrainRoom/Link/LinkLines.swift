import Foundation
import RefrainCore

/// Lines from stdin, taken one at a time by whichever connection is current.
///
/// While the room cannot be reached (after ``refuse(retryAt:)``, until ``accept()``), a
/// line is dropped as it arrives and reported, and so is every line still waiting when the
/// connection ended: nothing is kept to be sent after a reconnection. Before the first
/// connection lines wait for it.
final class LineQueue: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  private var waiter: CheckedContinuation<String?, Never>?
  private var closed = false
  private var refusing = false
  private var retryAt: Double?
  /// Told of each dropped line, with when (monotonic seconds) the link tries again.
  private let dropped: @Sendable (String, Double?) -> Void

  init(dropped: @escaping @Sendable (String, Double?) -> Void = { _, _ in }) {
    self.dropped = dropped
  }

  var isClosed: Bool { lock.withLock { closed && lines.isEmpty } }

  func push(_ line: String) {
    enum Fate {
      case handed(CheckedContinuation<String?, Never>)
      case dropped(Double?)
      case queued
    }
    let fate: Fate = lock.withLock {
      if refusing { return .dropped(retryAt) }
      if let waiter {
        self.waiter = nil
        return .handed(waiter)
      }
      lines.append(line)
      return .queued
    }
    switch fate {
    case .handed(let waiting): waiting.resume(returning: line)
    case .dropped(let retryAt): report(line, retryAt: retryAt)
    case .queued: break
    }
  }

  /// The room is reachable: lines go to it again.
  func accept() {
    lock.withLock {
      refusing = false
      retryAt = nil
    }
  }

  /// The room cannot be reached until `retryAt` (monotonic seconds) at the soonest: the
  /// lines waiting are dropped and reported, and so is each that arrives until ``accept()``.
  func refuse(retryAt: Double?) {
    let pending: [String] = lock.withLock {
      refusing = true
      self.retryAt = retryAt
      defer { lines.removeAll() }
      return lines
    }
    for line in pending { report(line, retryAt: retryAt) }
  }

  /// Reports a line that was not sent (blank lines are not requests, and are not reported).
  func report(_ line: String, retryAt: Double? = nil) {
    guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
    dropped(line, retryAt ?? lock.withLock { self.retryAt })
  }

  func close() {
    let waiting: CheckedContinuation<String?, Never>? = lock.withLock {
      closed = true
      defer { waiter = nil }
      return waiter
    }
    waiting?.resume(returning: nil)
  }

  /// The next line, or `nil` once stdin is closed and every line was taken.
  func next() async -> String? {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let ready: String?? = lock.withLock {
          if !lines.isEmpty { return .some(lines.removeFirst()) }
          if closed { return .some(nil) }
          waiter = continuation
          return nil
        }
        if let ready { continuation.resume(returning: ready) }
      }
    } onCancel: {
      let waiting: CheckedContinuation<String?, Never>? = lock.withLock {
        defer { waiter = nil }
        return waiter
      }
      waiting?.resume(returning: nil)
    }
  }
}

/// Writes whole lines to stdout, one writer at a time.
final class LineWriter: @unchecked Sendable {
  private let lock = NSLock()

  func write(line: String) {
    lock.withLock {
      Console.line(line)
    }
  }

  /// Writes `value` as one JSON line, keys sorted.
  func write(_ value: some Encodable) {
    write(line: JSONOutput.line(value))
  }
}
