import Foundation
import XCTest

@testable import RefrainCore

/// Radio playlists read into their streams: PLS by entry number, M3U lines, relative entries,
/// HLS refused, and what counts as a playlist.
final class StreamPlaylistTests: XCTestCase {
  private let remote = URL(string: "http://127.0.0.1:8000/lists/station.pls")!

  func testPLSEntriesComeInTheOrderOfTheirNumbers() throws {
    let text = """
      \u{FEFF}[playlist]\r
      NumberOfEntries=3\r
      File2=http://127.0.0.1:8002/b\r
      Title2=Second\r
      file1 = http://127.0.0.1:8001/a\r
      File3=mirror.mp3\r
      Length1=-1\r
      Version=2\r
      """
    XCTAssertEqual(
      try StreamPlaylist.entries(in: text, base: remote).map(\.absoluteString),
      [
        "http://127.0.0.1:8001/a", "http://127.0.0.1:8002/b",
        "http://127.0.0.1:8000/lists/mirror.mp3",
      ])
  }

  func testM3ULinesThatAreNotCommentsAreTheEntries() throws {
    let text = """
      #EXTM3U
      #EXTINF:-1,Station One
      http://127.0.0.1:8001/one

      #EXTINF:-1,Station Two
      ../two.mp3
      """
    XCTAssertEqual(
      try StreamPlaylist.entries(in: text, base: remote).map(\.absoluteString),
      ["http://127.0.0.1:8001/one", "http://127.0.0.1:8000/two.mp3"])
  }

  func testRelativeEntriesOfALocalPlaylistAreBesideIt() throws {
    let file = URL(fileURLWithPath: "/music/radio/list.m3u8")
    XCTAssertEqual(
      try StreamPlaylist.entries(in: "a b.mp3\n/abs/c.mp3\n", base: file).map(\.path),
      ["/music/radio/a b.mp3", "/abs/c.mp3"])
  }

  func testHLSAndEmptyPlaylistsAreRefused() {
    let hls = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nsegment0.ts\n"
    XCTAssertThrowsError(try StreamPlaylist.entries(in: hls, base: remote)) {
      XCTAssertEqual($0 as? StreamPlaylist.Problem, .hls)
    }
    XCTAssertThrowsError(
      try StreamPlaylist.entries(in: "[playlist]\nNumberOfEntries=0\n", base: remote)
    ) {
      XCTAssertEqual($0 as? StreamPlaylist.Problem, .empty)
    }
    XCTAssertThrowsError(try StreamPlaylist.entries(in: "#EXTM3U\n", base: remote))
  }

  func testAPlaylistIsKnownByItsEndingOrItsFirstLine() {
    XCTAssertTrue(StreamPlaylist.recognizes(name: "http://127.0.0.1/x.PLS?sid=1", head: []))
    XCTAssertTrue(StreamPlaylist.recognizes(name: "/music/list.m3u8", head: []))
    XCTAssertTrue(
      StreamPlaylist.recognizes(name: "http://127.0.0.1/listen", head: Array("\n[Playlist]\n".utf8))
    )
    XCTAssertTrue(
      StreamPlaylist.recognizes(name: "http://127.0.0.1/listen", head: Array("#EXTM3U\n".utf8)))
    XCTAssertFalse(
      StreamPlaylist.recognizes(name: "http://127.0.0.1/radio.mp3", head: Array("ID3".utf8)))
  }
}
