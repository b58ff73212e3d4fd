import Foundation
import RefrainCore
import RefrainHTTP
import XCTest

@testable import RefrainCatalog
@testable import RefrainSubsonic

/// OpenSubsonic structured lyrics into the LRC timeline: times, the offset, languages.
final class SubsonicLyricsTests: XCTestCase {
  private func entries(_ json: String) throws -> [SubsonicStructuredLyrics] {
    let body = try JSONDecoder().decode(
      SubsonicResponse<SubsonicLyricsBody>.self, from: Data(json.utf8))
    return body.body?.lyricsList?.structuredLyrics ?? []
  }

  // An answer shaped as OpenSubsonic documents getLyricsBySongId, in two languages.
  private let twoLanguages = """
    {"subsonic-response":{"status":"ok","version":"1.16.1","openSubsonic":true,
    "lyricsList":{"structuredLyrics":[
    {"displayArtist":"Muse","displayTitle":"Hysteria","lang":"eng","offset":-100,"synced":true,
     "line":[{"start":0,"value":"It's bugging me"},{"start":2000,"value":"Grating me"},
             {"start":3001,"value":"And twisting me around"}]},
    {"lang":"xxx","offset":-100,"synced":true,
     "line":[{"start":0,"value":"Ça me dérange"},{"start":2000,"value":"Ça m'agace"}]},
    {"lang":"eng","synced":false,"line":[{"value":"It's bugging me"}]}]}}}
    """

  func testSyncedLinesKeepTheirTimesAndTheServersOffset() throws {
    let text = try XCTUnwrap(SubsonicLyricsMapping.lrcText(try entries(twoLanguages)))
    let document = LRCParser.parse(text)
    XCTAssertTrue(document.isSynced)
    XCTAssertEqual(document.offsetMs, -100)
    let originals = document.lines.enumerated().filter {
      LyricGroups(lines: document.lines, synced: true).roles[$0.offset] == .original
    }.map { "\($0.element.ms) \($0.element.text)" }
    XCTAssertEqual(
      originals, ["0 It's bugging me", "2000 Grating me", "3001 And twisting me around"])
  }

  func testAnotherLanguageBecomesTheTranslationLines() throws {
    let text = try XCTUnwrap(SubsonicLyricsMapping.lrcText(try entries(twoLanguages)))
    let document = LRCParser.parse(text)
    let groups = LyricGroups(lines: document.lines, synced: true)
    let translations = document.lines.indices.filter { groups.roles[$0] == .translation }
      .map { document.lines[$0].text }
    XCTAssertEqual(translations, ["Ça me dérange", "Ça m'agace"])
  }

  func testPlainLyricsStayPlain() throws {
    let plain = """
      {"subsonic-response":{"status":"ok","version":"1.16.1","lyricsList":{"structuredLyrics":[
      {"lang":"und","synced":false,"line":[{"value":"first"},{"value":"second"}]}]}}}
      """
    let document = LRCParser.parse(
      try XCTUnwrap(SubsonicLyricsMapping.lrcText(try entries(plain))))
    XCTAssertFalse(document.isSynced)
    XCTAssertEqual(document.lines.map(\.text), ["first", "second"])
  }

  func testNoLinesAreNoLyrics() throws {
    let empty = #"{"subsonic-response":{"status":"ok","version":"1.16.1","lyricsList":{}}}"#
    XCTAssertNil(SubsonicLyricsMapping.lrcText(try entries(empty)))
  }
}
