import Foundation
import XCTest

@testable import RefrainCore

/// Unit tests for the romanization line Refrain shows under Korean and Japanese lyrics:
/// tables of standard examples (the NIKL rules for Korean, modified Hepburn for kana).
final class RomanizationTests: XCTestCase {
  /// Checks every `(input, expected)` pair of `table` against `romanize`.
  private func check(
    _ table: [(String, String)], _ romanize: (String) -> String,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    for (input, expected) in table {
      XCTAssertEqual(romanize(input), expected, "romanizing \(input)", file: file, line: line)
    }
  }

  // MARK: - Korean

  func test_korean_vowelsAndConsonants() {
    check(RomanizationTables.koreanLetters, KoreanRomanizer.romanize)
  }

  func test_korean_liaison() {
    check(RomanizationTables.koreanLiaison, KoreanRomanizer.romanize)
  }

  func test_korean_nasalisation() {
    check(RomanizationTables.koreanNasalisation, KoreanRomanizer.romanize)
  }

  func test_korean_lateralisation() {
    check(RomanizationTables.koreanLateralisation, KoreanRomanizer.romanize)
  }

  func test_korean_palatalisation() {
    check(RomanizationTables.koreanPalatalisation, KoreanRomanizer.romanize)
  }

  func test_korean_aspirationWithH() {
    check(RomanizationTables.koreanAspiration, KoreanRomanizer.romanize)
  }

  func test_korean_tensificationIsNotWritten() {
    check(RomanizationTables.koreanTensification, KoreanRomanizer.romanize)
  }

  func test_korean_finalsAndDoubleFinals() {
    check(RomanizationTables.koreanFinals, KoreanRomanizer.romanize)
  }

  func test_korean_lyricPhrasesKeepSpacingAndPunctuation() {
    check(RomanizationTables.koreanPhrases, KoreanRomanizer.romanize)
  }

  func test_korean_wordsTheRulesCannotKnowComeOutByTheRules() {
    check(RomanizationTables.koreanKnownLimits, KoreanRomanizer.romanize)
  }

  func test_korean_decomposedHangulIsComposedFirst() {
    XCTAssertEqual(
      KoreanRomanizer.romanize("사랑해".decomposedStringWithCanonicalMapping),
      "saranghae")
  }

  // MARK: - Japanese

  func test_japanese_hiragana() {
    check(RomanizationTables.japaneseHiragana, JapaneseRomanizer.romanize)
  }

  func test_japanese_longVowels() {
    check(RomanizationTables.japaneseLongVowels, JapaneseRomanizer.romanize)
  }

  func test_japanese_moraicNBeforeVowelsAndY() {
    check(RomanizationTables.japaneseMoraicN, JapaneseRomanizer.romanize)
  }

  func test_japanese_smallTsuAndContractedSounds() {
    check(RomanizationTables.japaneseSmallKana, JapaneseRomanizer.romanize)
  }

  func test_japanese_katakana() {
    check(RomanizationTables.japaneseKatakana, JapaneseRomanizer.romanize)
  }

  func test_japanese_kanjiAndPunctuationPassThrough() {
    check(RomanizationTables.japaneseMixed, JapaneseRomanizer.romanize)
  }

  // MARK: - Choosing a romanization for a line

  func test_romanizer_romanizesLinesWithHangulOrKana() {
    for (input, expected) in RomanizationTables.lines {
      XCTAssertEqual(Romanizer.romanize(input), expected, "romanizing \(input)")
    }
  }

  func test_romanizer_isNilForLinesWithNeitherHangulNorKana() {
    for input in RomanizationTables.linesWithout {
      XCTAssertNil(Romanizer.romanize(input), "romanizing \(input)")
    }
  }

  func test_tablesCoverEnoughCases() {
    XCTAssertGreaterThanOrEqual(RomanizationTables.korean.count, 100)
    XCTAssertGreaterThanOrEqual(RomanizationTables.japanese.count, 40)
  }
}

/// The example tables, grouped by the rule they show.
private enum RomanizationTables {
  static var korean: [(String, String)] {
    koreanLetters + koreanLiaison + koreanNasalisation + koreanLateralisation
      + koreanPalatalisation + koreanAspiration + koreanTensification + koreanFinals
      + koreanPhrases
  }

  static var japanese: [(String, String)] {
    japaneseHiragana + japaneseLongVowels + japaneseMoraicN + japaneseSmallKana
      + japaneseKatakana + japaneseMixed
  }

  /// Vowels, initial consonants, and syllables with no sound change (ㄹ before a vowel is r).
  static let koreanLetters: [(String, String)] = [
    ("구미", "gumi"), ("영동", "yeongdong"), ("호법", "hobeop"), ("구리", "guri"),
    ("칠곡", "chilgok"), ("임실", "imsil"), ("라디오", "radio"), ("의사", "uisa"),
    ("희망", "huimang"), ("나의", "naui"), ("귀", "gwi"), ("외국", "oeguk"), ("왜", "wae"),
    ("웨딩", "weding"), ("뭐", "mwo"), ("과자", "gwaja"), ("얘기", "yaegi"), ("예", "ye"),
    ("여자", "yeoja"), ("요리", "yori"), ("우유", "uyu"), ("야구", "yagu"),
    ("어머니", "eomeoni"), ("세상", "sesang"), ("개", "gae"), ("예쁘다", "yeppeuda"),
    ("꿈", "kkum"), ("떡", "tteok"), ("빵", "ppang"), ("쌀", "ssal"), ("짜다", "jjada"),
    ("차", "cha"), ("커피", "keopi"), ("토끼", "tokki"), ("파도", "pado"),
    ("하늘", "haneul"), ("여름", "yeoreum"), ("바다", "bada"),
  ]

  /// 연음: a final moves to a following ㅇ; of a double final only the second moves; ㅎ drops.
  static let koreanLiaison: [(String, String)] = [
    ("음악", "eumak"), ("옷이", "osi"), ("값이", "gapsi"), ("백암", "baegam"),
    ("설악", "seorak"), ("한국어", "hangugeo"), ("있어", "isseo"), ("없어", "eopseo"),
    ("읽어", "ilgeo"), ("앉아", "anja"), ("닭이", "dalgi"), ("꽃이", "kkochi"),
    ("부엌에", "bueoke"), ("밖에", "bakke"), ("앞에", "ape"), ("젊은", "jeolmeun"),
    ("넓은", "neolbeun"), ("얼음", "eoreum"), ("강아지", "gangaji"), ("걸어요", "georeoyo"),
    ("웃음", "useum"), ("맛있어", "masisseo"), ("좋아", "joa"), ("놓아", "noa"),
    ("좋은", "joeun"), ("낳은", "naeun"), ("많아", "mana"), ("싫어", "sireo"),
    ("괜찮아", "gwaenchana"),
  ]

  /// 비음화: ㄱㄷㅂ before ㄴㅁ become ㅇㄴㅁ; ㄹ after a consonant other than ㄴ, ㄹ is ㄴ.
  static let koreanNasalisation: [(String, String)] = [
    ("백마", "baengma"), ("국물", "gungmul"), ("밥물", "bammul"), ("닫는", "danneun"),
    ("먹는", "meongneun"), ("입니다", "imnida"), ("감사합니다", "gamsahamnida"),
    ("있는", "inneun"), ("없는", "eomneun"), ("읽는", "ingneun"), ("꽃말", "kkonmal"),
    ("앞머리", "ammeori"), ("부엌문", "bueongmun"), ("십만", "simman"),
    ("작년", "jangnyeon"), ("거짓말", "geojinmal"), ("콧물", "konmul"),
    ("빛나는", "binnaneun"), ("종로", "jongno"), ("심리", "simni"), ("담력", "damnyeok"),
    ("정류장", "jeongnyujang"), ("대통령", "daetongnyeong"), ("능력", "neungnyeok"),
    ("음료수", "eumnyosu"), ("백로", "baengno"), ("왕십리", "wangsimni"),
    ("협력", "hyeomnyeok"), ("독립", "dongnip"), ("국립", "gungnip"),
    // ㄴ before a Sino-Korean suffix in a longer word is read ㄴㄴ (표준 발음법 제20항 붙임).
    ("신문로", "sinmunno"), ("생산량", "saengsannyang"),
  ]

  /// 유음화: ㄴ next to ㄹ becomes ㄹ, and ㄹㄹ is written ll.
  static let koreanLateralisation: [(String, String)] = [
    ("신라", "silla"), ("설날", "seollal"), ("별내", "byeollae"),
    ("대관령", "daegwallyeong"), ("울릉", "ulleung"), ("칼날", "kallal"),
    ("물난리", "mullalli"), ("연락", "yeollak"), ("원래", "wollae"), ("진리", "jilli"),
    ("한라산", "hallasan"), ("난로", "nallo"), ("편리", "pyeolli"), ("관리", "gwalli"),
    ("달님", "dallim"), ("줄넘기", "julleomgi"), ("실내", "sillae"), ("권력", "gwollyeok"),
    ("훈련", "hullyeon"), ("온라인", "ollain"), ("흘러", "heulleo"),
  ]

  /// 구개음화: ㄷ and ㅌ before 이 become ㅈ and ㅊ; ㄷ before 히 becomes ㅊ.
  static let koreanPalatalisation: [(String, String)] = [
    ("해돋이", "haedoji"), ("같이", "gachi"), ("굳이", "guji"), ("굳히다", "guchida"),
    ("맏이", "maji"), ("밭이", "bachi"), ("붙이다", "buchida"), ("끝이", "kkeuchi"),
    ("닫히다", "dachida"), ("묻히다", "muchida"),
  ]

  /// 격음화: ㄱㄷㅂㅈ next to ㅎ become ㅋㅌㅍㅊ; ㅎ before ㄴ is ㄴ; ㄴㄹㅁㅇ keep the h.
  static let koreanAspiration: [(String, String)] = [
    ("좋고", "joko"), ("놓다", "nota"), ("잡혀", "japyeo"), ("낳지", "nachi"),
    ("많다", "manta"), ("싫다", "silta"), ("좋다", "jota"), ("쌓지", "ssachi"),
    ("않고", "anko"), ("싫고", "silko"), ("어떻게", "eotteoke"), ("그렇지", "geureochi"),
    ("이렇게", "ireoke"), ("잊혀", "ichyeo"), ("맞히다", "machida"), ("밝히다", "balkida"),
    ("넓히다", "neolpida"), ("앉히다", "anchida"), ("착하다", "chakada"), ("급히", "geupi"),
    ("깨끗하다", "kkaekkeutada"), ("따뜻해", "ttatteutae"), ("못해", "motae"),
    ("놓는", "nonneun"), ("않는", "anneun"), ("싫네", "sille"), ("뚫는", "ttulleun"),
    // ㅎ merges into ㅅ, which is then tense, and tensification is not written.
    ("않습니다", "anseumnida"),
    ("사랑해", "saranghae"), ("안녕하세요", "annyeonghaseyo"), ("전화", "jeonhwa"),
    ("결혼", "gyeolhon"), ("감히", "gamhi"), ("영원히", "yeongwonhi"), ("미안해", "mianhae"),
    ("말해", "malhae"),
  ]

  /// 된소리되기 is not written: ㄱㄷㅂ stay g, d, b after a final.
  static let koreanTensification: [(String, String)] = [
    ("압구정", "apgujeong"), ("낙동강", "nakdonggang"), ("합덕", "hapdeok"),
    ("죽변", "jukbyeon"), ("낙성대", "nakseongdae"), ("합정", "hapjeong"),
    ("팔당", "paldang"), ("샛별", "saetbyeol"), ("울산", "ulsan"), ("학교", "hakgyo"),
    ("약속", "yaksok"), ("식당", "sikdang"), ("눈빛", "nunbit"), ("옥천", "okcheon"),
    ("발바닥", "balbadak"),
  ]

  /// Finals at the end of a word or before a consonant take their representative sound.
  static let koreanFinals: [(String, String)] = [
    ("옷", "ot"), ("밖", "bak"), ("부엌", "bueok"), ("앞", "ap"), ("꽃", "kkot"),
    ("낮", "nat"), ("밭", "bat"), ("히읗", "hieut"), ("있다", "itda"), ("값", "gap"),
    ("닭", "dak"), ("앉다", "anda"), ("읽다", "ikda"), ("없다", "eopda"), ("삶", "sam"),
    ("여덟", "yeodeol"), ("넋", "neok"), ("읊다", "eupda"), ("흙", "heuk"),
    ("젊다", "jeomda"), ("핥다", "halda"), ("맑다", "makda"), ("읽고", "ilgo"),
    ("맑게", "malge"), ("월곶", "wolgot"), ("벚꽃", "beotkkot"), ("한밭", "hanbat"),
  ]

  /// Lyric lines: sound changes stop at spaces; punctuation and other scripts stay as they are.
  static let koreanPhrases: [(String, String)] = [
    ("너를 사랑해", "neoreul saranghae"), ("보고 싶어", "bogo sipeo"),
    ("나는 너를 좋아해", "naneun neoreul joahae"), ("우리 함께 걸어요", "uri hamkke georeoyo"),
    ("별이 빛나는 밤", "byeori binnaneun bam"), ("눈물이 흘러", "nunmuri heulleo"),
    ("잊지 마", "itji ma"), ("어떻게 해", "eotteoke hae"),
    ("꿈을 꾸는 것 같아", "kkumeul kkuneun geot gata"),
    ("괜찮아 괜찮아", "gwaenchana gwaenchana"), ("안녕 내 사랑", "annyeong nae sarang"),
    ("함께라면 좋겠어", "hamkkeramyeon jokesseo"), ("사랑해, 너를!", "saranghae, neoreul!"),
    ("오늘 밤은 (너와 함께)", "oneul bameun (neowa hamkke)"),
    ("I love you 사랑해", "I love you saranghae"), ("2024년 봄", "2024nyeon bom"),
    ("ㅋㅋㅋ 웃겨", "ㅋㅋㅋ utgyeo"),
  ]

  /// Words whose standard form needs knowledge the rules do not have; Refrain writes them
  /// by the rules, and these cases pin that down (the standard form is in each comment).
  static let koreanKnownLimits: [(String, String)] = [
    ("솜이불", "somibul"),  // ㄴ-insertion: somnibul
    ("학여울", "hagyeoul"),  // ㄴ-insertion: hangnyeoul
    ("알약", "aryak"),  // ㄴ-insertion then lateralisation: allyak
    ("묵호", "muko"),  // nouns keep ㅎ after ㄱㄷㅂ: mukho
    ("집현전", "jipyeonjeon"),  // nouns keep ㅎ: jiphyeonjeon
    ("밟다", "balda"),  // lexical exception, pronounced [밥따]: bapda
  ]

  static let japaneseHiragana: [(String, String)] = [
    ("すき", "suki"), ("さよなら", "sayonara"), ("ふじさん", "fujisan"),
    ("つなみ", "tsunami"), ("はなぢ", "hanaji"), ("つづく", "tsuzuku"),
    ("かわいい", "kawaii"), ("きれい", "kirei"), ("ふゆ", "fuyu"), ("へや", "heya"),
    ("ひとを", "hitoo"), ("あいしてる", "aishiteru"), ("さくら さくら", "sakura sakura"),
    // は is written as spelled; Refrain does not detect particles.
    ("こんにちは", "konnichiha"),
  ]

  /// ー gives a macron; おう, おお and うう are ō and ū; ええ, えい and いい stay as written.
  static let japaneseLongVowels: [(String, String)] = [
    ("とうきょう", "tōkyō"), ("おおさか", "ōsaka"), ("ありがとう", "arigatō"),
    ("くうき", "kūki"), ("ゆうき", "yūki"), ("おおきい", "ōkii"), ("とおい", "tōi"),
    ("ほんとう", "hontō"), ("りょこう", "ryokō"), ("びょういん", "byōin"),
    ("ぎゅうにゅう", "gyūnyū"), ("しょうがつ", "shōgatsu"), ("ちゅうい", "chūi"),
    ("じゅう", "jū"), ("せんせい", "sensei"), ("おねえさん", "oneesan"),
    ("おにいさん", "oniisan"), ("すごーい", "sugōi"), ("ラーメン", "rāmen"),
    ("コーヒー", "kōhī"), ("ケーキ", "kēki"), ("スーパー", "sūpā"),
  ]

  /// ん is n, and n' before a vowel or y.
  static let japaneseMoraicN: [(String, String)] = [
    ("きんえん", "kin'en"), ("こんや", "kon'ya"), ("ほんや", "hon'ya"),
    ("げんいん", "gen'in"), ("たんい", "tan'i"), ("しんゆう", "shin'yū"),
    ("みんな", "minna"), ("でんわ", "denwa"), ("しんぶん", "shinbun"), ("にほん", "nihon"),
  ]

  /// Small っ doubles the next consonant (t before ch); ゃゅょ make contracted sounds.
  static let japaneseSmallKana: [(String, String)] = [
    ("きって", "kitte"), ("まっちゃ", "matcha"), ("ちょっと", "chotto"),
    ("いっしょ", "issho"), ("ざっし", "zasshi"), ("がっこう", "gakkō"), ("きっぷ", "kippu"),
    ("ずっと", "zutto"), ("しゃしん", "shashin"), ("じゃあね", "jaane"),
    ("ひゃく", "hyaku"), ("みゃく", "myaku"), ("きゃく", "kyaku"), ("りゃく", "ryaku"),
    ("にゅう", "nyū"), ("ぴょん", "pyon"), ("びゅう", "byū"), ("あっ", "a"),
  ]

  /// Katakana, with the extended syllables of loanwords.
  static let japaneseKatakana: [(String, String)] = [
    ("ティー", "tī"), ("ファン", "fan"), ("ヴァイオリン", "vaiorin"), ("ヴ", "vu"),
    ("ウィンター", "wintā"), ("シェア", "shea"), ("チェック", "chekku"),
    ("ジェット", "jetto"), ("パーティー", "pātī"), ("コンピューター", "konpyūtā"),
    ("ギター", "gitā"), ("カメラ", "kamera"), ("ミュージック", "myūjikku"),
    ("ディズニー", "dizunī"), ("フォト", "foto"), ("ツアー", "tsuā"), ("ベッド", "beddo"),
    ("キッチン", "kitchin"),
    // Only hiragana おう is read as a long vowel; katakana writes length with ー.
    ("ソウル", "souru"),
  ]

  /// Kanji, punctuation and Latin letters pass through unchanged.
  static let japaneseMixed: [(String, String)] = [
    ("君が好き", "君ga好ki"), ("東京へ行こう", "東京he行kō"),
    ("あいしてる、ずっと。", "aishiteru、zutto。"), ("Baby, だいすき", "Baby, daisuki"),
    ("ー", "ー"),
  ]

  /// Whole lyric lines and the romanization line Refrain shows under them.
  static let lines: [(String, String?)] = [
    ("사랑해", "saranghae"), ("  너를 사랑해  ", "neoreul saranghae"),
    ("あいしてる", "aishiteru"), ("사랑해 あいしてる", "saranghae aishiteru"),
    ("君が好き", "君ga好ki"), ("Baby 사랑해", "Baby saranghae"),
    ("コーヒー 한 잔", "kōhī han jan"), ("愛してる\n", "愛shiteru"),
  ]

  /// Lines with no Hangul syllable and no kana: no romanization line.
  static let linesWithout: [String] = [
    "", "   ", "Hello world", "愛", "你好世界", "ㅋㅋㅋ", "123 !!", "ー", "♪ ♪",
  ]
}
