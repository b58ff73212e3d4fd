import Foundation
import RefrainCatalog
import RefrainCore

/// The send loop: sends the library's queued listens to each configured service, oldest
/// first, on ``BackgroundExecutor``, and records every outcome in the queue.
///
/// - It runs after each ``listensQueued()``, at ``start()`` and from ``flush()``; one round at
///   a time (a request for another round while one runs is remembered, not run alongside).
/// - A batch that the service took is `markSent`; one that failed is `markFailed` with
///   ``ScrobbleBackoff``, except for a rate limit, which only holds that service until the
///   window resets (the listens did nothing wrong). A service that failed is left alone for
///   the rest of the round.
/// - No timer exists while nothing is pending: after a round, one timer is set for the
///   earliest pending listen or rate-limit hold, and only when there is one.
/// - Rounds in different processes (the player, `refrain scrobble flush`) never overlap: each
///   holds an exclusive `flock` on ``lockFile`` and reads the queue after taking it, so a
///   listen another process just sent is not sent again.
/// - Nothing it logs holds a credential: failures are ``ScrobbleFailure`` descriptions.
public final class ScrobbleSender: ScrobbleOutbox, @unchecked Sendable {
  /// What one round did for one service.
  public struct Report: Sendable, Equatable {
    /// The service.
    public var service: ScrobbleService
    /// The listens the service took, oldest first.
    public var sent: [QueuedListen]
    /// Why the round stopped early for this service, if it did.
    public var failure: ScrobbleFailure?
  }

  /// How long a background round waits before trying again when another process is sending.
  static let busyRetry: Double = 5

  private let store: LibraryStore
  private let clients: [any ScrobbleClient]
  private let now: @Sendable () -> Date
  private let log: @Sendable (String) -> Void
  private let lockFile: URL?
  private let condition = NSCondition()
  private var running = false
  private var again = false
  private var timer: Int?
  private var holds: [ScrobbleService: Date] = [:]

  /// Creates a sender over the library's queue.
  ///
  /// - Parameters:
  ///   - clients: One per configured service; listens queued for others stay pending.
  ///   - lockFile: The file whose `flock` keeps rounds of several processes apart; `nil`
  ///     for none (tests).
  ///   - now: The wall clock (listens are due by it).
  ///   - log: Where failures are reported, one line each.
  public init(
    store: LibraryStore, clients: [any ScrobbleClient], lockFile: URL?,
    now: @escaping @Sendable () -> Date = { Date() },
    log: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.store = store
    self.clients = clients
    self.lockFile = lockFile
    self.now = now
    self.log = log
  }

  /// The lock file next to a library file.
  public static func lockFile(forLibrary library: URL) -> URL {
    library.deletingLastPathComponent().appendingPathComponent("scrobble.lock")
  }

  /// The services this sender sends to.
  public var services: [ScrobbleService] { clients.map(\.service) }

  /// Sends what is due now (listens left from an earlier run); returns at once.
  public func start() { kick() }

  // MARK: - ScrobbleOutbox

  public func announce(_ nowPlaying: NowPlaying) {
    let clients = clients
    let log = log
    Task.detached(executorPreference: BackgroundExecutor.shared) {
      for client in clients {
        do throws(ScrobbleFailure) {
          try await client.nowPlaying(nowPlaying)
        } catch {
          log("now playing: \(error)")
        }
      }
    }
  }

  public func listensQueued() { kick() }

  // MARK: - Rounds

  /// Sends every pending listen now, backoff or not (`refrain scrobble flush`), and waits
  /// for the other process's round first if one runs; returns what each service did.
  public func flush() async -> [Report] {
    let held = holdLock(waiting: true)
    defer { releaseLock(held) }
    return await sendRound(ignoringBackoff: true)
  }

  /// Whether a retry timer is set (something waits for a later time).
  var isRetryScheduled: Bool { condition.withLock { timer != nil } }

  /// Waits until no background round runs, at most `seconds`; `true` when idle.
  @discardableResult
  public func waitUntilIdle(seconds: Double) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    condition.lock()
    defer { condition.unlock() }
    while running {
      if !condition.wait(until: deadline) { return !running }
    }
    return true
  }

  private func kick() {
    condition.lock()
    if running {
      again = true
      condition.unlock()
      return
    }
    running = true
    if let timer { BackgroundExecutor.shared.cancel(timer) }
    timer = nil
    condition.unlock()
    Task.detached(executorPreference: BackgroundExecutor.shared) { await self.drive() }
  }

  /// Runs rounds until none was asked for meanwhile, then sets the one retry timer, if any.
  private func drive() async {
    while true {
      var retry: Double?
      if let held = holdLock(waiting: false) {
        _ = await sendRound(ignoringBackoff: false)
        releaseLock(held)
        retry = nextDue().map { max(1, $0.timeIntervalSince(now())) }
      } else {
        retry = Self.busyRetry
      }
      guard endRound(retry: retry) else { return }
    }
  }

  /// Ends a round: `true` when another was asked for meanwhile; else the loop stops, with
  /// the retry timer set when `retry` is given.
  private func endRound(retry: Double?) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    if again {
      again = false
      return true
    }
    running = false
    if let retry {
      timer = BackgroundExecutor.shared.schedule(after: retry) { [weak self] in self?.kick() }
    }
    condition.broadcast()
    return false
  }

  /// When something is next due: the earliest pending listen, or the end of a rate-limit
  /// hold if that is later; `nil` when nothing is pending.
  private func nextDue() -> Date? {
    var due: Date?
    for client in clients {
      guard let pending = try? store.scrobbleQueue.nextListenDue(services: [client.service]) else {
        continue
      }
      let hold = condition.withLock { holds[client.service] }
      let when = max(pending, hold ?? pending)
      due = min(due ?? when, when)
    }
    return due
  }

  private func sendRound(ignoringBackoff: Bool) async -> [Report] {
    var reports: [Report] = []
    for client in clients {
      reports.append(await send(to: client, ignoringBackoff: ignoringBackoff))
    }
    return reports
  }

  private func send(to client: any ScrobbleClient, ignoringBackoff: Bool) async -> Report {
    let service = client.service
    var report = Report(service: service, sent: [], failure: nil)
    while true {
      let start = now()
      if let hold = condition.withLock({ holds[service] }), hold > start {
        report.failure = .rateLimited(service: service, retryIn: hold.timeIntervalSince(start))
        return report
      }
      let batch: [QueuedListen]
      do {
        batch = try store.scrobbleQueue.pendingListens(
          service: service, limit: client.batchSize,
          now: ignoringBackoff ? .distantFuture : start)
      } catch {
        report.failure = .failed(service: service, detail: "the library: \(error)")
        log("\(report.failure?.description ?? "")")
        return report
      }
      guard !batch.isEmpty else { return report }
      let ids = batch.map(\.id)
      let receipt: ScrobbleReceipt
      do throws(ScrobbleFailure) {
        receipt = try await client.submit(batch)
      } catch {
        report.failure = error
        log("\(error)")
        if case .rateLimited(_, let retryIn) = error {
          condition.withLock { holds[service] = now().addingTimeInterval(retryIn) }
        } else {
          let attempts = (batch.map(\.attempts).max() ?? 0) + 1
          let retryAt = now().addingTimeInterval(ScrobbleBackoff.delay(afterAttempts: attempts))
          do {
            try store.scrobbleQueue.markFailed(ids: ids, error: error.description, retryAt: retryAt)
          } catch {
            log("\(service): could not record the failure in the library: \(error)")
          }
        }
        return report
      }
      do {
        try store.scrobbleQueue.markSent(ids: ids)
      } catch {
        // Sent but not recorded: stop, or the next pass would send them again at once.
        report.sent += batch
        report.failure = .failed(service: service, detail: "the library: \(error)")
        log("\(service): sent, but could not record it in the library: \(error)")
        return report
      }
      report.sent += batch
      if receipt.holdFor > 0 {
        condition.withLock { holds[service] = now().addingTimeInterval(receipt.holdFor) }
      }
    }
  }

  // MARK: - The lock between processes

  /// Takes the exclusive lock; returns its descriptor (-1 with no lock file), or `nil` when
  /// another process holds it and `waiting` is false.
  private func holdLock(waiting: Bool) -> Int32? {
    guard let lockFile else { return -1 }
    try? FileManager.default.createDirectory(
      at: lockFile.deletingLastPathComponent(), withIntermediateDirectories: true)
    let descriptor = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return -1 }  // no lock possible: send anyway
    if flock(descriptor, LOCK_EX | (waiting ? 0 : LOCK_NB)) != 0 {
      close(descriptor)
      return waiting ? -1 : nil
    }
    return descriptor
  }

  private func releaseLock(_ descriptor: Int32?) {
    guard let descriptor, descriptor >= 0 else { return }
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}
