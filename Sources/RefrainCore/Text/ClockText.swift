import Foundation

/// The one `m:ss` formatter: progress bars, track lengths, status lines, scan estimates.
package enum ClockText {
  /// `m:ss` for `seconds` (rounded by `rule`, down by default: a clock shows a second once
  /// it has passed); empty for a missing, negative, infinite or absurd (over a million
  /// years) value, so a server's number never traps it.
  package static func minutesSeconds(
    _ seconds: Double?, rounding rule: FloatingPointRoundingRule = .down
  ) -> String {
    guard let seconds, seconds.isFinite, seconds >= 0, seconds < 3e13 else { return "" }
    let total = Int(seconds.rounded(rule))
    return "\(total / 60):" + (total % 60 < 10 ? "0" : "") + "\(total % 60)"
  }
}
