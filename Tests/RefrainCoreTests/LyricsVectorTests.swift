import Foundation
import RefrainCore
import XCTest

/// Data-driven tests: the shared LRC vectors (taken from five parsers' test suites) and the
/// real LRC files in `Tests/Fixtures/lrc`.
final class LyricsVectorTests: XCTestCase {
  /// One case of `lrc/vectors.json`.
  private struct Vector: Decodable {
    var name: String
    var lrc: String
    var expect: [LyricsVectorLine]
    var tags: [String: String]
    var offsetMs: Int
    var conflict: Bool?
    var upstreamExpect: [LyricsVectorLine]?
    var expectOffsetApplied: [LyricsVectorLine]?

    enum CodingKeys: String, CodingKey {
      case name, lrc, expect, tags, conflict
      case offsetMs = "offset_ms"
      case upstreamExpect = "upstream_expect"
      case expectOffsetApplied = "expect_offset_applied"
    }
  }

  private func loadVectors() throws -> [Vector] {
    try JSONDecoder().decode([Vector].self, from: LyricsFixtures.data("lrc/vectors.json"))
  }

  // MARK: - Shared vectors

  func test_everyVector_matchesExpectedLinesTagsAndOffset() throws {
    let vectors = try loadVectors()
    XCTAssertEqual(vectors.count, 74)
    for vector in vectors {
      let document = LRCParser.parse(vector.lrc)
      let timed = document.isSynced ? document.lines.map(LyricsVectorLine.init) : []
      let accepted =
        [vector.expect] + (vector.conflict == true ? [vector.upstreamExpect ?? []] : [])
      XCTAssertTrue(
        accepted.contains(timed),
        "\(vector.name): got \(timed), expected \(vector.expect)")
      XCTAssertEqual(document.tags, vector.tags, vector.name)
      XCTAssertEqual(document.offsetMs, vector.offsetMs, vector.name)
    }
  }

  func test_conflictVectors_followRefrainsChoice() throws {
    // Refrain picks `expect` for every conflict: spec offset sign, breaks kept, trimmed
    // text, mm:ss:ff for three bare fields, and mid-line tags as word stamps.
    for vector in try loadVectors() where vector.conflict == true {
      let lines = LRCParser.parse(vector.lrc).lines.map(LyricsVectorLine.init)
      XCTAssertEqual(lines, vector.expect, vector.name)
    }
  }

  func test_vectorsWithOffset_matchTimelineWithOffsetApplied() throws {
    let vectors = try loadVectors().filter { $0.expectOffsetApplied != nil }
    XCTAssertFalse(vectors.isEmpty)
    for vector in vectors {
      let timeline = LyricTimeline(document: LRCParser.parse(vector.lrc))
      let shifted = timeline.lines.indices.map {
        Int((timeline.seekTarget(forLine: $0) * 1000).rounded())
      }
      XCTAssertEqual(shifted, vector.expectOffsetApplied?.map(\.ms), vector.name)
    }
  }

  // MARK: - Real files

  func test_realFiles_parseIntoSortedSyncedLyrics() throws {
    let files = try LyricsFixtures.realLRCFiles()
    XCTAssertEqual(files.count, 7)
    for file in files {
      let name = file.lastPathComponent
      let document = try LyricsDocument.load(from: file)
      XCTAssertTrue(document.isSynced, name)
      XCTAssertFalse(document.lines.isEmpty, name)
      XCTAssertEqual(document.lines.map(\.ms), document.lines.map(\.ms).sorted(), name)
      for line in document.lines {
        XCTAssertFalse(line.text.hasPrefix("[tt]") || line.text.hasPrefix("[fu]"), name)
        XCTAssertFalse(line.text.contains("\u{FEFF}") || line.text.contains("\r"), name)
        XCTAssertEqual(line.text, line.text.trimmingCharacters(in: .whitespaces), name)
      }
    }
  }

  func test_lrclibFile_keepsBreaksAndEndsWithOne() throws {
    let document = try LyricsDocument.load(
      from: LyricsFixtures.url("lrc/real/lrclib-borislav-slavov-i-want-to-live.lrc"))
    XCTAssertEqual(document.lines.first?.ms, 17_120)
    XCTAssertEqual(document.lines.first?.text, "I feel your breath upon my neck")
    XCTAssertEqual(document.lines.last?.ms, 205_720)
    XCTAssertEqual(document.lines.last?.text, "")
    XCTAssertEqual(document.lines.filter(\.text.isEmpty).count, 7)
    XCTAssertEqual(document.skipped, 0)
  }

  func test_floFile_readsMillisecondsAndKoreanBreak() throws {
    let document = try LyricsDocument.load(
      from: LyricsFixtures.url("lrc/real/flo-we-wish-you-a-merry-christmas.lrc"))
    XCTAssertEqual(document.lines.count, 49)
    XCTAssertEqual(document.lines.first?.ms, 16_200)
    let breakIndex = try XCTUnwrap(document.lines.firstIndex { $0.text == "연주" })
    XCTAssertEqual(document.lines[breakIndex].ms, 89_800)
    XCTAssertEqual(document.lines[breakIndex + 1].ms - document.lines[breakIndex].ms, 42_100)
  }

  func test_auldLangSyne_plainAndEnhancedAgreeOnLines() throws {
    let plain = try LyricsDocument.load(
      from: LyricsFixtures.url("lrc/real/navidrome-auld-lang-syne.lrc"))
    let enhanced = try LyricsDocument.load(
      from: LyricsFixtures.url("lrc/real/navidrome-auld-lang-syne.elrc"))
    XCTAssertEqual(plain.tags["lang"], "eng")
    XCTAssertEqual(enhanced.tags["lang"], "eng")
    XCTAssertEqual(plain.lines.first?.text, "Should auld acquaintance be forgot,")
    XCTAssertNil(plain.lines.first?.words)
    let first = try XCTUnwrap(enhanced.lines.first)
    XCTAssertEqual(first.text, "Should auld acquaintance be forgot,")
    XCTAssertEqual(first.words?.map(\.text), ["Should", "auld", "acquaintance", "be", "forgot,"])
    XCTAssertEqual(first.words?.map(\.ms), [0, 900, 1_800, 2_700, 3_600])
    XCTAssertTrue(enhanced.lines.allSatisfy { $0.text.isEmpty || $0.words != nil })
    let shared = min(plain.lines.count, enhanced.lines.count)
    XCTAssertGreaterThan(shared, 20)
    XCTAssertEqual(
      Array(plain.lines.prefix(shared).map(\.text)),
      Array(enhanced.lines.prefix(shared).map(\.text)))
  }

  func test_bomFiles_decodeUTF8AndUTF16() throws {
    let utf8 = try LyricsDocument.load(from: LyricsFixtures.url("lrc/real/navidrome-bom-test.lrc"))
    XCTAssertEqual(utf8.lines.map(LyricsVectorLine.init).map(\.description), ["0 \"作曲 : 柏大輔\""])
    XCTAssertEqual(utf8.skipped, 3)

    let utf16 = try LyricsDocument.load(
      from: LyricsFixtures.url("lrc/real/navidrome-bom-utf16-test.lrc"))
    XCTAssertEqual(utf16.lines.map(\.ms), [18_800, 22_801])
    XCTAssertEqual(utf16.lines.first?.text, "We're no strangers to love")
  }

  func test_lrcxFile_showsOnlyTheJapaneseLines() throws {
    let document = try LyricsDocument.load(
      from: LyricsFixtures.url("lrc/real/lyricskit-gin-no-ryu-no-se-ni-notte.lrcx"))
    XCTAssertEqual(document.tags["ti"], "銀の龍の背に乗って")
    XCTAssertEqual(document.tags["total"], "375275")
    XCTAssertEqual(document.lines.first?.ms, 599)
    XCTAssertEqual(document.lines.first?.text, "銀の龍の背に乗って - 中島みゆき")
    XCTAssertFalse(document.lines.contains { $0.text.contains("<") })
    XCTAssertEqual(Set(document.lines.map(\.ms)).count, document.lines.count)
  }
}
