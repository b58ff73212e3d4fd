import Foundation

/// When and how long the client waits before trying a request again.
///
/// The wait after failed attempt `n` (counting from 1) is
/// `min(maxDelay, baseDelay × multiplier^(n−1))`, shortened by a random part of up to
/// `jitter` of itself so that many clients do not retry in lockstep.
/// A `Retry-After` header overrides the computed wait.
public struct RetryPolicy: Sendable, Hashable {
  /// How many times a request is sent in total (1 means no retries).
  public var maxAttempts: Int
  /// The wait after the first failure, in seconds.
  public var baseDelay: TimeInterval
  /// The growth factor between waits.
  public var multiplier: Double
  /// The longest computed wait, in seconds.
  public var maxDelay: TimeInterval
  /// The fraction of a wait that is randomised away (0 … 1).
  public var jitter: Double
  /// The longest `Retry-After` the client honours; longer ones fail at once.
  public var maxRetryAfter: TimeInterval

  /// Creates a policy.
  public init(
    maxAttempts: Int = 4, baseDelay: TimeInterval = 0.5, multiplier: Double = 2,
    maxDelay: TimeInterval = 8, jitter: Double = 0.5, maxRetryAfter: TimeInterval = 30
  ) {
    self.maxAttempts = max(1, maxAttempts)
    self.baseDelay = max(0, baseDelay)
    self.multiplier = max(1, multiplier)
    self.maxDelay = max(0, maxDelay)
    self.jitter = min(1, max(0, jitter))
    self.maxRetryAfter = max(0, maxRetryAfter)
  }

  /// A policy that never retries.
  public static let never = RetryPolicy(maxAttempts: 1)

  /// Whether an HTTP status is worth retrying (rate limiting and server errors).
  public static func isRetryable(status: Int) -> Bool {
    status == 429 || (500...599).contains(status)
  }

  /// The wait before the next attempt after failed attempt `attempt` (1-based).
  ///
  /// - Parameter random: a number in `0..<1`; 0 gives the full wait.
  public func delay(afterAttempt attempt: Int, random: Double) -> TimeInterval {
    let exponent = Double(max(0, attempt - 1))
    let full = min(maxDelay, baseDelay * pow(multiplier, exponent))
    let unit = min(max(random, 0), 1)
    return full * (1 - jitter * unit)
  }

  /// The wait a `Retry-After` value asks for: delta seconds or an HTTP date.
  ///
  /// Returns `nil` when the value cannot be read; never negative.
  public static func retryAfter(_ value: String?, now: Date) -> TimeInterval? {
    guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
      return nil
    }
    if let seconds = Double(text), seconds.isFinite {
      return max(0, seconds)
    }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: text) else { return nil }
    return max(0, date.timeIntervalSince(now))
  }
}
