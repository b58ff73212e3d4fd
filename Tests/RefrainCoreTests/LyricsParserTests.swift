import Foundation
import RefrainCore
import XCTest

/// Unit tests for `LRCParser`: each LRC variant Refrain's users bring, one table per rule.
final class LyricsParserTests: XCTestCase {
  /// Parses `lrc` and returns the times of its lines.
  private func times(_ lrc: String) -> [Int] {
    LRCParser.parse(lrc).lines.map(\.ms)
  }

  // MARK: - Time tags

  func test_timeTagShapes_giveExpectedMilliseconds() {
    let table: [(tag: String, ms: Int)] = [
      ("[01:23.45]", 83_450),  // mm:ss.xx
      ("[01:23.456]", 83_456),  // mm:ss.xxx
      ("[1:23.4]", 83_400),  // m:ss.x
      ("[01:23]", 83_000),  // mm:ss
      ("[01:23,45]", 83_450),  // comma fraction
      ("[01:23,450]", 83_450),
      ("[00:16:200]", 16_200),  // FLO mm:ss:SSS
      ("[00:01:50]", 1_500),  // mm:ss:xx
      ("[00:01:5]", 1_500),
      ("[00:00.1]", 100),  // one digit is tenths
      ("[00:00.01]", 10),
      ("[00:00.001]", 1),
      ("[00:02.1234]", 2_123),  // extra digits are truncated
      ("[00:03.123456]", 3_123),
      ("[123:45.67]", 7_425_670),  // minutes above 99
      ("[168:10:254]", 10_090_254),
      ("[1:02:33.45]", 3_753_450),  // h:mm:ss.xx
      ("[2:00:00.00]", 7_200_000),
      ("[1:02:33,4567]", 3_753_456),
      ("[1:02:33:4567]", 3_753_456),  // h:mm:ss:ffff
      ("[01:00:00]", 60_000),  // three fields without '.' read as mm:ss:ff
      ("[01:010.010]", 70_010),  // zero-padded seconds
      ("[ 1 : 10 . 10 ]", 70_100),  // spaces inside the brackets
      ("[00:59.999]", 59_999),
    ]
    for (tag, ms) in table {
      XCTAssertEqual(times(tag + "text"), [ms], tag)
    }
  }

  func test_invalidTimeTags_areSkippedAndCounted() {
    let table = [
      "[01:60.00]", "[00:99.00]", "[3:102.5]", "[-01:00.00]", "[01:-1.00]", "[1]", "[2.1]",
      "[61]", "[abc]", "[NaN:NaN]", "[00:01.]", "[00:01.00", "[1:60:00.00]", "[1:2:3:4:5]",
      "[1:02:33:45.6]", "[1234567890:00]", "[]", "[00 01:00]",
    ]
    for tag in table {
      let document = LRCParser.parse("[00:01.00]ok\n\(tag)bad")
      XCTAssertEqual(document.lines.map(\.text), ["ok"], tag)
      XCTAssertEqual(document.skipped, 1, tag)
    }
  }

  func test_severalLeadingTags_repeatTheLineAtEachTime() {
    let table: [(lrc: String, ms: [Int])] = [
      ("[00:12.00][01:15.30]chorus", [12_000, 75_300]),
      ("[00:01.00][00:05.00][01:30.00]chorus", [1_000, 5_000, 90_000]),
      (" [1 : 00 ][ 2: 00] chorus", [60_000, 120_000]),
      ("[1:00 ]  [  2:00] [ 3:01 ]  chorus", [60_000, 120_000, 181_000]),
    ]
    for (lrc, ms) in table {
      let document = LRCParser.parse(lrc)
      XCTAssertEqual(document.lines.map(\.ms), ms, lrc)
      XCTAssertEqual(Set(document.lines.map(\.text)), ["chorus"], lrc)
    }
  }

  // MARK: - ID tags and offset

  func test_idTags_areLowerCasedTrimmedAndLastWins() {
    let lrc = """
      [ar:Artist]
      [TI: First ]
      [ti:Last]
      [al:Album]
      [au:Author]
      [by:Maker]
      [length: 2:50]
      [re:Editor]
      [ve:1.0]
      [ Lang :  eng  ]
      [00:01.00]hi
      """
    let document = LRCParser.parse(lrc)
    XCTAssertEqual(
      document.tags,
      [
        "ar": "Artist", "ti": "Last", "al": "Album", "au": "Author", "by": "Maker",
        "length": "2:50", "re": "Editor", "ve": "1.0", "lang": "eng",
      ])
    XCTAssertEqual(document.skipped, 0)
  }

  func test_offsetTag_isParsedAsSignedMilliseconds() {
    let table: [(value: String, ms: Int)] = [
      ("+1000", 1_000), ("-150", -150), (" 1551 ", 1_551), ("0", 0), ("not-a-number", 0),
      ("+/- shifts time", 0), ("", 0), ("12.5", 0), ("99999999999999999999", 0),
      ("86400001", 0),
    ]
    for (value, ms) in table {
      let document = LRCParser.parse("[offset:\(value)]\n[00:01.00]hi")
      XCTAssertEqual(document.offsetMs, ms, value)
      XCTAssertEqual(document.lines.map(\.ms), [1_000], "offset is not applied to ms")
    }
    XCTAssertEqual(LRCParser.parse("[offset:100]\n[OFFSET:-20]\n[00:01]x").offsetMs, -20)
  }

  func test_tagValueWithBracket_usesTheLastBracket() {
    XCTAssertEqual(LRCParser.parse("[ti:Song [Live]]\n[00:01]x").tags["ti"], "Song [Live]")
  }

  // MARK: - Word timing

  func test_wordTiming_readsA2AndInlineSquareTags() {
    let table: [(lrc: String, text: String, words: [LyricWord], endMs: Int?)] = [
      (
        "[00:01.00]<00:01.00>hello <00:01.50>world", "hello world",
        [LyricWord(ms: 1_000, text: "hello"), LyricWord(ms: 1_500, text: "world")], nil
      ),
      (
        "[00:10.00] hello [00:11.02] world", "hello world",
        [LyricWord(ms: 10_000, text: "hello"), LyricWord(ms: 11_020, text: "world")], nil
      ),
      (
        "[00:10.82]Test[00:10.97] Word[00:12.62]", "Test Word",
        [LyricWord(ms: 10_820, text: "Test"), LyricWord(ms: 10_970, text: "Word")], 12_620
      ),
      (
        "[00:01.000]<00:01.000>Hello <00:01.500>World<00:02.000>", "Hello World",
        [LyricWord(ms: 1_000, text: "Hello"), LyricWord(ms: 1_500, text: "World")], 2_000
      ),
      (
        "[00:05.220]你好椒盐音乐[00:06.220]", "你好椒盐音乐",
        [LyricWord(ms: 5_220, text: "你好椒盐音乐")], 6_220
      ),
      (
        "[00:01]<00:01>你<00:02>好", "你好",
        [LyricWord(ms: 1_000, text: "你"), LyricWord(ms: 2_000, text: "好")], nil
      ),
      (
        "[10:10.10]<10:10.12>   <10:11.02>world", "world",
        [LyricWord(ms: 611_020, text: "world")], nil
      ),
      (
        "[00:01.00]<00:01.00>ok <bad>lost", "ok <bad>lost",
        [LyricWord(ms: 1_000, text: "ok <bad>lost")], nil
      ),
      (
        "[00:01]a<00:02><00:03>", "a", [LyricWord(ms: 1_000, text: "a")], 2_000
      ),
    ]
    for (lrc, text, words, endMs) in table {
      let line = LRCParser.parse(lrc).lines.first
      XCTAssertEqual(line?.text, text, lrc)
      XCTAssertEqual(line?.words, words, lrc)
      XCTAssertEqual(line?.endMs, endMs, lrc)
    }
  }

  func test_lineWithoutWordTags_hasNoWords() {
    let line = LRCParser.parse("[00:01.00]a < b > c [x]").lines.first
    XCTAssertEqual(line?.text, "a < b > c [x]")
    XCTAssertNil(line?.words)
    XCTAssertNil(line?.endMs)
  }

  func test_wordTagsWithoutText_giveNoWords() {
    let line = LRCParser.parse("[00:01.00]<00:02.00> <00:03.00>").lines.first
    XCTAssertEqual(line?.text, "")
    XCTAssertNil(line?.words)
    XCTAssertNil(line?.endMs)
  }

  func test_repeatedWordTimedLine_shiftsWordsWithEachCopy() {
    let lines = LRCParser.parse("[00:10.00][01:10.00]<00:10.50>la <00:11.00>la<00:11.50>").lines
    XCTAssertEqual(lines.map(\.ms), [10_000, 70_000])
    XCTAssertEqual(lines[1].words?.map(\.ms), [70_500, 71_000])
    XCTAssertEqual(lines[1].endMs, 71_500)
  }

  // MARK: - Breaks, order and line endings

  func test_emptyTimedLines_areKeptAsBreaks() {
    let lines = LRCParser.parse("[00:01.12]Hello\n[00:03.00]\n[00:05.00]World\n[00:07.00] ").lines
    XCTAssertEqual(lines.map(\.text), ["Hello", "", "World", ""])
  }

  func test_outOfOrderLines_areSortedStably() {
    let lrc = "[00:03.00]c\n[00:01.12]a1\n[00:02.00]b\n[00:01.12]a2\n[00:01.120]a3"
    let lines = LRCParser.parse(lrc).lines
    XCTAssertEqual(lines.map(\.text), ["a1", "a2", "a3", "b", "c"])
  }

  func test_lineEndings_CRLF_CR_LF_andMixed() {
    let table = [
      "[00:01.00]a\r\n[00:02.00]b\r\n[00:03.00]c",
      "[00:01.00]a\r[00:02.00]b\r[00:03.00]c",
      "[00:01.00]a\n[00:02.00]b\n[00:03.00]c\n",
      "[00:01.00]a\r\n[00:02.00]b\r[00:03.00]c\n\n",
    ]
    for lrc in table {
      let document = LRCParser.parse(lrc)
      XCTAssertEqual(document.lines.map(\.text), ["a", "b", "c"], lrc.debugDescription)
      XCTAssertEqual(document.skipped, 0, lrc.debugDescription)
    }
  }

  func test_textIsTrimmedAndSpacesCollapsed() {
    let table: [(lrc: String, text: String)] = [
      ("[00:01.00]  hello \t  world  ", "hello world"),
      ("[00:01.00]\u{3000}静かな\u{3000}夜\u{3000}", "静かな\u{3000}夜"),
      ("[00:01.00]\u{A0}x\u{A0}", "x"),
    ]
    for (lrc, text) in table {
      XCTAssertEqual(LRCParser.parse(lrc).lines.first?.text, text, lrc)
    }
  }

  // MARK: - Skipped lines and comments

  func test_skippedLines_countUntimedTextAndBadTags_notCommentsOrBlanks() {
    let lrc = """
      Some prelude
      [:] a comment
      [:]

      [ar:Artist]
      [00:01.00]one
      [Chorus]
      [01:60.00]sixty
      [00:02.00][scared]two
      """
    let document = LRCParser.parse(lrc)
    XCTAssertEqual(document.lines.map(\.text), ["one", "[scared]two"])
    XCTAssertEqual(document.skipped, 3)
    XCTAssertEqual(document.tags, ["ar": "Artist"])
  }

  func test_lrcxAttachments_areIgnoredWithoutCounting() {
    let lrc = """
      [00:00.599]銀の龍
      [00:00.599][tt]<0,0><200,1>
      [00:00.599][fu]<ぎん,0,1>
      [00:00.599][tr:zh-Hans]银色的龙
      """
    let document = LRCParser.parse(lrc)
    XCTAssertEqual(document.lines.map(\.text), ["銀の龍"])
    XCTAssertEqual(document.skipped, 0)
  }

  // MARK: - Plain lyrics

  func test_fileWithoutTimeTags_isPlainLyrics() {
    let text = """
      [ti:Song]
      [:] comment

      First line
      This could [00:00:00] be synced
      [Chorus]


      Last line

      """
    let document = LRCParser.parse(text)
    XCTAssertFalse(document.isSynced)
    XCTAssertEqual(
      document.lines.map(\.text),
      ["First line", "This could [00:00:00] be synced", "[Chorus]", "", "Last line"])
    XCTAssertEqual(Set(document.lines.map(\.ms)), [0])
    XCTAssertEqual(document.skipped, 0)
    XCTAssertEqual(document.tags, ["ti": "Song"])
  }

  func test_emptyInput_isEmptyPlainDocument() {
    XCTAssertEqual(LRCParser.parse(""), LyricsDocument(isSynced: false))
  }

  // MARK: - Encodings and prefixes

  func test_parseData_decodesEveryEncodingRefrainAccepts() {
    let lrc = "[00:01.00]café ’x’\n[00:02.00]終わり"
    var utf16LE = Data([0xFF, 0xFE])
    var utf16BE = Data([0xFE, 0xFF])
    var utf16NoBOM = Data()
    for unit in lrc.utf16 {
      utf16LE.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)])
      utf16BE.append(contentsOf: [UInt8(unit >> 8), UInt8(unit & 0xFF)])
      utf16NoBOM.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)])
    }
    let table: [(name: String, data: Data)] = [
      ("UTF-8", Data(lrc.utf8)),
      ("UTF-8 BOM", Data([0xEF, 0xBB, 0xBF]) + Data(lrc.utf8)),
      ("UTF-16 LE", utf16LE),
      ("UTF-16 BE", utf16BE),
      ("UTF-16 LE without BOM", utf16NoBOM),
    ]
    for (name, data) in table {
      XCTAssertEqual(
        LRCParser.parse(data: data).lines.map(\.text), ["café ’x’", "終わり"], name)
    }
  }

  func test_parseData_fallsBackToLatin1() {
    let data = Data("[00:01.00]caf".utf8) + Data([0xE9, 0x20, 0x93, 0x78, 0x94])
    XCTAssertEqual(LRCParser.parse(data: data).lines.first?.text, "café “x”")
  }

  func test_byteOrderMarkInString_isIgnored() {
    XCTAssertEqual(LRCParser.parse("\u{FEFF}[00:01.00]hello").lines.map(\.ms), [1_000])
  }

  func test_id3LanguagePrefix_isStripped() {
    let document = LRCParser.parse("eng||[ti:Demo]\n[00:01.00]hello")
    XCTAssertEqual(document.tags, ["ti": "Demo"])
    XCTAssertEqual(document.lines.map(\.text), ["hello"])
    XCTAssertEqual(document.skipped, 0)
  }
}
