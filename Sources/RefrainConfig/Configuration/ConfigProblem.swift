/// Something wrong in the configuration file; Refrain still starts, with defaults for it.
///
/// Prints as `FILE:LINE: KEY: message`, the form compilers use, so editors can jump to it.
public struct ConfigProblem: Sendable, Hashable, CustomStringConvertible {
  /// The configuration file's path.
  public var file: String
  /// The 1-based line, when it is known.
  public var line: Int?
  /// The dotted key, such as `audio.buffer_ms`; `nil` for problems with the whole file.
  public var key: String?
  /// What is wrong and what Refrain does instead.
  public var message: String

  /// Creates a problem.
  public init(file: String, line: Int?, key: String?, message: String) {
    self.file = file
    self.line = line
    self.key = key
    self.message = message
  }

  /// `FILE:LINE: KEY: message`, with control characters written as `\u{…}` escapes, so a
  /// hostile file cannot send escape sequences to the terminal that shows the problem.
  public var description: String {
    var text = file
    if let line { text += ":\(line)" }
    text += ": "
    if let key { text += "\(key): " }
    return Self.printable(text + message)
  }

  /// `text` with C0 and C1 control characters (including ESC) escaped.
  static func printable(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      if scalar.properties.generalCategory == .control {
        result += "\\u{\(String(scalar.value, radix: 16))}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
