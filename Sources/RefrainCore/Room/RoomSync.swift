/// How a member keeps what it hears on the room's position.
///
/// The error is the audible position minus the position the room state says (seconds):
/// positive when the member is ahead. Small errors are left alone, middling ones are
/// corrected with a short step (the output drops or holds that much audio, a click at most),
/// and large ones with a seek.
public struct RoomSync: Sendable, Equatable {
  /// Errors up to this are left alone (s).
  public var tolerance: Double
  /// Errors up to this are corrected with a step rather than a seek (s).
  public var stepLimit: Double

  public init(tolerance: Double = 0.015, stepLimit: Double = 0.250) {
    self.tolerance = tolerance
    self.stepLimit = stepLimit
  }

  /// What to do about an error.
  public enum Correction: Sendable, Equatable {
    /// Nothing: within tolerance.
    case none
    /// Move what is heard by this many seconds without a seek: forward (drop audio) when
    /// positive, back (hold the output) when negative.
    case step(Double)
    /// Seek to this position (s).
    case seek(Double)
  }

  /// The correction for a member that hears `audible` while the room is at `expected`.
  public func correction(audible: Double, expected: Double) -> Correction {
    let error = audible - expected
    if abs(error) <= tolerance { return .none }
    if abs(error) <= stepLimit { return .step(-error) }
    return .seek(expected)
  }
}

/// Counts what a member sends in a sliding window: the chat rate and the flood guard.
public struct RateWindow: Sendable, Equatable {
  /// Events allowed within ``window``.
  public let limit: Int
  /// Seconds.
  public let window: Double
  private var times: [Double] = []

  public init(limit: Int, window: Double) {
    self.limit = limit
    self.window = window
  }

  /// Records an event at `now` (seconds, monotonic) if it is allowed; when it is not,
  /// nothing is recorded and the answer is how long until it would be.
  public mutating func admit(at now: Double) -> Double? {
    times.removeAll { now - $0 >= window }
    guard times.count < limit else {
      return max(0, times[0] + window - now)
    }
    times.append(now)
    return nil
  }
}
