import Foundation

/// The one JSON encoder for everything Refrain prints as JSON (`ctl status`, `--watch`,
/// `--events`, `--json`): `Codable` values, sorted keys, one line, `/` unescaped.
///
/// Every character ``TerminalSanitizer`` removes from text (C0 and C1 controls, DEL, bidi
/// controls, byte-order marks) is written as a `\uXXXX` escape, so the JSON keeps the value
/// whole and no byte of it can control a terminal it is printed on.
package enum JSONOutput {
  /// `value` as one line of JSON text; `{}` if it cannot be encoded (never for our types).
  package static func line<T: Encodable>(_ value: T) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return "{}" }
    return escapingControls(String(decoding: data, as: UTF8.self))
  }

  /// `value` as compact UTF-8 JSON; `{}` if it cannot be encoded.
  package static func data<T: Encodable>(_ value: T) -> Data {
    Data(line(value).utf8)
  }

  /// `json` with every scalar that ``TerminalSanitizer/isControl(_:)`` names written as
  /// `\uXXXX`. Such scalars stand only inside strings in JSON text, where the escape means
  /// the same character.
  package static func escapingControls(_ json: String) -> String {
    guard json.unicodeScalars.contains(where: TerminalSanitizer.isControl) else { return json }
    var out = String.UnicodeScalarView()
    for scalar in json.unicodeScalars {
      guard TerminalSanitizer.isControl(scalar) else {
        out.append(scalar)
        continue
      }
      let hex = String(scalar.value, radix: 16)
      out.append(
        contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
    }
    return String(out)
  }

  /// Seconds rounded to the millisecond, as every time in Refrain's JSON is printed.
  package static func milliseconds(_ seconds: Double) -> Double {
    (seconds * 1000).rounded() / 1000
  }
}
