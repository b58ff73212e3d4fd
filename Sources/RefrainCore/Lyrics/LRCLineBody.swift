import Foundation

/// The text of a timed LRC line, split into timed words when it carries inline time tags.
///
/// Both enhanced styles are read: A2 word tags (`<mm:ss.xx>word`) and ESLyric/foobar2000
/// square tags after the text has started (`[mm:ss.xx]word`). Text before the first word tag
/// starts at the line's own time. A tag with no text after it ends the last word (`endMs`).
/// Brackets that are not valid times stay in the text.
package struct LRCLineBody: Equatable {
  /// The line's text: tags removed, spaces collapsed, trimmed.
  var text: String
  /// The timed words, or `nil` when the line has no inline time tags or no words.
  var words: [LyricWord]?
  /// The time of the first tag after the last word, if one follows it.
  var endMs: Int?

  /// Reads the body in `range`, where the line itself starts at `lineMs`.
  init(_ bytes: [UInt8], _ range: Range<Int>, lineMs: Int) {
    var textBytes: [UInt8] = []
    textBytes.reserveCapacity(range.count)
    var words: [LyricWord] = []
    var endMs: Int?
    var sawWordTag = false
    var segmentMs = lineMs
    var segmentStart = range.lowerBound
    var index = range.lowerBound

    func closeSegment(at end: Int) {
      let segment = bytes[segmentStart..<end]
      textBytes.append(contentsOf: segment)
      let word = Self.normalizedText(segment)
      if !word.isEmpty {
        words.append(LyricWord(ms: segmentMs, text: word))
        endMs = nil
      }
    }

    while index < range.upperBound {
      let byte = bytes[index]
      if byte == LRCByte.openSquare || byte == LRCByte.openAngle,
        let tag = LRCTimeTag.parse(bytes, at: index, limit: range.upperBound)
      {
        closeSegment(at: index)
        if !words.isEmpty, endMs == nil { endMs = tag.ms }
        sawWordTag = true
        segmentMs = tag.ms
        segmentStart = tag.next
        index = tag.next
      } else {
        index += 1
      }
    }
    closeSegment(at: range.upperBound)

    self.text = Self.normalizedText(textBytes[...])
    self.words = sawWordTag && !words.isEmpty ? words : nil
    self.endMs = self.words == nil ? nil : endMs
  }

  /// The same body for a copy of the line at another time (`[00:12][01:15]chorus`).
  ///
  /// Word times move by the same amount as the line, so each copy keeps its rhythm.
  func shifted(by deltaMs: Int) -> LRCLineBody {
    guard deltaMs != 0 else { return self }
    var copy = self
    copy.words = words?.map { LyricWord(ms: $0.ms + deltaMs, text: $0.text) }
    copy.endMs = endMs.map { $0 + deltaMs }
    return copy
  }

  /// Collapses runs of spaces and tabs into one space and trims whitespace at both ends.
  package static func normalizedText(_ bytes: ArraySlice<UInt8>) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var pendingSpace = false
    for byte in bytes {
      if LRCByte.isSpace(byte) {
        pendingSpace = !out.isEmpty
      } else {
        if pendingSpace { out.append(LRCByte.space) }
        pendingSpace = false
        out.append(byte)
      }
    }
    let text = String(decoding: out, as: UTF8.self)
    // Spaces and tabs are gone already; only other Unicode spaces (U+3000…) need trimming.
    guard let first = out.first, let last = out.last, first >= 0x80 || last >= 0x80 else {
      return text
    }
    return text.trimmingCharacters(in: .whitespaces)
  }
}
