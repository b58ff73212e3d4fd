import Foundation

/// A client-side rate limit: a bucket of `capacity` tokens refilled at a steady rate.
///
/// Each request takes one token. When the bucket is empty the request reserves a future
/// token (the count goes negative) and learns how long to wait, so concurrent callers
/// queue up fairly instead of racing. Time is passed in, so tests need no real clock.
public struct TokenBucket: Sendable, Hashable {
  /// The most tokens the bucket holds (the burst size).
  public let capacity: Double
  /// Tokens added per second.
  public let refillPerSecond: Double
  /// Tokens available now; negative when callers have reserved future tokens.
  public private(set) var tokens: Double
  /// When the count was last brought up to date (monotonic seconds).
  private var updatedAt: TimeInterval

  /// Creates a full bucket allowing `requests` requests per `interval` seconds on average,
  /// with bursts of up to `requests`.
  public init(requests: Int, per interval: TimeInterval, now: TimeInterval) {
    capacity = Double(max(1, requests))
    refillPerSecond = capacity / max(interval, 0.001)
    tokens = capacity
    updatedAt = now
  }

  /// Creates a full bucket that never lets more than `requests` requests into any window of
  /// `interval` seconds, as a service's "N per T" limit counts them: a burst of a fifth of
  /// them, and the rest refilled over the interval (a burst + the refill of one interval
  /// is exactly `requests`).
  public init(strictly requests: Int, per interval: TimeInterval, now: TimeInterval) {
    let burst = max(1, requests / 5)
    capacity = Double(burst)
    refillPerSecond = Double(max(1, requests - burst)) / max(interval, 0.001)
    tokens = capacity
    updatedAt = now
  }

  /// Takes one token; returns how many seconds to wait before sending (0 when one was free).
  public mutating func reserve(now: TimeInterval) -> TimeInterval {
    refill(now: now)
    tokens -= 1
    return tokens >= 0 ? 0 : -tokens / refillPerSecond
  }

  /// Empties the bucket; used after the server says its quota is used up.
  public mutating func drain(now: TimeInterval) {
    refill(now: now)
    tokens = min(tokens, 0)
  }

  private mutating func refill(now: TimeInterval) {
    let elapsed = max(0, now - updatedAt)
    tokens = min(capacity, tokens + elapsed * refillPerSecond)
    updatedAt = max(updatedAt, now)
  }
}
