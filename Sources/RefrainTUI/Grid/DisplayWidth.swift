import CTUIShims
import RefrainCore

/// Display widths from the C library's `wcwidth`, as the terminal counts columns.
public enum DisplayWidth {
  private static let ready: Bool = refrain_set_utf8_ctype() != 0

  /// The columns one scalar takes: 0 for combining marks, 2 for wide (CJK) characters.
  public static func of(_ scalar: Unicode.Scalar) -> Int {
    _ = ready
    if scalar.value < 0x7F { return scalar.value >= 0x20 ? 1 : 0 }
    let width = Int(refrain_wcwidth(scalar.value))
    return width < 0 ? 0 : width
  }

  /// The columns a string takes.
  public static func of(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { $0 + of($1) }
  }

  /// The longest prefix of `text` that fits in `columns`, with `…` when it was cut.
  ///
  /// A double-width character is never split: if only one column is left, it is dropped.
  public static func truncate(_ text: String, to columns: Int) -> String {
    guard columns > 0 else { return "" }
    guard of(text) > columns else { return text }
    var out = String.UnicodeScalarView()
    var used = 0
    for scalar in text.unicodeScalars {
      let width = of(scalar)
      if used + width > columns - 1 { break }
      out.append(scalar)
      used += width
    }
    return String(out) + "…"
  }

  /// Splits `text` into lines of at most `columns`, breaking at spaces when it can.
  public static func wrap(_ text: String, to columns: Int) -> [String] {
    guard columns > 0 else { return [] }
    var lines: [String] = []
    var line = ""
    var lineWidth = 0
    for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
      let wordWidth = of(word)
      let gap = line.isEmpty ? 0 : 1
      if lineWidth + gap + wordWidth <= columns {
        line += (gap == 1 ? " " : "") + word
        lineWidth += gap + wordWidth
        continue
      }
      if !line.isEmpty { lines.append(line) }
      line = ""
      lineWidth = 0
      // A word longer than a line is cut by characters (CJK text has no spaces).
      for scalar in word.unicodeScalars {
        let width = of(scalar)
        if lineWidth + width > columns {
          lines.append(line)
          line = ""
          lineWidth = 0
        }
        line.unicodeScalars.append(scalar)
        lineWidth += width
      }
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }
}
