import Foundation
import RefrainCore
import TOMLKit

/// Typed reads of one TOML value; each reports what it expected and returns `nil` on a miss.
extension ConfigReader {
  mutating func boolean(_ value: any TOMLValueConvertible, _ path: String) -> Bool? {
    guard let flag = value.bool else {
      problem(path, "must be true or false (found \(Self.kind(of: value)))")
      return nil
    }
    return flag
  }

  mutating func integer(
    _ value: any TOMLValueConvertible, _ path: String, in range: ClosedRange<Int>
  )
    -> Int?
  {
    guard let number = value.int else {
      problem(
        path,
        "must be a whole number from \(range.lowerBound) to \(range.upperBound) "
          + "(found \(Self.kind(of: value)))")
      return nil
    }
    guard range.contains(number) else {
      problem(
        path,
        "must be from \(range.lowerBound) to \(range.upperBound) (found \(number))")
      return nil
    }
    return number
  }

  /// A number of decibels: a TOML float, or a whole number, within `range`.
  mutating func decibels(
    _ value: any TOMLValueConvertible, _ path: String, in range: ClosedRange<Double>
  ) -> Double? {
    guard let number = value.double ?? value.int.map(Double.init) else {
      problem(
        path,
        "must be a number of dB from \(range.lowerBound) to \(range.upperBound) "
          + "(found \(Self.kind(of: value)))")
      return nil
    }
    guard range.contains(number) else {
      problem(path, "must be from \(range.lowerBound) to \(range.upperBound) dB (found \(number))")
      return nil
    }
    return number
  }

  mutating func string(_ value: any TOMLValueConvertible, _ path: String) -> String? {
    guard let text = value.string else {
      problem(path, "must be a string in quotes (found \(Self.kind(of: value)))")
      return nil
    }
    return text
  }

  /// A string naming one of `T`'s cases.
  mutating func choice<T: RawRepresentable & CaseIterable>(
    _ value: any TOMLValueConvertible, _ path: String, _ type: T.Type
  ) -> T? where T.RawValue == String {
    let names = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
    guard let text = value.string else {
      problem(path, "must be one of \(names) (found \(Self.kind(of: value)))")
      return nil
    }
    guard let choice = T(rawValue: text.lowercased()) else {
      problem(path, "must be one of \(names) (found \(Self.quoted(text)))")
      return nil
    }
    return choice
  }

  /// A server or sink name without control characters: `nil` when bad, `.some(nil)` when empty.
  mutating func name(_ value: any TOMLValueConvertible, _ path: String) -> String?? {
    guard let text = string(value, path) else { return nil }
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else {
      problem(path, "must not contain control characters")
      return nil
    }
    return .some(trimmed.isEmpty ? nil : trimmed)
  }

  /// An array of strings; every element must be a string.
  mutating func strings(_ value: any TOMLValueConvertible, _ path: String, what: String)
    -> [String]?
  {
    guard let array = value.array else {
      problem(path, "must be an array of \(what), like [\"…\"] (found \(Self.kind(of: value)))")
      return nil
    }
    var result: [String] = []
    for element in array {
      guard let text = element.string else {
        problem(path, "must hold only \(what) (found \(Self.kind(of: element)))")
        return nil
      }
      result.append(text)
    }
    return result
  }

  /// Music folders: absolute paths or `~/…`, with `~` expanded.
  mutating func folders(_ value: any TOMLValueConvertible, _ path: String) -> [String]? {
    guard let list = strings(value, path, what: "folder paths") else { return nil }
    var folders: [String] = []
    for entry in list {
      var folder = entry.trimmingCharacters(in: .whitespaces)
      if folder == "~" {
        folder = home
      } else if folder.hasPrefix("~/") {
        folder = home + folder.dropFirst()
      }
      guard folder.hasPrefix("/") else {
        problem(path, "\(Self.quoted(entry)) is not an absolute path; write /… or ~/…")
        return nil
      }
      folders.append(folder)
    }
    return folders
  }

  /// A credential: one word of printable characters, spaces around it trimmed.
  ///
  /// `nil` when bad, `.some(nil)` when empty (unset). Its problems never repeat the value.
  mutating func secret(_ value: any TOMLValueConvertible, _ path: String) -> SecretText?? {
    guard let text = string(value, path) else { return nil }
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.isEmpty { return .some(nil) }
    guard SecretText.isOneWord(trimmed) else {
      problem(path, "must be one word, without spaces or control characters (value not shown)")
      return nil
    }
    return .some(SecretText(trimmed))
  }

  /// A file path: absolute or `~/…`, with `~` expanded; `nil` when bad, `.some(nil)` when
  /// empty (unset).
  mutating func filePath(_ value: any TOMLValueConvertible, _ path: String) -> String?? {
    guard let text = string(value, path) else { return nil }
    var file = text.trimmingCharacters(in: .whitespaces)
    if file.isEmpty { return .some(nil) }
    if file.hasPrefix("~/") { file = home + file.dropFirst() }
    guard file.hasPrefix("/"), !file.hasSuffix("/") else {
      problem(path, "\(Self.quoted(text)) is not a file's absolute path; write /… or ~/…")
      return nil
    }
    guard !file.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else {
      problem(path, "must not contain control characters")
      return nil
    }
    return .some(file)
  }

  /// Lyrics sources: known names, each at most once.
  mutating func lyricsSources(_ value: any TOMLValueConvertible, _ path: String)
    -> [LyricsSourceKind]?
  {
    guard let list = strings(value, path, what: "source names") else { return nil }
    var sources: [LyricsSourceKind] = []
    for name in list {
      guard let source = LyricsSourceKind(rawValue: name.lowercased()) else {
        problem(
          path,
          "\(Self.quoted(name)) is not a lyrics source; use sidecar, embedded, cache or online")
        return nil
      }
      guard !sources.contains(source) else {
        problem(path, "names \(Self.quoted(name)) twice")
        return nil
      }
      sources.append(source)
    }
    return sources
  }

  /// An http(s) base URL with a host: `nil` when bad, `.some(nil)` when empty (off).
  mutating func baseURL(_ value: any TOMLValueConvertible, _ path: String) -> URL?? {
    guard let text = string(value, path) else { return nil }
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.isEmpty { return .some(nil) }
    guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", url.host?.isEmpty == false
    else {
      problem(path, "must be an http:// or https:// address, or \"\" for off")
      return nil
    }
    return .some(url)
  }

  // MARK: - Describing what was found

  /// `an integer`, `a string`, …: what a value is, without repeating it.
  static func kind(of value: any TOMLValueConvertible) -> String {
    switch value.type {
    case .table: return "a table"
    case .array: return "an array"
    case .string: return "a string"
    case .int: return "an integer"
    case .double: return "a decimal number"
    case .bool: return "true or false"
    case .date: return "a date"
    case .time: return "a time"
    case .dateTime: return "a date and time"
    }
  }

  /// `text` in quotes, shortened and with control characters escaped, for a message.
  static func quoted(_ text: String) -> String {
    var shown = ""
    for scalar in text.unicodeScalars.prefix(40) {
      if scalar.properties.generalCategory == .control {
        shown += "\\u{\(String(scalar.value, radix: 16))}"
      } else {
        shown.unicodeScalars.append(scalar)
      }
    }
    if text.unicodeScalars.count > 40 { shown += "…" }
    return "\"\(shown)\""
  }
}
