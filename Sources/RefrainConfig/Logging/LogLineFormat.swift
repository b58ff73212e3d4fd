import Foundation
import Logging

/// Formats one log entry as one line: `2026-11-21T22:30:00.123Z info [label] message k=v`.
///
/// Everything in the line passes through ``LogRedaction``, and newlines and other control
/// characters are escaped, so an entry is always exactly one line of plain text.
enum LogLineFormat {
  /// The finished line, without a newline.
  static func line(
    date: Date, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata
  ) -> String {
    var text = "\(timestamp(date)) \(level.rawValue) [\(escaped(label))] \(escaped(message))"
    for key in metadata.keys.sorted() {
      guard let value = metadata[key] else { continue }
      text += " \(escaped(key))=\(quotedIfNeeded(escaped(value.description)))"
    }
    return LogRedaction.redact(text)
  }

  /// `2026-11-21T22:30:00.123Z`: UTC, with milliseconds.
  static func timestamp(_ date: Date) -> String {
    let interval = date.timeIntervalSince1970
    guard interval.isFinite, abs(interval) < 1e12 else { return "0000-00-00T00:00:00.000Z" }
    let total = Int64((interval * 1000).rounded(.down))
    let (seconds, millis) = total.quotientAndRemainder(dividingBy: 1000)
    let wholeSeconds = millis < 0 ? seconds - 1 : seconds
    let millisecond = millis < 0 ? millis + 1000 : millis
    var time = time_t(wholeSeconds)
    var parts = tm()
    guard gmtime_r(&time, &parts) != nil else { return "0000-00-00T00:00:00.000Z" }
    func pad(_ value: Int32, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(width - digits.count, 0)) + digits
    }
    return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))"
      + "T\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))"
      + ".\(pad(Int32(millisecond), 3))Z"
  }

  /// `text` with newlines, tabs and other control characters written as escapes.
  static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where isControl(scalar): result += "\\u{\(String(scalar.value, radix: 16))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// A metadata value in double quotes when it holds spaces, quotes or `=`.
  private static func quotedIfNeeded(_ value: String) -> String {
    guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" })
    else { return value }
    return "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.generalCategory == .control
  }
}
