import Foundation

/// The one JSON encoder for everything Refrain prints as JSON (`ctl status`, `--watch`,
/// `--events`, `--json`): `Codable` values, sorted keys, one line, `/` unescaped.
package enum JSONOutput {
  /// `value` as one line of JSON text; `{}` if it cannot be encoded (never for our types).
  package static func line<T: Encodable>(_ value: T) -> String {
    String(decoding: data(value), as: UTF8.self)
  }

  /// `value` as compact UTF-8 JSON; `{}` if it cannot be encoded.
  package static func data<T: Encodable>(_ value: T) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(value)) ?? Data("{}".utf8)
  }

  /// Seconds rounded to the millisecond, as every time in Refrain's JSON is printed.
  package static func milliseconds(_ seconds: Double) -> Double {
    (seconds * 1000).rounded() / 1000
  }
}
