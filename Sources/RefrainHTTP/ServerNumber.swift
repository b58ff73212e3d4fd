import Foundation

/// Numbers from a server, checked before they are converted or added: the one way online
/// services turn a server's numbers into Refrain's.
///
/// Every function returns `nil` for a value that is missing, not finite, or outside the
/// range that kind of number can have, so the caller drops that field; none of them traps,
/// whatever the server sent (`1e19`, `-1`, `NaN` written as text).
public enum ServerNumber {
  /// The longest track length believed: 7 days, in seconds.
  public static let maxSeconds: Double = 7 * 24 * 3600
  /// The largest time inside a track believed (a lyric line's start, an offset): 7 days,
  /// in milliseconds.
  public static let maxMilliseconds = 7 * 24 * 3600 * 1000
  /// The largest track number, disc number, year or count believed.
  public static let maxCount = 10_000_000

  /// `value` rounded toward zero as an `Int`, when it is finite and within `range`.
  public static func int(_ value: Double?, in range: ClosedRange<Int>) -> Int? {
    guard let value, value.isFinite, value >= Double(range.lowerBound),
      value <= Double(range.upperBound)
    else { return nil }
    return Int(value)
  }

  /// `value` when it is within `range`.
  public static func int(_ value: Int?, in range: ClosedRange<Int>) -> Int? {
    guard let value, range.contains(value) else { return nil }
    return value
  }

  /// A track number, year or count (0 … ``maxCount``).
  public static func count(_ value: Double?) -> Int? { int(value, in: 0...maxCount) }

  /// A track number, year or count (0 … ``maxCount``).
  public static func count(_ value: Int?) -> Int? { int(value, in: 0...maxCount) }

  /// A duration in seconds (0 … ``maxSeconds``).
  public static func seconds(_ value: Double?) -> Double? {
    guard let value, value.isFinite, value >= 0, value <= maxSeconds else { return nil }
    return value
  }

  /// A duration sent in milliseconds, in seconds (0 … ``maxSeconds``).
  public static func seconds(milliseconds value: Int?) -> Double? {
    guard let value else { return nil }
    return seconds(Double(value) / 1000)
  }

  /// A time inside a track in milliseconds (0 … ``maxMilliseconds``).
  public static func milliseconds(_ value: Double?) -> Int? {
    int(value, in: 0...maxMilliseconds)
  }

  /// A signed shift in milliseconds (−``maxMilliseconds`` … ``maxMilliseconds``).
  public static func offset(milliseconds value: Double?) -> Int? {
    int(value, in: -maxMilliseconds...maxMilliseconds)
  }
}
