import Foundation
import RefrainCore
import XCTest

@testable import RefrainJapanese

/// Japanese lyric lines romanized with MeCab's readings, against published modified Hepburn
/// (the project writes long vowels with macrons, as its kana romanizer does: tōkyō).
final class MeCabRomanizationTests: XCTestCase {
  private let dictionary = MeCabDictionary()

  private func romanized(_ line: String) -> String? {
    Romanizer.romanize(line, dictionary: dictionary)
  }

  func test_theDictionaryIsInstalled() {
    XCTAssertTrue(dictionary.isAvailable, "install libmecab-dev and mecab-ipadic-utf8")
  }

  // MARK: - Published examples

  func test_particlesAreWrittenAsSaid() {
    XCTAssertEqual(romanized("こんにちは"), "konnichiwa")
    XCTAssertEqual(romanized("こんばんは"), "konbanwa")
    XCTAssertEqual(romanized("東京へ行く"), "tōkyō e iku")
    XCTAssertEqual(romanized("私は学生です"), "watashi wa gakusei desu")
    XCTAssertEqual(romanized("本を読む"), "hon o yomu")
  }

  func test_kanjiAreReadAndWordsSpaced() {
    XCTAssertEqual(romanized("青い自転車"), "aoi jitensha")
    XCTAssertEqual(romanized("夜のトラムに乗って"), "yoru no toramu ni notte")
    XCTAssertEqual(romanized("日本語を話す"), "nihongo o hanasu")
  }

  func test_longVowelsFollowTheKanaConventions() {
    XCTAssertEqual(romanized("大阪へ"), "ōsaka e")
    XCTAssertEqual(romanized("先生"), nil, "kanji alone may be Chinese: no romanization")
    XCTAssertEqual(romanized("先生と"), "sensei to")
    XCTAssertEqual(romanized("そう思う"), "sō omou", "a verb's last u is not a long vowel")
    XCTAssertEqual(romanized("コーヒーを飲みました"), "kōhī o nomimashita")
  }

  func test_scriptsAreNeverMixedInAWord() {
    for line in ["青い自転車", "夜のトラムに乗って", "君の名前を呼んだ", "桜が咲いた"] {
      let out = romanized(line) ?? ""
      XCTAssertFalse(
        out.unicodeScalars.contains { (0x3000...0x9FFF).contains($0.value) },
        "\(line) → \(out)")
    }
  }

  func test_punctuationAndLatinKeepTheirPlaces() {
    XCTAssertEqual(romanized("東京、大阪へ"), "tōkyō、ōsaka e")
    XCTAssertEqual(romanized("I love you 愛してる"), "I love you aishiteru")
  }

  // MARK: - IPADIC features

  func test_featuresGiveKindsAndReadings() {
    let particle = MeCabDictionary.word(
      surface: "は", feature: "助詞,係助詞,*,*,*,*,は,ハ,ワ", spaceBefore: false)
    XCTAssertEqual(particle.kind, .particle)
    XCTAssertEqual(particle.reading, "ハ")
    XCTAssertEqual(particle.pronunciation, "ワ")
    let unknown = MeCabDictionary.word(
      surface: "トラム", feature: "名詞,一般,*,*,*,*,*", spaceBefore: true)
    XCTAssertEqual(unknown.kind, .other)
    XCTAssertNil(unknown.reading)
    XCTAssertTrue(unknown.spaceBefore)
    XCTAssertEqual(
      MeCabDictionary.word(surface: "て", feature: "助詞,接続助詞,*,*,*,*,て,テ,テ", spaceBefore: false)
        .kind, .conjunctiveParticle)
  }
}
