import Foundation

/// Writes hiragana and katakana in modified Hepburn, so that a Refrain user who cannot read
/// kana can sing along with a Japanese lyric line.
///
/// - し shi, ち chi, つ tsu, ふ fu, じ and ぢ ji, づ zu, を o; は and へ are written ha and he,
///   as spelled, because Refrain does not tell particles from other words.
/// - Contracted sounds (きゃ kya, しゃ sha, ちゃ cha, じゃ ja) and the extended katakana of
///   loanwords (ティ ti, ファ fa, ヴ vu, ウィ wi, シェ she, チェ che, ジェ je).
/// - A small っ doubles the next consonant (きって kitte), written t before ch (まっちゃ matcha);
///   at the end of a word it is left out.
/// - ん is n, and n' before a vowel or y (きんえん kin'en, こんや kon'ya).
/// - Long vowels: ー lengthens the vowel before it with a macron (ラーメン rāmen, コーヒー kōhī);
///   in hiragana おう and おお are ō and うう is ū (とうきょう tōkyō, おおさか ōsaka), while ええ,
///   えい and いい stay ee, ei and ii. Without word boundaries, a verb ending such as おもう
///   also comes out with a macron (omō).
///
/// Kanji and every other character pass through unchanged, so words are not split by spaces.
public enum JapaneseRomanizer {
  /// Returns `text` with its kana in modified Hepburn (lower case); all else is unchanged.
  public static func romanize(_ text: String) -> String {
    let source = needsComposing(text) ? text.precomposedStringWithCanonicalMapping : text
    let tokens = tokenize(Array(source.unicodeScalars))
    var output = ""
    /// The plain vowel that ends `output`, if the last thing written was a kana syllable.
    var lastVowel: (letter: Character, hiragana: Bool)?
    for (index, token) in tokens.enumerated() {
      let next: String? = index + 1 < tokens.count ? tokens[index + 1].romaji : nil
      switch token {
      case .kana(let romaji, let hiragana, let scalar):
        if hiragana, let previous = lastVowel, previous.hiragana,
          lengthens(previous.letter, with: scalar)
        {
          output.removeLast()
          output.append(macron(previous.letter))
          lastVowel = nil
          continue
        }
        output += romaji
        if let letter = romaji.last, vowels.contains(letter) {
          lastVowel = (letter, hiragana)
        } else {
          lastVowel = nil
        }
      case .sokuon:
        if let next, next.hasPrefix("ch") {
          output += "t"
        } else if let first = next?.first, !vowels.contains(first) {
          output.append(first)
        }
        lastVowel = nil
      case .moraicN:
        output += "n"
        if let first = next?.first, vowels.contains(first) || first == "y" { output += "'" }
        lastVowel = nil
      case .longMark:
        if let previous = lastVowel {
          output.removeLast()
          output.append(macron(previous.letter))
        } else if index == 0 || tokens[index - 1].isOther {
          output += "ー"
        }
        lastVowel = nil
      case .other(let scalar):
        output.unicodeScalars.append(scalar)
        lastVowel = nil
      }
    }
    return output
  }

  /// One unit of kana text.
  private enum Token {
    /// A syllable (one kana, or one with a small kana after it), with its first scalar.
    case kana(String, hiragana: Bool, scalar: UInt32)
    /// Small っ or ッ.
    case sokuon
    /// ん or ン.
    case moraicN
    /// The long-vowel mark ー.
    case longMark
    /// Anything else, passed through.
    case other(Unicode.Scalar)

    /// The romaji of a syllable, or nil for any other token.
    var romaji: String? {
      if case .kana(let romaji, _, _) = self { return romaji }
      return nil
    }

    /// Whether this is a character that is not kana.
    var isOther: Bool {
      if case .other = self { return true }
      return false
    }
  }

  /// Splits scalars into syllables, marks and pass-through characters.
  private static func tokenize(_ scalars: [Unicode.Scalar]) -> [Token] {
    var tokens: [Token] = []
    tokens.reserveCapacity(scalars.count)
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      guard case (let kana, let hiragana)? = hiraganaValue(scalar) else {
        tokens.append(scalar.value == 0x30FC ? .longMark : .other(scalar))
        index += 1
        continue
      }
      if kana == 0x3063 {
        tokens.append(.sokuon)
      } else if kana == 0x3093 {
        tokens.append(.moraicN)
      } else if index + 1 < scalars.count, case (let small, _)? = hiraganaValue(scalars[index + 1]),
        let romaji = digraphs[[kana, small]]
      {
        tokens.append(.kana(romaji, hiragana: hiragana, scalar: kana))
        index += 1
      } else if let romaji = monographs[kana] {
        tokens.append(.kana(romaji, hiragana: hiragana, scalar: kana))
      } else {
        tokens.append(.other(scalar))
      }
      index += 1
    }
    return tokens
  }

  /// The hiragana for a kana scalar (katakana is shifted to hiragana) and whether it was
  /// hiragana; nil for anything that is not kana.
  private static func hiraganaValue(_ scalar: Unicode.Scalar) -> (UInt32, Bool)? {
    switch scalar.value {
    case 0x3041...0x3096: return (scalar.value, true)
    case 0x30A1...0x30F6: return (scalar.value - 0x60, false)
    default: return nil
    }
  }

  /// Whether hiragana `scalar` after a syllable ending in `vowel` makes a long vowel:
  /// おう, おお (ō) and うう (ū).
  private static func lengthens(_ vowel: Character, with scalar: UInt32) -> Bool {
    switch scalar {
    case 0x3046: return vowel == "o" || vowel == "u"
    case 0x304A: return vowel == "o"
    default: return false
    }
  }

  /// Whether `text` holds combining voiced marks that must be composed first.
  private static func needsComposing(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.value == 0x3099 || $0.value == 0x309A }
  }

  /// The vowel with a macron.
  private static func macron(_ vowel: Character) -> Character {
    switch vowel {
    case "a": return "ā"
    case "i": return "ī"
    case "u": return "ū"
    case "e": return "ē"
    default: return "ō"
    }
  }

  private static let vowels: Set<Character> = ["a", "i", "u", "e", "o"]

  /// Single hiragana (U+3041–U+3096) and their romaji.
  private static let monographs: [UInt32: String] = {
    let table: [(String, String)] = [
      ("ぁあぃいぅうぇえぉお", "a a i i u u e e o o"),
      ("かがきぎくぐけげこご", "ka ga ki gi ku gu ke ge ko go"),
      ("さざしじすずせぜそぞ", "sa za shi ji su zu se ze so zo"),
      ("ただちぢつづてでとど", "ta da chi ji tsu zu te de to do"),
      ("なにぬねの", "na ni nu ne no"),
      ("はばぱひびぴふぶぷへべぺほぼぽ", "ha ba pa hi bi pi fu bu pu he be pe ho bo po"),
      ("まみむめも", "ma mi mu me mo"),
      ("ゃやゅゆょよ", "ya ya yu yu yo yo"),
      ("らりるれろ", "ra ri ru re ro"),
      ("ゎわゐゑをゔゕゖ", "wa wa i e o vu ka ke"),
    ]
    var monographs: [UInt32: String] = [:]
    for (kana, romaji) in table {
      for (scalar, spelling) in zip(kana.unicodeScalars, romaji.split(separator: " ")) {
        monographs[scalar.value] = String(spelling)
      }
    }
    return monographs
  }()

  /// Kana followed by a small kana, as pairs of hiragana scalars, and their romaji.
  private static let digraphs: [[UInt32]: String] = {
    var digraphs: [[UInt32]: String] = [:]
    let small: [(Character, String)] = [("ゃ", "a"), ("ゅ", "u"), ("ょ", "o")]
    for base in "きぎしじちぢにひびぴみり".unicodeScalars {
      guard let spelling = monographs[base.value] else { continue }
      let stem: String
      switch spelling {
      case "shi": stem = "sh"
      case "chi": stem = "ch"
      case "ji": stem = "j"
      default: stem = String(spelling.dropLast()) + "y"
      }
      for (mark, vowel) in small {
        guard let markScalar = mark.unicodeScalars.first else { continue }
        digraphs[[base.value, markScalar.value]] = stem + vowel
      }
    }
    let extended: [(String, String)] = [
      ("いぇ", "ye"), ("うぃ", "wi"), ("うぇ", "we"), ("うぉ", "wo"),
      ("ゔぁ", "va"), ("ゔぃ", "vi"), ("ゔぇ", "ve"), ("ゔぉ", "vo"), ("ゔゅ", "vyu"),
      ("きぇ", "kye"), ("ぎぇ", "gye"), ("くぁ", "kwa"), ("くぃ", "kwi"), ("くぇ", "kwe"),
      ("くぉ", "kwo"), ("ぐぁ", "gwa"), ("ぐぃ", "gwi"), ("ぐぇ", "gwe"), ("ぐぉ", "gwo"),
      ("しぇ", "she"), ("じぇ", "je"), ("ちぇ", "che"), ("すぃ", "si"), ("ずぃ", "zi"),
      ("つぁ", "tsa"), ("つぃ", "tsi"), ("つぇ", "tse"), ("つぉ", "tso"),
      ("てぃ", "ti"), ("でぃ", "di"), ("てゅ", "tyu"), ("でゅ", "dyu"),
      ("とぅ", "tu"), ("どぅ", "du"), ("にぇ", "nye"), ("ひぇ", "hye"),
      ("ふぁ", "fa"), ("ふぃ", "fi"), ("ふぇ", "fe"), ("ふぉ", "fo"), ("ふゅ", "fyu"),
    ]
    for (pair, romaji) in extended {
      digraphs[pair.unicodeScalars.map(\.value)] = romaji
    }
    return digraphs
  }()
}
