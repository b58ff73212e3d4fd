import Foundation

/// Writes Hangul in the Revised Romanization of Korean, so that a Refrain user who cannot read
/// Hangul can sing along with a Korean lyric line.
///
/// Follows the 2000 standard of the National Institute of Korean Language, with its
/// sound-change rules applied across the syllables of a word (a run of Hangul syllables):
/// liaison (음악 eumak, 값이 gapsi), nasalisation (국물 gungmul, 종로 jongno, 백로 baengno),
/// lateralisation (신라 silla, 설날 seollal), palatalisation (같이 gachi, 굳히다 guchida) and
/// aspiration with ㅎ (좋고 joko, 잡혀 japyeo; ㅎ before a vowel drops: 좋아 joa).
/// Tensification is not written (압구정 apgujeong), as the standard asks. Final consonants and
/// double finals take their representative sound (옷 ot, 값 gap, 닭 dak, 여덟 yeodeol).
///
/// Sound changes never cross a space or punctuation; everything that is not a Hangul syllable
/// (Latin letters, digits, compatibility jamo such as ㅋㅋ, kana, kanji) passes through as is.
///
/// What the rules cannot know comes out by the rules:
/// - ㄴ-insertion (솜이불 is written somibul, not somnibul; 알약 aryak, not allyak);
/// - nouns where the standard keeps ㅎ after ㄱ, ㄷ, ㅂ (묵호 comes out muko, not mukho);
/// - lexical exceptions such as 밟다 (written balda, pronounced bapda) or 대혼란 (daehonnan).
/// The one lexical pattern Refrain does know is the Sino-Korean suffix after ㄴ in words of
/// three or more syllables, which is read ㄴㄴ rather than ㄹㄹ (신문로 sinmunno, 생산량
/// saengsannyang), for the suffixes 란, 량, 력, 로, 론, 료 and 류.
public enum KoreanRomanizer {
  /// Returns `text` with every Hangul syllable romanized in lower case; all else is unchanged.
  public static func romanize(_ text: String) -> String {
    let source = needsComposing(text) ? text.precomposedStringWithCanonicalMapping : text
    var output = String.UnicodeScalarView()
    var word: [Syllable] = []
    for scalar in source.unicodeScalars {
      if let syllable = Syllable(scalar) {
        word.append(syllable)
        continue
      }
      if !word.isEmpty {
        output.append(contentsOf: romanize(word: word).unicodeScalars)
        word.removeAll(keepingCapacity: true)
      }
      output.append(scalar)
    }
    if !word.isEmpty { output.append(contentsOf: romanize(word: word).unicodeScalars) }
    return String(output)
  }

  /// Whether `text` holds conjoining jamo (decomposed Hangul) that must be composed first.
  private static func needsComposing(_ text: String) -> Bool {
    text.unicodeScalars.contains { (0x1100...0x11FF).contains($0.value) }
  }

  /// Romanizes one word: applies the sound changes at each syllable boundary, then spells it.
  private static func romanize(word: [Syllable]) -> String {
    var onsets = word.map(\.onset)
    var codas: [Consonant?] = []
    codas.reserveCapacity(word.count)
    for index in word.indices {
      guard index + 1 < word.count else {
        codas.append(representative(word[index].coda))
        break
      }
      let next = word[index + 1]
      let joined = join(
        word[index].coda, next.onset, vowel: next.vowel,
        readsNN: index >= 1 && suffixesReadNN.contains(next.scalar))
      codas.append(joined.coda)
      onsets[index + 1] = joined.onset
    }
    var text = ""
    for index in word.indices {
      let onset = onsets[index]
      if onset == .r, index > 0, codas[index - 1] == .r {
        text += "l"
      } else {
        text += onset.initialSpelling
      }
      text += vowelSpellings[word[index].vowel]
      if let coda = codas[index] { text += coda.finalSpelling }
    }
    return text
  }

  /// The sounds at one syllable boundary: what remains of `coda` (a representative consonant
  /// or nothing) and what the next syllable now starts with.
  private static func join(
    _ coda: [Consonant], _ onset: Consonant, vowel: Int, readsNN: Bool
  ) -> (coda: Consonant?, onset: Consonant) {
    guard let last = coda.last else { return (nil, onset) }
    let first: Consonant? = coda.count == 2 ? coda[0] : nil
    switch onset {
    case .ieung:
      // Liaison: the (last) final consonant moves on; ㅎ drops; ㅇ stays where it is.
      if last == .ieung { return (.ieung, .ieung) }
      if last == .h { return (nil, first ?? .ieung) }
      if vowel == vowelI, last == .d { return (first, .j) }
      if vowel == vowelI, last == .t { return (first, .ch) }
      return (first, last)
    case .h:
      if coda == [.g, .s] || coda == [.b, .s], let first {
        return (nil, aspirated(first, beforeI: vowel == vowelI) ?? .h)
      }
      if last == .h { return (first, .h) }
      if let aspirate = aspirated(last, beforeI: vowel == vowelI) { return (first, aspirate) }
      return (representative(coda), .h)
    default:
      break
    }
    if last == .h {
      // ㅎ, ㄶ, ㅀ before a consonant: ㄱㄷㅈ are aspirated, ㅎ merges into ㅅ, ㄴ doubles.
      switch onset {
      case .g: return (first, .k)
      case .d: return (first, .t)
      case .j: return (first, .ch)
      case .s: return (first, .s)
      case .n: return first == .r ? (.r, .r) : (.n, .n)
      default: break
      }
    }
    guard var sound = representative(coda) else { return (nil, onset) }
    if coda == [.r, .g], onset == .g { sound = .r }  // 읽고 ilgo, 맑게 malge
    switch onset {
    case .n, .m:
      if sound == .r { return onset == .n ? (.r, .r) : (.r, .m) }
      return (nasal(sound), onset)
    case .r:
      switch sound {
      case .r: return (.r, .r)
      case .n: return readsNN ? (.n, .n) : (.r, .r)
      default: return (nasal(sound), .n)
      }
    default:
      return (sound, onset)
    }
  }

  /// The consonant a final takes at the end of a word or before a consonant.
  private static func representative(_ coda: [Consonant]) -> Consonant? {
    if coda.count == 2 {
      switch (coda[0], coda[1]) {
      case (.r, .g): return .g
      case (.r, .m): return .m
      case (.r, .p): return .b
      case (let first, _): return first
      }
    }
    switch coda.first {
    case nil: return nil
    case .g, .kk, .k: return .g
    case .d, .s, .ss, .j, .ch, .t, .h: return .d
    case .b, .p: return .b
    case let other: return other
    }
  }

  /// ㄱ, ㄷ, ㅂ (as representatives) become ㅇ, ㄴ, ㅁ before a nasal; others are unchanged.
  private static func nasal(_ sound: Consonant) -> Consonant {
    switch sound {
    case .g: return .ieung
    case .d: return .n
    case .b: return .m
    default: return sound
    }
  }

  /// The aspirate a final turns into before ㅎ, or nil for ㄴ, ㄹ, ㅁ, ㅇ, which keep the ㅎ.
  private static func aspirated(_ final: Consonant, beforeI: Bool) -> Consonant? {
    switch final {
    case .g, .kk, .k: return .k
    case .b, .p: return .p
    case .j, .ch: return .ch
    case .d, .t: return beforeI ? .ch : .t
    case .s, .ss: return .t
    default: return nil
    }
  }

  /// Syllables that start a Sino-Korean suffix read ㄴㄴ after ㄴ (신문로 [신문노]).
  private static let suffixesReadNN: Set<UInt32> = Set(
    "란량력로론료류".unicodeScalars.map(\.value))

  /// Index of ㅣ among the medial vowels.
  private static let vowelI = 20

  /// Spellings of the 21 medial vowels, in Unicode order.
  private static let vowelSpellings = [
    "a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae",
    "oe", "yo", "u", "wo", "we", "wi", "yu", "eu", "ui", "i",
  ]

  /// The consonants of Hangul, in the Unicode order of the initial consonants.
  private enum Consonant: Int {
    case g, kk, n, d, tt, r, m, b, pp, s, ss, ieung, j, jj, ch, k, t, p, h

    /// Spelling at the start of a syllable (ㄹ is `r`; after a final ㄹ the caller writes `l`).
    var initialSpelling: String {
      Consonant.initialSpellings[rawValue]
    }

    /// Spelling of a representative final consonant.
    var finalSpelling: String {
      switch self {
      case .g: return "k"
      case .d: return "t"
      case .b: return "p"
      case .r: return "l"
      case .ieung: return "ng"
      default: return initialSpelling
      }
    }

    private static let initialSpellings = [
      "g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t",
      "p", "h",
    ]
  }

  /// The 27 final consonants and double finals, in Unicode order, as consonants.
  private static let finals: [[Consonant]] = [
    [], [.g], [.kk], [.g, .s], [.n], [.n, .j], [.n, .h], [.d], [.r], [.r, .g], [.r, .m],
    [.r, .b], [.r, .s], [.r, .t], [.r, .p], [.r, .h], [.m], [.b], [.b, .s], [.s], [.ss],
    [.ieung], [.j], [.ch], [.k], [.t], [.p], [.h],
  ]

  /// One precomposed Hangul syllable, split into its parts.
  private struct Syllable {
    let scalar: UInt32
    let onset: Consonant
    let vowel: Int
    let coda: [Consonant]

    init?(_ scalar: Unicode.Scalar) {
      guard (0xAC00...0xD7A3).contains(scalar.value) else { return nil }
      let index = Int(scalar.value - 0xAC00)
      guard let onset = Consonant(rawValue: index / 588) else { return nil }
      self.scalar = scalar.value
      self.onset = onset
      vowel = index % 588 / 28
      coda = KoreanRomanizer.finals[index % 28]
    }
  }
}
