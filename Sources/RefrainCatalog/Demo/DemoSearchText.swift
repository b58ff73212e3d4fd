import Foundation

/// Text folded for searching: case, accents, width and punctuation do not matter.
///
/// Latin, Greek and Cyrillic letters lose case and diacritics (`Crème` matches `creme`).
/// Hangul, kana and Han characters are kept whole: the voicing marks of kana change the
/// word (`バ` is not `ハ`), and a Hangul syllable is not split into jamo, so `하` does not
/// match `한`. Punctuation and runs of whitespace become one space.
struct DemoSearchText: Sendable, Hashable {
  /// The folded text.
  let folded: String

  /// Folds `text`.
  init(_ text: String) {
    var result = ""
    var pendingSpace = false
    for character in text {
      if character.isWhitespace || character.isPunctuation || character.isSymbol {
        pendingSpace = !result.isEmpty
        continue
      }
      if pendingSpace {
        result.append(" ")
        pendingSpace = false
      }
      result += Self.fold(character)
    }
    folded = result
  }

  /// Whether nothing searchable is left.
  var isEmpty: Bool { folded.isEmpty }

  /// Whether `query` occurs in this text.
  func contains(_ query: DemoSearchText) -> Bool {
    query.isEmpty || folded.range(of: query.folded) != nil
  }

  /// How well a title matches: 0 exact, 1 prefix, 2 anywhere, `nil` not at all.
  func titleRank(_ query: DemoSearchText) -> Int? {
    if folded == query.folded { return 0 }
    if folded.hasPrefix(query.folded) { return 1 }
    return contains(query) ? 2 : nil
  }

  /// Folds one character.
  private static func fold(_ character: Character) -> String {
    let text = String(character)
    if character.unicodeScalars.contains(where: isEastAsian) {
      return text.folding(options: .widthInsensitive, locale: nil)
        .precomposedStringWithCanonicalMapping
    }
    return text.folding(
      options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
  }

  /// Whether the scalar is Hangul, kana or a Han character (where accents carry meaning).
  private static func isEastAsian(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7AF, 0xD7B0...0xD7FF:
      return true  // Hangul
    case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F:
      return true  // Hiragana, Katakana, half-width Katakana
    case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F:
      return true  // Han
    default:
      return false
    }
  }
}
