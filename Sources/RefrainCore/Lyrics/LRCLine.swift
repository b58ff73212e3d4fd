import Foundation

/// What one line of an LRC file holds, before it becomes part of a `LyricsDocument`.
enum LRCLine: Equatable {
  /// Nothing but whitespace.
  case blank
  /// A `[:]` comment line.
  case comment
  /// An ID tag such as `[ar:Artist]`; the key is lower-cased, the value trimmed.
  case tag(key: String, value: String)
  /// One or more leading time tags followed by the line's body (text and word tags).
  case timed(stamps: [Int], body: Range<Int>)
  /// An LRCX attachment (`[tt]` word timing, `[fu]` furigana, `[tr:…]` translation).
  case attachment
  /// Text without a leading time tag.
  case text
  /// A leading bracket that is neither a time nor an ID tag, such as `[01:60.00]` or `[abc]x`.
  case invalid

  /// Classifies the bytes in `range` (one line, without its line break).
  static func classify(_ bytes: [UInt8], _ range: Range<Int>) -> LRCLine {
    let end = range.upperBound
    let start = LRCTimeTag.skipSpaces(bytes, from: range.lowerBound, limit: end)
    guard start < end else { return .blank }
    guard bytes[start] == LRCByte.openSquare else { return .text }

    var stamps: [Int] = []
    var bodyStart = start
    while true {
      let next = LRCTimeTag.skipSpaces(bytes, from: bodyStart, limit: end)
      guard next < end, bytes[next] == LRCByte.openSquare,
        let tag = LRCTimeTag.parse(bytes, at: next, limit: end)
      else { break }
      stamps.append(tag.ms)
      bodyStart = tag.next
    }
    if !stamps.isEmpty {
      if isAttachment(bytes, from: bodyStart, limit: end) { return .attachment }
      return .timed(stamps: stamps, body: bodyStart..<end)
    }

    let afterBracket = LRCTimeTag.skipSpaces(bytes, from: start + 1, limit: end)
    if afterBracket < end, bytes[afterBracket] == LRCByte.colon { return .comment }
    return idTag(bytes, from: afterBracket, limit: end) ?? .invalid
  }

  /// Reads `key : value]` with only whitespace after the last `]`, as an ID tag.
  private static func idTag(_ bytes: [UInt8], from start: Int, limit: Int) -> LRCLine? {
    guard start < limit, LRCByte.isLetter(bytes[start]) else { return nil }
    var keyEnd = start + 1
    while keyEnd < limit, isKeyByte(bytes[keyEnd]) {
      keyEnd += 1
    }
    let colon = LRCTimeTag.skipSpaces(bytes, from: keyEnd, limit: limit)
    guard colon < limit, bytes[colon] == LRCByte.colon else { return nil }

    var close = limit
    repeat {
      close -= 1
    } while close > colon && LRCByte.isSpace(bytes[close])
    guard close > colon, bytes[close] == LRCByte.closeSquare else { return nil }

    let key = String(decoding: bytes[start..<keyEnd], as: UTF8.self).lowercased()
    let value = String(decoding: bytes[(colon + 1)..<close], as: UTF8.self)
      .trimmingCharacters(in: .whitespaces)
    return .tag(key: key, value: value)
  }

  /// Whether the byte may continue an ID tag key (`[A-Za-z0-9_-]`).
  private static func isKeyByte(_ byte: UInt8) -> Bool {
    LRCByte.isLetter(byte) || LRCByte.isDigit(byte) || byte == LRCByte.underscore
      || byte == LRCByte.hyphen
  }

  /// The LRCX prefixes that attach data to the line above rather than hold lyrics.
  private static let attachmentPrefixes: [[UInt8]] = ["[tt]", "[fu]", "[tr:", "[tr]"].map {
    Array($0.utf8)
  }

  /// Whether the body after the time tags starts with an LRCX attachment prefix.
  private static func isAttachment(_ bytes: [UInt8], from start: Int, limit: Int) -> Bool {
    let index = LRCTimeTag.skipSpaces(bytes, from: start, limit: limit)
    return attachmentPrefixes.contains { prefix in
      limit - index >= prefix.count && bytes[index..<(index + prefix.count)].elementsEqual(prefix)
    }
  }
}
