import Foundation

/// The one `poll()` loop of a Refrain process: every descriptor a front end waits on (the
/// terminal or stdin, the player's events, background work, sockets) joins it.
///
/// Each source says what to poll before every wait and gets back what was ready, so a
/// source's descriptors may change between waits (control-socket clients come and go).
/// Nothing waits anywhere else: a source's handler must not block.
package final class PollLoop {
  private var sources: [(descriptors: () -> [pollfd], handler: ([pollfd]) -> Void)] = []

  /// Creates a loop with no sources.
  package init() {}

  /// Polls `descriptor` for input; `handler` runs when it is readable (or hung up).
  package func watch(_ descriptor: Int32, handler: @escaping () -> Void) {
    watch(
      { [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)] }, handler: { _ in handler() })
  }

  /// Polls what `descriptors` returns before each wait; `handler` gets them back with
  /// `revents` filled in, when any of them is ready.
  package func watch(
    _ descriptors: @escaping () -> [pollfd], handler: @escaping ([pollfd]) -> Void
  ) {
    sources.append((descriptors, handler))
  }

  /// Waits until a descriptor is ready or `timeout` milliseconds pass (-1: no limit), then
  /// runs the ready sources' handlers in the order they were added.
  ///
  /// Returns false when `poll()` failed for another reason than a signal.
  @discardableResult
  package func runOnce(timeout: Int32) -> Bool {
    var fds: [pollfd] = []
    var ranges: [Range<Int>] = []
    for source in sources {
      let start = fds.count
      fds += source.descriptors()
      ranges.append(start..<fds.count)
    }
    let ready = poll(&fds, nfds_t(fds.count), timeout)
    if ready < 0 { return errno == EINTR }
    guard ready > 0 else { return true }
    for (source, range) in zip(sources, ranges)
    where fds[range].contains(where: { $0.revents != 0 }) {
      source.handler(Array(fds[range]))
    }
    return true
  }
}
