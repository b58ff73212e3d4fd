import Foundation
import RefrainCore
import XCTest

@testable import RefrainCatalog

/// Playlists: create, rename, delete, add from any provider, remove and reorder.
final class LibraryPlaylistTests: XCTestCase {
  private var store: LibraryStore!

  override func setUpWithError() throws {
    store = try LibraryTestSupport.makeStore(self)
  }

  private func ids(_ playlist: Int64) throws -> [String] {
    try store.entries(inPlaylist: playlist).map(\.track.id)
  }

  private func make(_ name: String, tracks: [String]) throws -> Int64 {
    let playlist = try store.createPlaylist(named: name)
    try store.addTracks(tracks.map { LibraryTestSupport.track($0) }, toPlaylist: playlist.id)
    return playlist.id
  }

  // MARK: - Create, rename, delete

  func testCreateListsThePlaylistEmptyWithTrimmedName() throws {
    let playlist = try store.createPlaylist(named: "  Morning  ")
    XCTAssertEqual(playlist.name, "Morning")
    XCTAssertEqual(playlist.trackCount, 0)
    XCTAssertEqual(try store.playlists().map(\.name), ["Morning"])
    XCTAssertEqual(playlist.summary.provider, "local")
  }

  func testPlaylistsAreListedByNameIgnoringCase() throws {
    for name in ["beta", "Alpha", "gamma"] { _ = try store.createPlaylist(named: name) }
    XCTAssertEqual(try store.playlists().map(\.name), ["Alpha", "beta", "gamma"])
  }

  func testABlankNameIsRefused() {
    XCTAssertThrowsError(try store.createPlaylist(named: "  \n")) { error in
      XCTAssertEqual(error as? LibraryStoreError, .emptyPlaylistName)
    }
  }

  func testRenameChangesTheName() throws {
    let id = try make("Old", tracks: ["1"])
    try store.renamePlaylist(id, to: "New")
    XCTAssertEqual(try store.playlist(id).name, "New")
    XCTAssertEqual(try store.playlist(id).trackCount, 1)
  }

  func testRenamingAMissingPlaylistFails() {
    XCTAssertThrowsError(try store.renamePlaylist(99, to: "x")) { error in
      XCTAssertEqual(error as? LibraryStoreError, .playlistNotFound(99))
    }
  }

  func testDeleteRemovesThePlaylistAndItsEntries() throws {
    let id = try make("Gone", tracks: ["1", "2"])
    let kept = try make("Kept", tracks: ["1"])
    try store.deletePlaylist(id)
    XCTAssertEqual(try store.playlists().map(\.name), ["Kept"])
    XCTAssertThrowsError(try store.entries(inPlaylist: id))
    XCTAssertEqual(try ids(kept), ["1"])
    let orphans = try store.read { db in
      try Int.fetchOne(
        db, sql: "SELECT COUNT(*) FROM playlist_entries WHERE playlist_id = ?", arguments: [id])
    }
    XCTAssertEqual(orphans, 0)
  }

  // MARK: - Adding

  func testTracksFromEveryProviderKeepAllTheirDetails() throws {
    let playlist = try store.createPlaylist(named: "Mix")
    let tracks = [
      LibraryTestSupport.track("1", provider: "demo"),
      LibraryTestSupport.track("3135556", provider: "deezer"),
      CatalogTrack(
        id: "/music/사랑.mp3", provider: "local", title: "사랑", duration: 201,
        streamURL: URL(fileURLWithPath: "/music/사랑.mp3"),
        lyricsURL: URL(fileURLWithPath: "/music/사랑.lrc")),
      CatalogTrack(id: "9", provider: "deezer", title: "No preview", unplayableReason: "region"),
    ]
    let added = try store.addTracks(tracks, toPlaylist: playlist.id)
    XCTAssertEqual(added.count, 4)
    let entries = try store.entries(inPlaylist: playlist.id)
    XCTAssertEqual(entries.map(\.track), tracks)
    XCTAssertEqual(entries.map(\.position), [0, 1, 2, 3])
    XCTAssertEqual(entries.map(\.entryID), added)
    XCTAssertEqual(try store.storedTrack(provider: "deezer", id: "3135556"), tracks[1])
  }

  func testTheSameTrackMayAppearTwice() throws {
    let id = try make("Twice", tracks: ["1", "1"])
    XCTAssertEqual(try ids(id), ["1", "1"])
  }

  func testAddingAtAPositionShiftsTheRest() throws {
    let id = try make("P", tracks: ["a", "b", "c"])
    try store.addTracks(
      [LibraryTestSupport.track("x"), LibraryTestSupport.track("y")], toPlaylist: id, at: 1)
    XCTAssertEqual(try ids(id), ["a", "x", "y", "b", "c"])
    XCTAssertEqual(try store.entries(inPlaylist: id).map(\.position), [0, 1, 2, 3, 4])
  }

  func testAddingOutsideThePlaylistFailsAndChangesNothing() throws {
    let id = try make("P", tracks: ["a"])
    XCTAssertThrowsError(
      try store.addTracks([LibraryTestSupport.track("x")], toPlaylist: id, at: 5)
    ) {
      XCTAssertEqual($0 as? LibraryStoreError, .positionOutOfRange(5, count: 1))
    }
    XCTAssertEqual(try ids(id), ["a"])
  }

  func testAddingToAMissingPlaylistFails() {
    XCTAssertThrowsError(try store.addTracks([LibraryTestSupport.track("x")], toPlaylist: 7)) {
      XCTAssertEqual($0 as? LibraryStoreError, .playlistNotFound(7))
    }
  }

  func testReAddingATrackRefreshesItsStoredCopy() throws {
    let id = try make("P", tracks: ["a"])
    var renamed = LibraryTestSupport.track("a")
    renamed.title = "Renamed"
    try store.addTracks([renamed], toPlaylist: id)
    XCTAssertEqual(try store.entries(inPlaylist: id).map(\.track.title), ["Renamed", "Renamed"])
  }

  func testEntriesPageWithOffsetAndLimit() throws {
    let id = try make("P", tracks: (0..<10).map(String.init))
    XCTAssertEqual(
      try store.entries(inPlaylist: id, offset: 3, limit: 4).map(\.track.id), ["3", "4", "5", "6"])
    XCTAssertEqual(try store.entries(inPlaylist: id, offset: 8).map(\.track.id), ["8", "9"])
  }

  // MARK: - Removing

  func testRemovingEntriesClosesTheGaps() throws {
    let id = try make("P", tracks: ["a", "b", "c", "d", "e"])
    let entries = try store.entries(inPlaylist: id)
    try store.removeEntries([entries[1].entryID, entries[3].entryID], fromPlaylist: id)
    let left = try store.entries(inPlaylist: id)
    XCTAssertEqual(left.map(\.track.id), ["a", "c", "e"])
    XCTAssertEqual(left.map(\.position), [0, 1, 2])
    XCTAssertEqual(try store.playlist(id).trackCount, 3)
  }

  func testRemovingAnotherPlaylistsEntryDoesNothing() throws {
    let first = try make("A", tracks: ["a"])
    let second = try make("B", tracks: ["b"])
    let foreign = try XCTUnwrap(try store.entries(inPlaylist: second).first).entryID
    try store.removeEntries([foreign], fromPlaylist: first)
    XCTAssertEqual(try ids(second), ["b"])
  }

  // MARK: - Reordering

  func testMovingDownShiftsTheEntriesBetweenUp() throws {
    let id = try make("P", tracks: ["a", "b", "c", "d", "e"])
    try store.moveEntry(inPlaylist: id, from: 1, to: 3)
    XCTAssertEqual(try ids(id), ["a", "c", "d", "b", "e"])
    XCTAssertEqual(try store.entries(inPlaylist: id).map(\.position), [0, 1, 2, 3, 4])
  }

  func testMovingUpShiftsTheEntriesBetweenDown() throws {
    let id = try make("P", tracks: ["a", "b", "c", "d", "e"])
    try store.moveEntry(inPlaylist: id, from: 4, to: 0)
    XCTAssertEqual(try ids(id), ["e", "a", "b", "c", "d"])
  }

  func testMovingKeepsTheEntryID() throws {
    let id = try make("P", tracks: ["a", "b", "c"])
    let before = try store.entries(inPlaylist: id)
    try store.moveEntry(inPlaylist: id, from: 0, to: 2)
    let after = try store.entries(inPlaylist: id)
    XCTAssertEqual(after.last?.entryID, before.first?.entryID)
  }

  func testMovingToTheSamePlaceChangesNothing() throws {
    let id = try make("P", tracks: ["a", "b"])
    try store.moveEntry(inPlaylist: id, from: 1, to: 1)
    XCTAssertEqual(try ids(id), ["a", "b"])
  }

  func testMovingOutsideThePlaylistFails() throws {
    let id = try make("P", tracks: ["a", "b"])
    XCTAssertThrowsError(try store.moveEntry(inPlaylist: id, from: 0, to: 2)) {
      XCTAssertEqual($0 as? LibraryStoreError, .positionOutOfRange(2, count: 2))
    }
    XCTAssertThrowsError(try store.moveEntry(inPlaylist: id, from: -1, to: 0))
    XCTAssertEqual(try ids(id), ["a", "b"])
  }

  func testManyRandomMovesMatchAnArrayModel() throws {
    let names = (0..<12).map { "t\($0)" }
    let id = try make("Model", tracks: names)
    var model = names
    var random = SeededRandom(seed: 3)
    for _ in 0..<60 {
      let from = Int(random.next() % 12)
      let to = Int(random.next() % 12)
      try store.moveEntry(inPlaylist: id, from: from, to: to)
      model.insert(model.remove(at: from), at: to)
    }
    XCTAssertEqual(try ids(id), model)
  }

  // MARK: - Stored tracks

  func testPruningKeepsTracksThatAreStillUsed() throws {
    let id = try make("P", tracks: ["a", "b"])
    try store.likeTrack(LibraryTestSupport.track("c"))
    try store.deletePlaylist(id)
    XCTAssertEqual(try store.pruneUnusedTracks(), 2)
    XCTAssertNotNil(try store.storedTrack(provider: "demo", id: "c"))
    XCTAssertNil(try store.storedTrack(provider: "demo", id: "a"))
  }
}
