import Foundation

/// Seconds on the system's monotonic clock, which never jumps with wall-clock changes.
public enum MonotonicClock {
  /// The current monotonic time in seconds.
  public static var now: Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
  }

  /// Sleeps for `seconds` (with nanosecond resolution).
  public static func sleep(seconds: Double) {
    guard seconds > 0 else { return }
    var request = timespec(
      tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
  }
}
