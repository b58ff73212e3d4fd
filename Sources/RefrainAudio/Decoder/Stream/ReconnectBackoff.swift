import Foundation

/// The wait before a live stream's next connection: 0.5 s, doubling to 10 s while the
/// stream keeps dropping, and back to 0.5 s only once a connection has played for 10 s.
///
/// A station that accepts the connection, sends a little and drops at once is therefore
/// asked again after 0.5, 1, 2, 4, 8, 10, 10… s, not every half second. Time is passed in
/// (monotonic seconds), so the value is tested without waiting.
struct ReconnectBackoff: Equatable {
  /// The first wait, in seconds.
  let first: Double
  /// The longest wait, in seconds.
  let cap: Double
  /// How long a connection must deliver audio for the next drop to start again at `first`.
  let steady: Double
  /// The wait the next drop gets.
  private(set) var next: Double
  /// When the current connection delivered its first audio; `nil` before it has.
  private var flowingSince: Double?

  /// A backoff with Refrain's waits (0.5 s doubling to 10 s, reset after 10 s of audio).
  init(first: Double = 0.5, cap: Double = 10, steady: Double = 10) {
    self.first = first
    self.cap = cap
    self.steady = steady
    next = first
  }

  /// Records audio arriving at `now`: the connection counts as steady once it has delivered
  /// for ``steady`` seconds.
  mutating func delivered(at now: Double) {
    guard let since = flowingSince else {
      flowingSince = now
      return
    }
    if now - since >= steady { next = first }
  }

  /// Records a drop (or a refusal) at `now`, and returns the wait before the next connection.
  mutating func dropped(at now: Double) -> Double {
    if let since = flowingSince, now - since >= steady { next = first }
    flowingSince = nil
    let wait = next
    next = min(next * 2, cap)
    return wait
  }
}
