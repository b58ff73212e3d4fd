import Foundation

extension JapaneseRomanizer {
  /// The words in modified Hepburn, spaced as words (青い自転車 aoi jitensha, 東京へ行く
  /// tōkyō e iku), with the conventions of ``romanize(_:)`` for kana.
  ///
  /// - Each word is read by its reading, so kanji are romanized; the particles は, へ and を
  ///   are wa, e and o, and so is a は or へ that is said わ or え inside a word (こんにちは
  ///   konnichiwa), from the word's pronunciation.
  /// - Long vowels as in kana text (とうきょう tōkyō), but a verb's last う stays u (思う omou).
  /// - A verb form is one word: conjunctive particles, verb suffixes and auxiliaries after a
  ///   verb or an adjective join it (乗って notte, 行きました ikimashita).
  /// - A word written in katakana keeps katakana's long vowels (ソウル souru); a word the
  ///   dictionary cannot read is written as it is given, its kana romanized.
  /// - Symbols and words that are not Japanese (Latin, numbers) are written as they are,
  ///   spaced as in the text; a word after a symbol is not spaced from it (「東京」 「tōkyō」).
  public static func romanize(words: [JapaneseWord]) -> String {
    var output = ""
    /// The kana of the word group being gathered, and whether it ends in a verb.
    var group = ""
    var endsInVerb = false
    /// Whether the group is a verb or an adjective form that auxiliaries join.
    var conjugating = false
    /// Whether the last thing written was a Japanese word group.
    var afterJapanese = false
    func flush() {
      guard !group.isEmpty else { return }
      if let last = output.unicodeScalars.last,
        last.properties.isAlphabetic || last.properties.numericType != nil
      {
        output += " "
      }
      if endsInVerb, group.hasSuffix("う") {
        output += romanize(String(group.dropLast())) + "u"
      } else {
        output += romanize(group)
      }
      group = ""
      afterJapanese = true
    }
    for word in words {
      if word.kind == .symbol || isForeign(word) {
        flush()
        let spaced = word.spaceBefore || (afterJapanese && word.kind != .symbol)
        if spaced, !output.isEmpty { output += " " }
        output += romanize(word.surface)
        conjugating = false
        afterJapanese = false
        continue
      }
      let joins: Bool
      switch word.kind {
      case .conjunctiveParticle, .verbSuffix, .auxiliary: joins = conjugating
      default: joins = false
      }
      if !joins { flush() }
      group += kana(of: word)
      endsInVerb = word.kind == .verb
      switch word.kind {
      case .verb, .adjective: conjugating = true
      case .conjunctiveParticle, .verbSuffix, .auxiliary: conjugating = joins
      default: conjugating = false
      }
    }
    flush()
    return output
  }

  /// Whether `word` is not Japanese: it has no reading and no kana, kanji or CJK symbol in it
  /// (a Latin word, a number, romanized Korean).
  private static func isForeign(_ word: JapaneseWord) -> Bool {
    guard word.reading == nil else { return false }
    return !word.surface.unicodeScalars.contains { (0x3000...0x9FFF).contains($0.value) }
  }

  /// The kana a word is read with: its reading as said (see ``said(_:pronunciation:)``), in
  /// hiragana unless the word is written in katakana; its surface when it has no reading.
  private static func kana(of word: JapaneseWord) -> String {
    guard var kana = word.reading, !kana.isEmpty else { return word.surface }
    kana = said(kana, pronunciation: word.pronunciation)
    let katakanaWord = word.surface.unicodeScalars.allSatisfy {
      (0x30A1...0x30FC).contains($0.value)
    }
    return katakanaWord ? kana : hiragana(kana)
  }

  /// `reading` with each ハ or ヘ that `pronunciation` says ワ or エ at the same place
  /// replaced by what is said; the reading itself when the two do not line up.
  private static func said(_ reading: String, pronunciation: String?) -> String {
    guard let pronunciation else { return reading }
    let read = Array(reading.unicodeScalars)
    let spoken = Array(pronunciation.unicodeScalars)
    guard read.count == spoken.count else { return reading }
    var out = String.UnicodeScalarView()
    for (letter, sound) in zip(read, spoken) {
      switch (letter, sound) {
      case ("ハ", "ワ"), ("ヘ", "エ"): out.append(sound)
      default: out.append(letter)
      }
    }
    return String(out)
  }

  /// Katakana (ァ–ヶ) as hiragana; every other character unchanged.
  private static func hiragana(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if (0x30A1...0x30F6).contains(scalar.value), let shifted = Unicode.Scalar(scalar.value - 0x60)
      {
        out.append(shifted)
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }
}
