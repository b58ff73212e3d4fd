import Foundation
import GRDB
import RefrainCore
import RefrainTags
import XCTest

@testable import RefrainCatalog

/// Finding local tracks by a line of their sidecar lyrics, after a real scan.
final class LyricSearchTests: XCTestCase {
  private var store: LibraryStore!
  private var music: URL!

  override func setUpWithError() throws {
    let folder = try LibraryTestSupport.temporaryFolder(self)
    music = folder.appendingPathComponent("music")
    try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
    let audio = try LibraryTestSupport.audioFixture("cbr.mp3")
    let songs: [(String, String)] = [
      ("rain", "[00:01.00]비가 내리는 밤\n[00:04.50]너를 생각해\n[00:08.00]Rain on the road\n"),
      ("love", "너를 사랑해\n너를\n"),
      ("road", "[00:02.00]The long road home\n[00:06.00]road\n"),
    ]
    for (name, lyrics) in songs {
      try FileManager.default.copyItem(
        atPath: audio, toPath: music.appendingPathComponent("\(name).mp3").path)
      try lyrics.write(
        to: music.appendingPathComponent("\(name).lrc"), atomically: true, encoding: .utf8)
    }
    store = try LibraryStore(fileURL: folder.appendingPathComponent("library.sqlite"))
    _ = try LocalLibraryScanner(store: store, tagReader: ID3TagReader()).scan(folders: [music.path])
  }

  private func search(_ phrase: String) throws -> [LyricMatch] {
    try store.read { db in try LyricSearchIndex.search(phrase, offset: 0, limit: 20, db: db) }
  }

  private func name(_ match: LyricMatch) -> String {
    URL(fileURLWithPath: match.track.id).deletingPathExtension().lastPathComponent
  }

  func testAPhraseInsideAKoreanLineFindsItsTrackLineAndTime() throws {
    let found = try search("내리는")
    XCTAssertEqual(found.map(name), ["rain"])
    XCTAssertEqual(found.first?.lineIndex, 0)
    XCTAssertEqual(found.first?.ms, 1_000)
    XCTAssertEqual(found.first?.text, "비가 내리는 밤")
  }

  func testTheLineThatIsThePhraseComesFirstThenOneStartingWithItThenTheRest() throws {
    XCTAssertEqual(
      try search("road").map(\.text), ["road", "Rain on the road", "The long road home"])
    let short = try search("너를").map(\.text)
    XCTAssertEqual(short.first, "너를", "two-character phrases are found too")
    XCTAssertEqual(Set(short.dropFirst()), ["너를 사랑해", "너를 생각해"], "equal lengths: library order")
    XCTAssertEqual(try search("ROAD HOME").map(\.text), ["The long road home"], "case ignored")
  }

  func testPlainLyricsHaveNoTimeAndChangedOrRemovedFilesAreReindexed() throws {
    XCTAssertNil(try search("사랑해").first?.ms, "plain lyrics: from the start")
    let lrc = music.appendingPathComponent("love.lrc")
    try "[00:03.00]이제는 안녕\n".write(to: lrc, atomically: true, encoding: .utf8)
    _ = try LocalLibraryScanner(store: store, tagReader: ID3TagReader()).scan(folders: [music.path])
    XCTAssertEqual(try search("사랑해"), [], "the old lines are gone")
    XCTAssertEqual(try search("이제는").first?.ms, 3_000)
    try FileManager.default.removeItem(at: music.appendingPathComponent("rain.mp3"))
    _ = try LocalLibraryScanner(store: store, tagReader: ID3TagReader()).scan(folders: [music.path])
    XCTAssertEqual(try search("내리는"), [], "a track that is gone takes its lyrics along")
  }

  func testNothingIsFoundForBlankOrQuotedPhrases() throws {
    XCTAssertEqual(try search("   "), [])
    XCTAssertEqual(try search("\"road"), [])
    XCTAssertEqual(try search("%"), [])
  }

  func testLyricsFetchedOnlineForAFileAreFoundFromTheCacheAfterTheNextScan() throws {
    let audio = try LibraryTestSupport.audioFixture("cbr.mp3")
    let bare = music.appendingPathComponent("fetched.mp3")
    try FileManager.default.copyItem(atPath: audio, toPath: bare.path)
    let scanner = LocalLibraryScanner(store: store, tagReader: ID3TagReader())
    _ = try scanner.scan(folders: [music.path])
    let row = try XCTUnwrap(
      try store.read { db in
        try Row.fetchOne(
          db, sql: "SELECT title, artist, album, duration FROM local_tracks WHERE path = ?",
          arguments: [bare.path])
      })
    // What the player's loader does when it fetches this file's lyrics online.
    let query = LyricsQuery(
      title: row["title"], artist: row["artist"], album: row["album"], duration: row["duration"])
    try LyricsCache(storage: LibraryLyricsCache(store: store))
      .store(.lyrics(LRCParser.parse("[00:07.00]바다로 가는 길\n")), for: query)
    XCTAssertEqual(try search("바다로"), [], "not indexed before the next scan")
    _ = try scanner.scan(folders: [music.path])
    let found = try search("바다로")
    XCTAssertEqual(found.map(name), ["fetched"])
    XCTAssertEqual(found.first?.ms, 7_000)
  }
}
