import Foundation

/// Hands results from background tasks to the main loop, waking its `poll()` through a pipe.
public final class Inbox<Target>: @unchecked Sendable {
  private let lock = NSLock()
  private var jobs: [@Sendable (Target) -> Void] = []
  private let readEnd: Int32
  private let writeEnd: Int32

  /// Creates an inbox with a non-blocking wake-up pipe.
  public init() {
    var fds: [Int32] = [-1, -1]
    if pipe(&fds) == 0 {
      for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }
    readEnd = fds[0]
    writeEnd = fds[1]
  }

  deinit {
    close(readEnd)
    close(writeEnd)
  }

  /// The descriptor that becomes readable when work is waiting.
  public var fileDescriptor: Int32 { readEnd }

  /// Queues `job` to run on the main loop.
  public func post(_ job: @escaping @Sendable (Target) -> Void) {
    lock.withLock { jobs.append(job) }
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  /// Takes the waiting jobs, oldest first.
  public func drain() -> [@Sendable (Target) -> Void] {
    var scratch = [UInt8](repeating: 0, count: 64)
    while read(readEnd, &scratch, scratch.count) > 0 {}
    return lock.withLock {
      defer { jobs.removeAll() }
      return jobs
    }
  }
}
