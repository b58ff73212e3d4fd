/// Finds text that would trip an assertion inside the TOML parser, before it is parsed.
///
/// toml++ 3.4 (inside TOMLKit) assumes two things it does not check. Where they fail, a
/// debug build aborts and a release build has undefined behaviour, so Refrain looks first
/// and reports such text as a syntax error itself:
/// - a table header's key starts right after `[` or `[[` (upstream tomlplusplus pull
///   request 301): `[=`, `[[[a]]]`, `[.x]`, or `[` at the end of a line;
/// - a value starts right after an array's `[` or `,` (ignoring spaces, line breaks and
///   comments): `[}` or `[1, }`, and the Unicode line separators U+0085, U+2028, U+2029,
///   which TOML never allows outside strings and comments.
///
/// The check skips strings and comments and follows the nesting of arrays and inline
/// tables, so it only ever reports text that is not valid TOML.
enum ParserTrapCheck {
  private static let headerReason = "a table header needs a name, like [audio]"
  private static let valueReason = "expected a value, a comma or a closing bracket"

  /// The 1-based line of the first trap in `text` and what is wrong there, or `nil`.
  static func firstTrap(in text: String) -> (line: Int, reason: String)? {
    scan(Array(text.unicodeScalars))
  }

  /// The first trap, found in one pass that skips strings and comments and follows the
  /// nesting of arrays and inline tables, so only real headers are checked as headers.
  private static func scan(_ scalars: [Unicode.Scalar]) -> (line: Int, reason: String)? {
    var line = 1
    var index = 0
    var depth = 0
    var atLineStart = true
    var expectingValue = false
    while index < scalars.count {
      let scalar = scalars[index]
      switch scalar {
      case "\n":
        line += 1
        atLineStart = true
        index += 1
        continue
      case " ", "\t", "\r", "\u{FEFF}":
        index += 1
        continue
      case "#":
        while index < scalars.count, scalars[index] != "\n" { index += 1 }
        continue
      default:
        break
      }
      let isHeader = atLineStart && depth == 0 && scalar == "["
      atLineStart = false
      switch scalar {
      case _ where isHeader:
        guard isSafeHeader(scalars, after: index) else { return (line, headerReason) }
        skipHeader(scalars, &index)
        expectingValue = false
      case "\"", "'":
        line += skipString(scalars, &index)
        expectingValue = false
      case "\u{85}", "\u{2028}", "\u{2029}":
        return (line, valueReason)
      case "}" where expectingValue:
        return (line, valueReason)
      default:
        if scalar == "[" || scalar == "{" { depth += 1 }
        if (scalar == "]" || scalar == "}") && depth > 0 { depth -= 1 }
        expectingValue = scalar == "[" || scalar == ","
        index += 1
      }
    }
    return nil
  }

  /// Moves `index` past a table header: to its closing `]` or the end of the line.
  private static func skipHeader(_ scalars: [Unicode.Scalar], _ index: inout Int) {
    index += 1
    while index < scalars.count, scalars[index] != "\n" {
      let scalar = scalars[index]
      if scalar == "\"" || scalar == "'" {
        _ = skipString(scalars, &index)
      } else {
        index += 1
        if scalar == "]" {
          if index < scalars.count, scalars[index] == "]" { index += 1 }
          return
        }
      }
    }
  }

  // MARK: - Pieces

  /// Whether the text after a header's first `[` (at `index`) starts as the parser expects:
  /// spaces or tabs, an optional second `[` right after the first, spaces or tabs, a key.
  private static func isSafeHeader(_ scalars: [Unicode.Scalar], after index: Int) -> Bool {
    var position = index + 1
    let spaced = skipSpaces(scalars, &position)
    if position < scalars.count, scalars[position] == "[" {
      if spaced { return true }  // `[ [` is rejected by the parser itself, safely
      position += 1
      skipSpaces(scalars, &position)
    }
    guard position < scalars.count else { return true }  // the end of the text is handled
    let next = scalars[position]
    return next == "]" || next == "\"" || next == "'" || isBareKeyScalar(next)
  }

  @discardableResult
  private static func skipSpaces(_ scalars: [Unicode.Scalar], _ position: inout Int) -> Bool {
    let start = position
    while position < scalars.count, scalars[position] == " " || scalars[position] == "\t" {
      position += 1
    }
    return position != start
  }

  /// `A`–`Z`, `a`–`z`, `0`–`9`, `_` and `-`: what a bare TOML key is made of.
  private static func isBareKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "A"..."Z", "a"..."z", "0"..."9", "_", "-": return true
    default: return false
    }
  }

  /// Moves `index` past the string that starts there; returns the line breaks inside it.
  ///
  /// Single-line strings also end at a line break, where the parser stops with an error.
  private static func skipString(_ scalars: [Unicode.Scalar], _ index: inout Int) -> Int {
    let quote = scalars[index]
    let isMultiLine =
      index + 2 < scalars.count && scalars[index + 1] == quote && scalars[index + 2] == quote
    index += isMultiLine ? 3 : 1
    var lineBreaks = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "\\" && quote == "\"" {
        if index + 1 < scalars.count, scalars[index + 1] == "\n" { lineBreaks += 1 }
        index += 2
        continue
      }
      if scalar == "\n" {
        if !isMultiLine { return lineBreaks }
        lineBreaks += 1
      }
      index += 1
      if scalar == quote {
        guard isMultiLine else { return lineBreaks }
        if index + 1 < scalars.count, scalars[index] == quote, scalars[index + 1] == quote {
          index += 2
          // Up to two more quotes belong to the string's text.
          while index < scalars.count, scalars[index] == quote { index += 1 }
          return lineBreaks
        }
      }
    }
    return lineBreaks
  }
}
