import Foundation
import RefrainCore
import XCTest

/// Tests for FLO song JSON and for `LyricsDocument.load`, which tells FLO JSON from LRC.
final class LyricsFLOTests: XCTestCase {
  private func loadSong() throws -> FLOSong {
    try JSONDecoder().decode(FLOSong.self, from: LyricsFixtures.data("flo/song.json"))
  }

  // MARK: - FLO song

  func test_songJSON_decodesEveryField() throws {
    let song = try loadSong()
    XCTAssertEqual(song.singer, "챔버오케스트라")
    XCTAssertEqual(song.album, "캐롤 모음")
    XCTAssertEqual(song.title, "We Wish You A Merry Christmas")
    XCTAssertEqual(song.duration, 198)
    XCTAssertTrue(song.file.hasSuffix("music.mp3"))
    XCTAssertTrue(song.image.hasSuffix("cover.jpg"))
  }

  func test_songLyrics_have49LinesAndTheInstrumentalGap() throws {
    let document = try loadSong().lyricsDocument
    XCTAssertTrue(document.isSynced)
    XCTAssertEqual(document.lines.count, 49)
    XCTAssertEqual(document.skipped, 0)
    XCTAssertEqual(document.lines.first?.ms, 16_200)
    XCTAssertEqual(document.lines.last?.ms, 180_500)
    XCTAssertEqual(document.lines.last?.text, "and a happy new year")

    let instrumental = try XCTUnwrap(document.lines.firstIndex { $0.text == "연주" })
    XCTAssertEqual(document.lines[instrumental].ms, 89_800)
    let gap = document.lines[instrumental + 1].ms - document.lines[instrumental].ms
    XCTAssertEqual(gap, 42_100)
    XCTAssertEqual(document.lines[instrumental + 1].text, "Good tidings we bring")
  }

  func test_songLyrics_takeTagsFromTheSong() throws {
    let tags = try loadSong().lyricsDocument.tags
    XCTAssertEqual(
      tags, ["ar": "챔버오케스트라", "al": "캐롤 모음", "ti": "We Wish You A Merry Christmas"])
    let song = FLOSong(
      singer: "S", album: "", title: "T", duration: 1, image: "", file: "",
      lyrics: "[ti:From lyrics]\n[00:01:000]x")
    XCTAssertEqual(song.lyricsDocument.tags, ["ar": "S", "ti": "From lyrics"])
  }

  func test_songJSON_toleratesMissingFieldsAndFractionalDuration() throws {
    let json = #"{"duration": 12.6, "lyrics": "[00:01:500]a"}"#
    let song = try JSONDecoder().decode(FLOSong.self, from: Data(json.utf8))
    XCTAssertEqual(song.duration, 13)
    XCTAssertEqual(song.singer, "")
    XCTAssertEqual(song.lyricsDocument.lines, [LyricLine(ms: 1_500, text: "a")])
  }

  func test_songJSON_roundTripsThroughCodable() throws {
    let song = try loadSong()
    let copy = try JSONDecoder().decode(FLOSong.self, from: JSONEncoder().encode(song))
    XCTAssertEqual(copy, song)
  }

  // MARK: - Loading files

  func test_load_detectsFLOJSONAndLRC() throws {
    let flo = try LyricsDocument.load(from: LyricsFixtures.url("flo/song.json"))
    XCTAssertEqual(flo.lines.count, 49)
    let lrc = try LyricsDocument.load(
      from: LyricsFixtures.url("lrc/real/flo-we-wish-you-a-merry-christmas.lrc"))
    XCTAssertEqual(lrc.lines, flo.lines)
  }

  func test_load_readsFLOJSONWithBOMAndLeadingSpace() throws {
    let json = "\u{FEFF} \n{\"lyrics\": \"[00:01:000]a\\n[00:02:000]b\"}"
    let document = try LyricsDocument.load(data: Data(json.utf8))
    XCTAssertEqual(document.lines.map(\.text), ["a", "b"])
  }

  func test_load_reportsJSONThatIsNotASong() {
    XCTAssertThrowsError(try LyricsDocument.load(data: Data(#"{"title": "x"}"#.utf8))) { error in
      XCTAssertEqual(error as? LyricsError, .invalidFLOSong(reason: "no \"lyrics\" field"))
      XCTAssertTrue(String(describing: error).contains("FLO song"))
    }
    XCTAssertThrowsError(try LyricsDocument.load(data: Data("{ not json".utf8))) { error in
      guard case .invalidFLOSong = error as? LyricsError else {
        return XCTFail("unexpected error \(error)")
      }
    }
  }

  func test_load_reportsAMissingFile() {
    let url = LyricsFixtures.url("lrc/does-not-exist.lrc")
    XCTAssertThrowsError(try LyricsDocument.load(from: url)) { error in
      guard case .unreadable(let path, _) = error as? LyricsError else {
        return XCTFail("unexpected error \(error)")
      }
      XCTAssertEqual(path, url.path)
      XCTAssertTrue(String(describing: error).contains("Check the path"))
    }
  }
}
