import Foundation
import RefrainCore
import XCTest

@testable import RefrainCatalog

/// Recent searches, play history, saved albums and liked tracks.
final class LibraryHistoryTests: XCTestCase {
  private var store: LibraryStore!

  override func setUpWithError() throws {
    store = try LibraryTestSupport.makeStore(self)
  }

  // MARK: - Recent searches

  func testRecentSearchesAreMostRecentFirst() throws {
    for query in ["one", "two", "three"] { try store.addRecentSearch(query) }
    XCTAssertEqual(try store.recentSearches(), ["three", "two", "one"])
  }

  func testARepeatedSearchMovesToTheTopOnce() throws {
    for query in ["moon", "사랑", "sun", "Moon  "] { try store.addRecentSearch(query) }
    XCTAssertEqual(try store.recentSearches(), ["Moon", "sun", "사랑"])
  }

  func testSpacingAndCaseCountAsTheSameSearch() throws {
    try store.addRecentSearch("Blue   Moon")
    try store.addRecentSearch(" blue moon ")
    XCTAssertEqual(try store.recentSearches(), ["blue moon"])
  }

  func testOnlyTheLastTwentyAreKept() throws {
    for number in 1...25 { try store.addRecentSearch("query \(number)") }
    let recent = try store.recentSearches()
    XCTAssertEqual(recent.count, LibraryStore.recentSearchLimit)
    XCTAssertEqual(recent.first, "query 25")
    XCTAssertEqual(recent.last, "query 6")
  }

  func testRepeatingAnOldSearchDoesNotPushOutAnother() throws {
    for number in 1...20 { try store.addRecentSearch("q\(number)") }
    try store.addRecentSearch("q1")
    let recent = try store.recentSearches()
    XCTAssertEqual(recent.count, 20)
    XCTAssertEqual(recent.first, "q1")
    XCTAssertEqual(recent.last, "q2")
  }

  func testBlankSearchesAreIgnored() throws {
    try store.addRecentSearch("   ")
    XCTAssertEqual(try store.recentSearches(), [])
  }

  func testHostileTextIsStoredAsIs() throws {
    let query = "\"); DROP TABLE recent_searches; -- \u{1B}[31m"
    try store.addRecentSearch(query)
    XCTAssertEqual(try store.recentSearches(), [query])
  }

  func testRemoveAndClear() throws {
    for query in ["a", "b", "c"] { try store.addRecentSearch(query) }
    try store.removeRecentSearch("B")
    XCTAssertEqual(try store.recentSearches(), ["c", "a"])
    try store.clearRecentSearches()
    XCTAssertEqual(try store.recentSearches(), [])
  }

  // MARK: - Play history

  func testPlayHistoryIsNewestFirstWithTracksFromAnyProvider() throws {
    let first = LibraryTestSupport.track("1", provider: "demo")
    let second = LibraryTestSupport.track("2", provider: "deezer")
    try store.recordPlay(first, at: Date(timeIntervalSince1970: 100), secondsPlayed: 30)
    try store.recordPlay(second, at: Date(timeIntervalSince1970: 200))
    try store.recordPlay(first, at: Date(timeIntervalSince1970: 300))
    let history = try store.playHistory()
    XCTAssertEqual(history.map(\.track), [first, second, first])
    XCTAssertEqual(history.map(\.playedAt.timeIntervalSince1970), [300, 200, 100])
    XCTAssertEqual(history.last?.secondsPlayed, 30)
    XCTAssertEqual(try store.playHistory(limit: 1).count, 1)
    try store.clearPlayHistory()
    XCTAssertEqual(try store.playHistory(), [])
  }

  // MARK: - Saved albums and liked tracks

  func testSavedAlbumsAreNewestFirstAndCanBeRemoved() throws {
    let first = AlbumSummary(id: "1", provider: "demo", title: "First", year: 2001, trackCount: 9)
    let second = AlbumSummary(id: "2", provider: "deezer", title: "Second")
    try store.saveAlbum(first)
    try store.saveAlbum(second)
    XCTAssertEqual(try store.savedAlbums(), [second, first])
    XCTAssertTrue(try store.isAlbumSaved(provider: "demo", id: "1"))
    try store.saveAlbum(first)
    XCTAssertEqual(try store.savedAlbums(), [first, second])
    try store.unsaveAlbum(provider: "demo", id: "1")
    XCTAssertEqual(try store.savedAlbums(), [second])
    XCTAssertFalse(try store.isAlbumSaved(provider: "demo", id: "1"))
  }

  func testLikedTracksAreNewestFirstAndCanBeUnliked() throws {
    let first = LibraryTestSupport.track("1")
    let second = LibraryTestSupport.track("2", provider: "local")
    try store.likeTrack(first)
    try store.likeTrack(second)
    XCTAssertEqual(try store.likedTracks(), [second, first])
    XCTAssertTrue(try store.isTrackLiked(provider: "local", id: "2"))
    try store.unlikeTrack(provider: "local", id: "2")
    XCTAssertEqual(try store.likedTracks(), [first])
    XCTAssertFalse(try store.isTrackLiked(provider: "local", id: "2"))
  }
}
