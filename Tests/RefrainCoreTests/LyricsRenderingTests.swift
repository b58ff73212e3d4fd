import Foundation
import RefrainCore
import XCTest

/// Tests for what `refrain lyrics FILE` prints: the `--json` contract and the timeline text.
final class LyricsRenderingTests: XCTestCase {
  private let document = LRCParser.parse(
    """
    [ti:Song "One"]
    [ar:Ärtist\\]
    [offset:-250]
    stray text
    [01:15.30]second
    [00:12.00]<00:12.00>first <00:12.50>words
    [00:20.00]
    [100:00.5]late
    """)

  // MARK: - JSON contract

  func test_jsonData_matchesTheCLIContractExactly() {
    // One encoder for all of Refrain's JSON: keys sorted, so the output is byte-stable.
    let expected = """
      {"lines":[{"ms":12000,"text":"first words","words":[{"ms":12000,"text":"first"},\
      {"ms":12500,"text":"words"}]},{"ms":20000,"text":""},{"ms":75300,"text":"second"},\
      {"ms":6000500,"text":"late"}],"offset_ms":-250,"skipped":1,\
      "tags":{"ar":"Ärtist\\\\","offset":"-250","ti":"Song \\"One\\""}}
      """
    XCTAssertEqual(String(decoding: document.jsonData(), as: UTF8.self), expected)
  }

  /// The CLI JSON read back, as a client of `refrain lyrics --json` reads it.
  private struct Decoded: Decodable, Equatable {
    struct Word: Decodable, Equatable {
      var ms: Int
      var text: String
    }
    struct Line: Decodable, Equatable {
      var ms: Int
      var text: String
      var words: [Word]?
    }
    var tags: [String: String]
    var offset_ms: Int
    var lines: [Line]
    var skipped: Int
  }

  func test_jsonData_readsBackAsTheDocument() throws {
    let decoded = try JSONDecoder().decode(Decoded.self, from: document.jsonData())
    XCTAssertEqual(decoded.tags, document.tags)
    XCTAssertEqual(decoded.offset_ms, document.offsetMs)
    XCTAssertEqual(decoded.skipped, document.skipped)
    XCTAssertEqual(decoded.lines.map(\.ms), document.lines.map(\.ms))
    XCTAssertEqual(decoded.lines.map(\.text), document.lines.map(\.text))
    XCTAssertEqual(decoded.lines.map { $0.words != nil }, [true, false, false, false])
  }

  func test_jsonData_escapesControlCharacters() throws {
    let odd = LyricsDocument(lines: [LyricLine(ms: 1, text: "a\u{1B}[31m\tb\n\"c\"")])
    let json = String(decoding: odd.jsonData(), as: UTF8.self)
    XCTAssertTrue(json.contains(#""text":"a\u001b[31m\tb\n\"c\"""#), json)
    let decoded = try JSONDecoder().decode(Decoded.self, from: odd.jsonData())
    XCTAssertEqual(decoded.lines.map(\.text), ["a\u{1B}[31m\tb\n\"c\""])
  }

  func test_jsonData_ofPlainLyrics_listsTextAtZero() {
    let json = String(decoding: LRCParser.parse("la\n\nla").jsonData(), as: UTF8.self)
    XCTAssertEqual(
      json,
      #"{"lines":[{"ms":0,"text":"la"},{"ms":0,"text":""},{"ms":0,"text":"la"}],"#
        + #""offset_ms":0,"skipped":0,"tags":{}}"#)
  }

  // MARK: - Timeline text

  func test_timelineText_printsOneStampedLinePerLyric() {
    let expected = """
      [00:12.000] first words
      [00:20.000]
      [01:15.300] second
      [100:00.500] late
      """
    XCTAssertEqual(document.timelineText(), expected)
  }

  func test_timelineText_ofPlainLyrics_isTheText() {
    XCTAssertEqual(LRCParser.parse("la\n\nla").timelineText(), "la\n\nla")
  }

  func test_timelineText_parsesBackToTheSameLines() {
    let plainLines = document.lines.map { LyricLine(ms: $0.ms, text: $0.text) }
    XCTAssertEqual(LRCParser.parse(document.timelineText()).lines, plainLines)
  }

  // MARK: - Codable

  func test_document_roundTripsThroughCodable() throws {
    let copy = try JSONDecoder().decode(
      LyricsDocument.self, from: JSONEncoder().encode(document))
    XCTAssertEqual(copy, document)
  }
}
