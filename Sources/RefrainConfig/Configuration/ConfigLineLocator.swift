/// Finds the line of a key in config.toml text, since the TOML parser reports no positions.
///
/// It reads the text line by line, follows `[table]` headers, and records where each dotted
/// key (`audio.buffer_ms`, `keys.lists.J`) is first assigned. It is a heuristic: strings
/// spanning lines and inline tables can hide a key, and then the nearest header's line, or
/// no line, is reported.
struct ConfigLineLocator {
  private var lines: [String: Int] = [:]

  /// Scans `text`.
  init(text: String) {
    var table: [String] = []
    var number = 0
    let split = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    for rawLine in split {
      number += 1
      let line = rawLine.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
      guard let first = line.first, first != "#" else { continue }
      if first == "[" {
        let inner = line.drop { $0 == "[" }.prefix { $0 != "]" }
        table = Self.keyPath(inner)
        record(table, line: number)
      } else if let equals = line.firstIndex(of: "=") {
        let path = table + Self.keyPath(line[..<equals])
        record(path, line: number)
      }
    }
  }

  /// The line where `path` (`catalog.provider`) is set, or its table's line, or `nil`.
  func line(of path: String) -> Int? {
    var components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    while !components.isEmpty {
      if let line = lines[components.joined(separator: ".")] { return line }
      components.removeLast()
    }
    return nil
  }

  private mutating func record(_ path: [String], line: Int) {
    guard !path.isEmpty else { return }
    // Also record each parent, so `[keys]` locates even when only `keys.x` is written.
    for count in 1...path.count {
      let key = path.prefix(count).joined(separator: ".")
      if lines[key] == nil { lines[key] = line }
    }
  }

  /// Splits a TOML key (`a.b`, `"ctrl-d"`, `'x' . y`) into its parts, without quotes.
  static func keyPath(_ text: Substring) -> [String] {
    var parts: [String] = []
    var current = ""
    var quoted = false
    var quote: Character?
    func finish() {
      if !current.isEmpty || quoted { parts.append(current) }
      current = ""
      quoted = false
    }
    for character in text {
      if let open = quote {
        if character == open { quote = nil } else { current.append(character) }
      } else if character == "\"" || character == "'" {
        quote = character
        quoted = true
      } else if character == "." {
        finish()
      } else if character != " " && character != "\t" {
        current.append(character)
      }
    }
    finish()
    return parts
  }
}
