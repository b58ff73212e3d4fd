import Foundation

/// Turns a decoding failure into one short line naming the field.
///
/// For example: `missing "title" at data[2]`.
package enum DecodingErrorSummary {
  /// A one-line summary of any error thrown while decoding.
  package static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return String(describing: error) }
    switch error {
    case .keyNotFound(let key, let context):
      return "missing \"\(key.stringValue)\"\(location(context.codingPath))"
    case .typeMismatch(let type, let context):
      return "expected \(type)\(location(context.codingPath))"
    case .valueNotFound(let type, let context):
      return "null where \(type) was expected\(location(context.codingPath))"
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty
        ? "malformed JSON" : "bad value\(location(context.codingPath))"
    @unknown default:
      return "unreadable data"
    }
  }

  private static func location(_ path: [any CodingKey]) -> String {
    guard !path.isEmpty else { return "" }
    var text = ""
    for key in path {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return " at " + text
  }
}
