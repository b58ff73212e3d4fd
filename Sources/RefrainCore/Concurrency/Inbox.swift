import Foundation

/// Hands items from other threads to a `poll()` loop, waking it through a pipe.
///
/// The one wake-up queue of Refrain: the player engine posts its events into one, and the
/// session and the full-screen player post finished background work (``Inbox``).
package final class WakeQueue<Item>: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [Item] = []
  private let readEnd: Int32
  private let writeEnd: Int32

  /// Creates a queue with a non-blocking, close-on-exec wake-up pipe.
  package init() {
    var fds: [Int32] = [-1, -1]
    if pipe(&fds) == 0 {
      for fd in fds {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      }
    }
    readEnd = fds[0]
    writeEnd = fds[1]
  }

  deinit {
    close(readEnd)
    close(writeEnd)
  }

  /// The descriptor that becomes readable when items are waiting.
  package var fileDescriptor: Int32 { readEnd }

  /// Queues `newItems`, in order, and wakes the loop.
  package func post(contentsOf newItems: [Item]) {
    lock.withLock { items.append(contentsOf: newItems) }
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  /// Queues one item and wakes the loop.
  package func post(_ item: Item) { post(contentsOf: [item]) }

  /// Takes the waiting items, oldest first, and empties the pipe.
  package func drain() -> [Item] {
    var scratch = [UInt8](repeating: 0, count: 64)
    while read(readEnd, &scratch, scratch.count) > 0 {}
    return lock.withLock {
      defer { items.removeAll() }
      return items
    }
  }
}

/// Work from background tasks for the object that owns a loop, run on the loop's thread.
package typealias Inbox<Target> = WakeQueue<@Sendable (Target) -> Void>
