import Foundation

/// The time sources the HTTP client uses, injectable so tests never wait.
public struct NetworkClock: Sendable {
  /// Monotonic seconds, for the rate limit.
  public var now: @Sendable () -> TimeInterval
  /// Wall-clock time, for cache ages and `Retry-After` dates.
  public var date: @Sendable () -> Date
  /// Suspends for the given seconds; throws when the task is cancelled.
  public var sleep: @Sendable (TimeInterval) async throws -> Void

  /// Creates a clock from its parts.
  public init(
    now: @escaping @Sendable () -> TimeInterval, date: @escaping @Sendable () -> Date,
    sleep: @escaping @Sendable (TimeInterval) async throws -> Void
  ) {
    self.now = now
    self.date = date
    self.sleep = sleep
  }

  /// The real clocks and `Task.sleep`.
  public static let system = NetworkClock(
    now: { ProcessInfo.processInfo.systemUptime },
    date: { Date() },
    sleep: { seconds in
      guard seconds > 0 else { return }
      try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    })
}
