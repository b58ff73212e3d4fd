/// One- and two-character pieces of Korean, Japanese and Chinese text, for searching inside
/// words with queries shorter than the three characters a trigram index needs.
///
/// The `unicode61` tokenizer keeps a run of Hangul or kanji as one token, so `랑해` inside
/// `사랑해요` is not a word of its own. The index stores, next to each title, artist and album,
/// every single character and every pair of neighbouring characters of such runs, separated by
/// spaces (`사 랑 해 요 사랑 랑해 해요`); a short query then looks up one token.
enum CJKGrams {
  /// Whether a scalar is Hangul, kana, or a CJK ideograph.
  static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7AF, 0xD7B0...0xD7FF:
      return true  // Hangul jamo and syllables
    case 0x3040...0x309F, 0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F:
      return true  // Hiragana and katakana
    case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF:
      return true  // CJK ideographs
    default:
      return false
    }
  }

  /// The space-separated unigrams and bigrams of every CJK run in `texts`; `nil` when none.
  static func grams(_ texts: [String?]) -> String? {
    var pieces: [String] = []
    var seen = Set<String>()
    func add(_ piece: String) {
      if seen.insert(piece).inserted { pieces.append(piece) }
    }
    for text in texts.compactMap({ $0 }) where !text.utf8.allSatisfy({ $0 < 0x80 }) {
      var run: [Unicode.Scalar] = []
      for scalar in text.unicodeScalars + [" "] {
        if isCJK(scalar) {
          run.append(scalar)
          continue
        }
        for (index, first) in run.enumerated() {
          add(String(first))
          if index + 1 < run.count {
            var pair = String.UnicodeScalarView()
            pair.append(first)
            pair.append(run[index + 1])
            add(String(pair))
          }
        }
        run.removeAll(keepingCapacity: true)
      }
    }
    return pieces.isEmpty ? nil : pieces.joined(separator: " ")
  }

  /// Whether `text` is one or two CJK characters (a query the grams can answer).
  static func isShortCJK(_ text: String) -> Bool {
    let scalars = text.unicodeScalars
    return (1...2).contains(scalars.count) && scalars.allSatisfy(isCJK)
  }
}
