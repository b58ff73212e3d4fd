/// The position the listener hears: frames handed to the output, minus the output's latency.
///
/// Between writes the position advances with the monotonic clock, capped at what was
/// written, and it never goes backwards except through ``reset(to:)`` (a seek).
public struct AudibleClock: Sendable, Equatable {
  /// The track position at the last reset, in seconds.
  public private(set) var base: Double = 0
  /// Frames handed to the output since the last reset.
  public private(set) var framesWritten: Int64 = 0
  /// The sample rate of those frames.
  public private(set) var sampleRate: Int = 44_100
  /// Whether audio is flowing (playing, not paused or stopped).
  public private(set) var isRunning = false
  private var latency: Double = 0
  private var stamp: Double?
  private var floor: Double = 0

  /// Creates a clock at position zero, stopped.
  public init() {}

  /// Restarts the clock at `position` (start of a track, a seek, a pause), stopped.
  public mutating func reset(to position: Double, sampleRate: Int? = nil) {
    base = position
    framesWritten = 0
    if let sampleRate { self.sampleRate = sampleRate }
    latency = 0
    stamp = nil
    floor = position
    isRunning = false
  }

  /// Records that `frames` more were written and the output reported `latency` at `now`.
  public mutating func didWrite(frames: Int, latency: Double, at now: Double) {
    floor = position(at: now)
    framesWritten += Int64(frames)
    self.latency = max(0, latency)
    stamp = now
    isRunning = true
  }

  /// Freezes the clock at the position heard at `now` (pause, end of stream).
  public mutating func freeze(at now: Double) {
    let heard = position(at: now)
    reset(to: heard)
  }

  /// The end of what was written, in track seconds.
  public var writtenEnd: Double { base + Double(framesWritten) / Double(sampleRate) }

  /// The audible position at monotonic time `now`.
  public func position(at now: Double) -> Double {
    guard let stamp else { return floor }
    var heard = writtenEnd - latency
    if isRunning { heard += max(0, now - stamp) }
    return max(floor, base, min(heard, writtenEnd))
  }

  /// Wall-clock seconds from `now` until the audible position reaches `target`.
  ///
  /// `nil` when the clock is not running; 0 when the target has already been reached.
  public func delay(until target: Double, at now: Double) -> Double? {
    guard isRunning else { return nil }
    return max(0, target - position(at: now))
  }
}
