import Foundation
import RefrainCore
import XCTest

@testable import RefrainCatalog

/// The lyrics cache, lyric offsets, and the last session.
final class LibrarySessionTests: XCTestCase {
  private var store: LibraryStore!

  override func setUpWithError() throws {
    store = try LibraryTestSupport.makeStore(self)
  }

  // MARK: - Lyrics cache

  func testCachedLyricsRoundTrip() throws {
    XCTAssertNil(try store.lyrics.cachedLyrics(for: "k"))
    let fetched = Date(timeIntervalSince1970: 1_700_000_000)
    try store.lyrics.cacheLyrics("[00:01.00]첫 줄\n", for: "k", source: "lrclib", fetchedAt: fetched)
    let cached = try XCTUnwrap(try store.lyrics.cachedLyrics(for: "k"))
    XCTAssertEqual(
      cached, CachedLyrics(key: "k", text: "[00:01.00]첫 줄\n", source: "lrclib", fetchedAt: fetched))
  }

  func testCachingAgainReplacesTheText() throws {
    try store.lyrics.cacheLyrics("old", for: "k")
    try store.lyrics.cacheLyrics("new", for: "k")
    XCTAssertEqual(try store.lyrics.cachedLyrics(for: "k")?.text, "new")
  }

  func testOldCachedLyricsCanBeDropped() throws {
    try store.lyrics.cacheLyrics("old", for: "old", fetchedAt: Date(timeIntervalSince1970: 10))
    try store.lyrics.cacheLyrics("new", for: "new", fetchedAt: Date(timeIntervalSince1970: 1000))
    XCTAssertEqual(
      try store.lyrics.removeCachedLyrics(fetchedBefore: Date(timeIntervalSince1970: 500)), 1)
    XCTAssertNil(try store.lyrics.cachedLyrics(for: "old"))
    XCTAssertNotNil(try store.lyrics.cachedLyrics(for: "new"))
  }

  // MARK: - Lyric offsets

  func testOffsetsDefaultToZeroAndRoundTrip() throws {
    XCTAssertEqual(try store.lyricOffset(for: "demo:1"), 0)
    XCTAssertEqual(try store.setLyricOffset(-300, for: "demo:1"), -300)
    XCTAssertEqual(try store.lyricOffset(for: "demo:1"), -300)
    XCTAssertEqual(try store.lyricOffset(for: "demo:2"), 0)
  }

  func testNudgingAddsToTheOffset() throws {
    XCTAssertEqual(try store.lyrics.nudgeLyricOffset(for: "t", by: 100), 100)
    XCTAssertEqual(try store.lyrics.nudgeLyricOffset(for: "t", by: 100), 200)
    XCTAssertEqual(try store.lyrics.nudgeLyricOffset(for: "t", by: -500), -300)
  }

  func testAZeroOffsetIsForgotten() throws {
    try store.setLyricOffset(100, for: "t")
    try store.lyrics.nudgeLyricOffset(for: "t", by: -100)
    let rows = try store.read { db in
      try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM lyric_offsets")
    }
    XCTAssertEqual(rows, 0)
  }

  func testOffsetsAreClampedWithoutOverflow() throws {
    XCTAssertEqual(try store.setLyricOffset(Int.max, for: "t"), LRCParser.maxOffsetMs)
    XCTAssertEqual(try store.lyrics.nudgeLyricOffset(for: "t", by: Int.max), LRCParser.maxOffsetMs)
    XCTAssertEqual(try store.setLyricOffset(Int.min, for: "t"), -LRCParser.maxOffsetMs)
  }

  // MARK: - Session

  private func session(index: Int? = 1) -> SavedSession {
    SavedSession(
      queue: [LibraryTestSupport.track("1"), LibraryTestSupport.track("2", provider: "deezer")],
      currentIndex: index, position: 42.25, volume: 65, shuffle: true, repeatMode: .one,
      openPane: "lyrics", savedAt: Date(timeIntervalSince1970: 1_700_000_000))
  }

  func testNoSessionAtFirst() throws {
    XCTAssertNil(try store.lastSession())
  }

  func testSessionRoundTrips() throws {
    try store.saveSession(session())
    XCTAssertEqual(try store.lastSession(), session())
  }

  func testSavingAgainReplacesTheSession() throws {
    try store.saveSession(session())
    var next = session(index: 0)
    next.queue = [LibraryTestSupport.track("9")]
    next.repeatMode = .off
    try store.saveSession(next)
    XCTAssertEqual(try store.lastSession(), next)
  }

  func testSessionSurvivesReopening() throws {
    try store.saveSession(session())
    let again = try LibraryStore(fileURL: store.fileURL)
    XCTAssertEqual(try again.lastSession(), session())
  }

  func testAnIndexOutsideTheQueueIsDropped() throws {
    try store.saveSession(session(index: 5))
    XCTAssertNil(try store.lastSession()?.currentIndex)
  }

  func testAnEmptyQueueRoundTrips() throws {
    let empty = SavedSession(
      queue: [], currentIndex: nil, position: 0, volume: 100, shuffle: false, repeatMode: .off,
      openPane: "home", savedAt: Date(timeIntervalSince1970: 5))
    try store.saveSession(empty)
    XCTAssertEqual(try store.lastSession(), empty)
  }

  func testClearForgetsTheSession() throws {
    try store.saveSession(session())
    try store.clearSession()
    XCTAssertNil(try store.lastSession())
  }
}
