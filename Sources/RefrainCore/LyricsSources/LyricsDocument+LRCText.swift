import Foundation

extension LyricsDocument {
  /// The document written back as LRC text, which `LRCParser.parse` reads into the same
  /// tags, offset, lines and words (skipped lines are gone).
  ///
  /// ID tags come first, sorted by key, then `[offset:]` and the lines as `[mm:ss.xxx]text`
  /// with A2 word tags (`<mm:ss.xxx>word`). Plain lyrics are written as their text lines.
  public func lrcText() -> String {
    var out: [String] = []
    for key in tags.keys.sorted() where key != "offset" {
      out.append("[\(key):\(Self.singleLine(tags[key] ?? ""))]")
    }
    // Keep the file's own offset tag when it still means `offsetMs` (`+1000`, `abc`).
    if let raw = tags["offset"], LRCParser.parse("[offset:\(raw)]").offsetMs == offsetMs {
      out.append("[offset:\(Self.singleLine(raw))]")
    } else if offsetMs != 0 {
      out.append("[offset:\(offsetMs)]")
    }
    for line in lines {
      guard isSynced else {
        out.append(Self.singleLine(line.text))
        continue
      }
      out.append("[\(Self.clock(max(0, line.ms)))]" + Self.lrcBody(line))
    }
    return out.joined(separator: "\n") + "\n"
  }

  /// The text of a synced line, with `<mm:ss.xxx>` before each word and after the last one
  /// when the line has an end time.
  private static func lrcBody(_ line: LyricLine) -> String {
    let text = singleLine(line.text)
    guard let words = line.words, !words.isEmpty else { return text }
    var body = ""
    var rest = text[...]
    for word in words {
      let wordText = singleLine(word.text)
      // Keep whatever separated the words in the line's text (a space, or nothing in CJK).
      if let found = rest.range(of: wordText) {
        body += rest[..<found.lowerBound]
        rest = rest[found.upperBound...]
      } else if !body.isEmpty {
        body += " "
      }
      body += "<\(clock(max(0, word.ms)))>" + wordText
    }
    if let endMs = line.endMs { body += "<\(clock(max(0, endMs)))>" }
    return body
  }

  /// The text with line breaks turned into spaces, so it stays on one LRC line.
  private static func singleLine(_ text: String) -> String {
    guard text.contains(where: \.isNewline) else { return text }
    return text.split(whereSeparator: \.isNewline).joined(separator: " ")
  }
}
