import Foundation
import XCTest

@testable import RefrainCore

/// Japanese romanized from a dictionary's words (RefrainJapanese's MeCab; here a fixed list),
/// so the spelling rules are tested without the dictionary.
final class JapaneseWordsTests: XCTestCase {
  /// A dictionary that knows only the words it is given, split where `words` says.
  private struct FixedDictionary: JapaneseDictionary {
    var known: [String: [JapaneseWord]]
    func words(in text: String) -> [JapaneseWord] {
      known[text] ?? [JapaneseWord(surface: text, reading: nil, pronunciation: nil, kind: .other)]
    }
  }

  private func word(
    _ surface: String, _ reading: String?, _ said: String? = nil,
    _ kind: JapaneseWord.Kind = .other, space: Bool = false
  ) -> JapaneseWord {
    JapaneseWord(
      surface: surface, reading: reading, pronunciation: said ?? reading, kind: kind,
      spaceBefore: space)
  }

  func test_particlesAreWrittenAsSaid() {
    XCTAssertEqual(
      JapaneseRomanizer.romanize(words: [
        word("東京", "トウキョウ", "トーキョー"), word("へ", "ヘ", "エ", .particle),
        word("行く", "イク", nil, .verb),
      ]), "tōkyō e iku")
    XCTAssertEqual(
      JapaneseRomanizer.romanize(words: [word("こんにちは", "コンニチハ", "コンニチワ")]),
      "konnichiwa")
    XCTAssertEqual(
      JapaneseRomanizer.romanize(words: [
        word("私", "ワタシ"), word("は", "ハ", "ワ", .particle), word("本", "ホン"),
        word("を", "ヲ", "オ", .particle), word("読む", "ヨム", nil, .verb),
      ]), "watashi wa hon o yomu")
  }

  func test_aVerbFormIsOneWord() {
    XCTAssertEqual(
      JapaneseRomanizer.romanize(words: [
        word("乗っ", "ノッ", nil, .verb), word("て", "テ", nil, .conjunctiveParticle),
      ]), "notte")
    XCTAssertEqual(
      JapaneseRomanizer.romanize(words: [
        word("行き", "イキ", nil, .verb), word("まし", "マシ", nil, .auxiliary),
        word("た", "タ", nil, .auxiliary),
      ]), "ikimashita")
    XCTAssertEqual(
      JapaneseRomanizer.romanize(words: [word("きれい", "キレイ"), word("です", "デス", nil, .auxiliary)]),
      "kirei desu")
  }

  func test_aVerbsLastUIsNotLong() {
    XCTAssertEqual(JapaneseRomanizer.romanize(words: [word("思う", "オモウ", nil, .verb)]), "omou")
    XCTAssertEqual(JapaneseRomanizer.romanize(words: [word("王", "オウ")]), "ō")
  }

  func test_katakanaWordsKeepKatakanaVowels() {
    XCTAssertEqual(JapaneseRomanizer.romanize(words: [word("ソウル", "ソウル")]), "souru")
    XCTAssertEqual(JapaneseRomanizer.romanize(words: [word("トラム", nil)]), "toramu")
  }

  func test_symbolsAndLatinKeepTheirSpacing() {
    XCTAssertEqual(
      JapaneseRomanizer.romanize(words: [
        word("東京", "トウキョウ"), word("、", "、", nil, .symbol), word("大阪", "オオサカ"),
      ]), "tōkyō、ōsaka")
    XCTAssertEqual(
      JapaneseRomanizer.romanize(words: [
        word("I", nil), word("love", nil, space: true), word("愛し", "アイシ", nil, .verb, space: true),
        word("てる", "テル", nil, .auxiliary),
      ]), "I love aishiteru")
  }

  func test_romanizerUsesTheDictionaryForLinesWithKana() {
    let dictionary = FixedDictionary(known: [
      "青い自転車": [word("青い", "アオイ", nil, .adjective), word("自転車", "ジテンシャ")]
    ])
    XCTAssertEqual(Romanizer.romanize("青い自転車", dictionary: dictionary), "aoi jitensha")
    XCTAssertEqual(Romanizer.romanize("青い自転車", dictionary: nil), "青i自転車")
    XCTAssertNil(Romanizer.romanize("自転車", dictionary: dictionary), "kanji alone: no romanization")
  }
}
