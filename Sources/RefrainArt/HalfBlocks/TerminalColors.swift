/// How many colours the terminal can show, which decides how a half-block cover is encoded.
public enum TerminalColors: Hashable, Sendable {
  /// 24-bit colour (`ESC[38;2;r;g;bm`).
  case trueColor
  /// The xterm 256-colour palette (`ESC[38;5;nm`).
  case palette256
  /// Too few colours (or `NO_COLOR`): no half-block cover, only a placeholder.
  case none

  /// The capability from the environment and the number of colours the terminal reports
  /// (terminfo's `colors`, which the caller reads).
  ///
  /// `NO_COLOR` set to anything but the empty string wins; then `COLORTERM` of `truecolor`
  /// or `24bit`, or a `TERM` ending in `-direct`, means 24-bit; then 256 or more reported
  /// colours mean the palette; anything less means none.
  public static func detect(environment: [String: String], reportedColors: Int) -> TerminalColors {
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
    let colorTerm = environment["COLORTERM"]?.lowercased() ?? ""
    if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
    if environment["TERM"]?.hasSuffix("-direct") == true { return .trueColor }
    if reportedColors >= 1 << 24 { return .trueColor }
    return reportedColors >= 256 ? .palette256 : .none
  }
}
