import Foundation
import RefrainCore

/// Builds one JSON object per line, keys in the order given (for `--events` and `--json`).
struct JSONLine {
  /// A JSON value Refrain prints.
  enum Value {
    case string(String)
    case number(Double, decimals: Int)
    case integer(Int)
    case bool(Bool)
    case null
  }

  private var fields: [(String, Value)] = []

  /// Starts an object with the given fields.
  init(_ fields: [(String, Value)]) { self.fields = fields }

  /// The object as one line of JSON text.
  var text: String {
    "{" + fields.map { "\(Self.quote($0.0)):\(Self.render($0.1))" }.joined(separator: ",") + "}"
  }

  /// Writes the object and a newline to stdout at once (unbuffered, for live event streams).
  func writeLine() {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }

  static func render(_ value: Value) -> String {
    switch value {
    case .string(let text): return quote(text)
    case .number(let number, let decimals):
      return number.isFinite ? String(format: "%.\(decimals)f", number) : "null"
    case .integer(let number): return String(number)
    case .bool(let flag): return flag ? "true" : "false"
    case .null: return "null"
    }
  }

  /// Quotes and escapes a string as JSON.
  static func quote(_ text: String) -> String { JSONText.quote(text) }
}
