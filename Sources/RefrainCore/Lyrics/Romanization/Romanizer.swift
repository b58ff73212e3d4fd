import Foundation

/// Picks the romanization for a lyric line, so that Refrain can show Korean and Japanese lines
/// with a second line in Latin letters.
///
/// Hangul goes to ``KoreanRomanizer`` and kana to ``JapaneseRomanizer``; a line with both runs
/// the Korean pass and then the Japanese pass. Lines without Hangul syllables or kana (Latin,
/// kanji alone, blank lines) have no romanization.
public enum Romanizer {
  /// Returns the trimmed, romanized `line` when it holds Hangul or kana and the romanization
  /// differs from the trimmed line; nil otherwise.
  public static func romanize(_ line: String) -> String? {
    let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
    var hasHangul = false
    var hasKana = false
    for scalar in trimmed.unicodeScalars {
      switch scalar.value {
      case 0xAC00...0xD7A3, 0x1100...0x11FF: hasHangul = true
      case 0x3041...0x3096, 0x30A1...0x30F6: hasKana = true
      default: break
      }
      if hasHangul && hasKana { break }
    }
    guard hasHangul || hasKana else { return nil }
    var text = trimmed
    if hasHangul { text = KoreanRomanizer.romanize(text) }
    if hasKana { text = JapaneseRomanizer.romanize(text) }
    text = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return text.isEmpty || text == trimmed ? nil : text
  }
}
