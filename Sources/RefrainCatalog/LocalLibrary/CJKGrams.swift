import RefrainTags

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
  ///
  /// Each piece appears once, in the order first seen. This runs for every file a scan reads,
  /// so pieces are compared as numbers (a scalar, or two in one integer) and the text is
  /// written as UTF-8 bytes. The texts are NFC, as ``LocalText/clean(_:)`` leaves them, so
  /// equal pieces are equal scalars.
  static func grams(_ texts: [String?]) -> String? {
    var out: [UInt8] = []
    var seen: [UInt64] = []
    var run: [Unicode.Scalar] = []
    func add(_ first: Unicode.Scalar, _ second: Unicode.Scalar?) {
      // A CJK scalar is never 0, so a pair never equals a single scalar.
      let piece = UInt64(first.value) << 21 | UInt64(second?.value ?? 0)
      guard !seen.contains(piece) else { return }
      seen.append(piece)
      if !out.isEmpty { out.append(0x20) }
      out.append(contentsOf: UTF8.encode(first).unsafelyUnwrapped)
      if let second { out.append(contentsOf: UTF8.encode(second).unsafelyUnwrapped) }
    }
    for case let text? in texts where !text.utf8.allSatisfy({ $0 < 0x80 }) {
      var scalars = text.unicodeScalars.makeIterator()
      while true {
        let scalar = scalars.next()
        if let scalar, isCJK(scalar) {
          run.append(scalar)
          continue
        }
        for index in run.indices {
          add(run[index], nil)
          if index + 1 < run.count { add(run[index], run[index + 1]) }
        }
        run.removeAll(keepingCapacity: true)
        if scalar == nil { break }
      }
    }
    return out.isEmpty ? nil : String(decoding: out, as: UTF8.self)
  }

  /// Whether `text` is one or two CJK characters (a query the grams can answer).
  static func isShortCJK(_ text: String) -> Bool {
    let scalars = text.unicodeScalars
    return (1...2).contains(scalars.count) && scalars.allSatisfy(isCJK)
  }
}
