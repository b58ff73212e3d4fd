import Foundation
import RefrainCore
import RefrainSession
import XCTest

@testable import RefrainTUI

/// A library whose every call waits at a gate until the test opens it, as a library file
/// does while another process holds its write lock; in memory otherwise.
///
/// A call gives up waiting after 10 s, so an app that waited for the library on its own
/// thread makes a test fail (slowly) instead of hanging it.
final class StuckLibrary: LibraryStorage, @unchecked Sendable {
  private let condition = NSCondition()
  private var isOpen = false
  private var waiting = 0
  private var log: [String] = []
  private var stored: [LibraryPlaylist]
  private var searches: [String] = []

  /// Creates a library holding empty playlists with these names, its gate closed.
  init(playlists names: [String]) {
    stored = names.enumerated().map { index, name in
      LibraryPlaylist(
        id: Int64(index + 1), name: name, trackCount: 0, createdAt: Date(), updatedAt: Date())
    }
  }

  /// Whether a call is waiting at the gate now.
  var isBlocking: Bool { condition.withLock { waiting > 0 } }

  /// The calls that got through the gate, in the order they ran.
  var calls: [String] { condition.withLock { log } }

  /// Opens the gate: waiting calls go on, later ones do not wait.
  func open() {
    condition.withLock {
      isOpen = true
      condition.broadcast()
    }
  }

  /// Waits at the gate, then runs `body` on the stored data.
  private func call<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date().addingTimeInterval(10)
    waiting += 1
    while !isOpen, condition.wait(until: deadline) {}
    waiting -= 1
    log.append(name)
    return try body()
  }

  func playlists() throws -> [LibraryPlaylist] { call("playlists") { stored } }

  func playlist(_ id: Int64) throws -> LibraryPlaylist {
    try call("playlist \(id)") {
      guard let found = stored.first(where: { $0.id == id }) else {
        throw CommandFailure("playlist \(id) no longer exists")
      }
      return found
    }
  }

  func entries(inPlaylist id: Int64, offset: Int, limit: Int?) throws -> [PlaylistEntry] {
    call("entries \(id)") { [] }
  }

  func createPlaylist(named name: String) throws -> LibraryPlaylist {
    call("create \(name)") {
      let playlist = LibraryPlaylist(
        id: (stored.map(\.id).max() ?? 0) + 1, name: name, trackCount: 0, createdAt: Date(),
        updatedAt: Date())
      stored.append(playlist)
      return playlist
    }
  }

  func renamePlaylist(_ id: Int64, to name: String) throws {
    call("rename \(id) \(name)") {
      if let index = stored.firstIndex(where: { $0.id == id }) { stored[index].name = name }
    }
  }

  func deletePlaylist(_ id: Int64) throws {
    call("delete \(id)") { stored.removeAll { $0.id == id } }
  }

  func addTracks(_ tracks: [CatalogTrack], toPlaylist id: Int64, at position: Int?) throws
    -> [Int64]
  { call("add \(id)") { [] } }

  func removeEntries(_ entryIDs: [Int64], fromPlaylist id: Int64) throws { call("remove \(id)") {} }

  func moveEntry(inPlaylist id: Int64, from: Int, to: Int) throws { call("move \(id)") {} }

  func likeTrack(_ track: CatalogTrack) throws { call("like \(track.id)") {} }

  func unlikeTrack(provider: String, id: String) throws { call("unlike \(id)") {} }

  func isTrackLiked(provider: String, id: String) throws -> Bool {
    call("is liked \(id)") { false }
  }

  func likedTracks() throws -> [CatalogTrack] { call("liked tracks") { [] } }

  func saveAlbum(_ album: AlbumSummary) throws { call("save \(album.id)") {} }

  func savedAlbums() throws -> [AlbumSummary] { call("saved albums") { [] } }

  func addRecentSearch(_ query: String) throws {
    call("search \(query)") { searches.insert(query, at: 0) }
  }

  func recentSearches() throws -> [String] { call("recent searches") { searches } }

  func recordPlay(_ track: CatalogTrack, at date: Date, secondsPlayed: Double?) throws {
    call("played \(track.id)") {}
  }

  func playHistory(limit: Int) throws -> [PlayRecord] { call("history") { [] } }

  func saveSession(_ session: SavedSession) throws { call("save session") {} }

  func lastSession() throws -> SavedSession? { call("last session") { nil } }
}

/// The screen keeps answering while the library is stuck, and shows what it holds once it
/// answers.
final class AppLibraryStuckTests: XCTestCase {
  /// Runs `body` and returns how long it took, in seconds.
  private func seconds(_ body: () -> Void) -> Double {
    let start = ProcessInfo.processInfo.systemUptime
    body()
    return ProcessInfo.processInfo.systemUptime - start
  }

  func testKeysAndFramesAnswerWhileALibraryCallIsStuck() {
    let library = StuckLibrary(playlists: ["Drive"])
    let harness = TUIHarness(library: library)
    harness.waitForHome()
    harness.waitFor("the first library read to be stuck") { library.isBlocking }

    var slowest = 0.0
    func timed(_ body: () -> Void) {
      slowest = max(slowest, seconds(body))
    }
    timed { harness.press("3") }
    XCTAssertEqual(harness.app.pane, .library)
    XCTAssertEqual(harness.row(1), " Playlists (loading…)")
    XCTAssertEqual(harness.row(2), "  + New playlist (c)")
    // Edits made now wait behind the stuck read, in order.
    timed {
      harness.press("c")
      harness.type("Night")
      harness.press("enter")
    }
    timed {
      harness.press(":")
      harness.type("playlist rename 2 Night Drive")
      harness.press("enter")
    }
    XCTAssertNotEqual(harness.row(15), " created Night", "not said before it is stored")
    // A search answers from the catalog while remembering it waits for the library.
    timed {
      harness.press("/")
      harness.type("Harbor")
      harness.press("enter")
    }
    harness.waitForSearch()
    XCTAssertTrue(harness.screen().contains("♪ Lighthouse Radio"), harness.screen())
    timed { harness.press("3", "j", "k", "4", "3") }
    XCTAssertEqual(harness.row(1), " Playlists (loading…)")
    XCTAssertTrue(library.isBlocking, "the first read is still stuck")
    XCTAssertEqual(library.calls, [], "nothing got through the gate")
    XCTAssertLessThan(slowest, 0.5, "every key and frame answered at once")

    library.open()
    harness.waitFor("the playlists") { harness.row(2).contains("≡ Drive") }
    harness.waitForLibrary()
    XCTAssertEqual(harness.row(2), aligned("  ≡ Drive", "0 tracks", width: 60))
    XCTAssertEqual(harness.row(3), aligned("  ≡ Night Drive", "0 tracks", width: 60))
    XCTAssertEqual(
      library.calls.filter { !["playlists", "recent searches"].contains($0) },
      ["create Night", "rename 2 Night Drive", "search Harbor"],
      "the edits ran in the order they were made")
    XCTAssertEqual(harness.app.librarySnapshot?.recentSearches, ["Harbor"])
  }

  func testTheClockMovesWhileTheLibraryIsStuck() {
    let library = StuckLibrary(playlists: [])
    let harness = TUIHarness(library: library)
    harness.waitForHome()
    harness.playFromHome("우산 하나", duration: 32.7)
    harness.waitFor("the library to be stuck") { library.isBlocking }
    harness.player.position = 10.2
    XCTAssertEqual(harness.row(14), aligned(" ▶ 우산 하나 — 달빛 우체국", "0:10 / 0:32", width: 60))
    harness.player.position = 11.4
    XCTAssertEqual(harness.row(14), aligned(" ▶ 우산 하나 — 달빛 우체국", "0:11 / 0:32", width: 60))
    library.open()
    harness.waitForLibrary()
    XCTAssertTrue(library.calls.contains("played umbrella"), "the play was recorded")
  }

  func testACtlPlaylistEditIsAnsweredOnlyOnceStored() {
    let library = StuckLibrary(playlists: ["Drive"])
    let harness = TUIHarness(library: library)
    harness.waitFor("the library to be stuck") { library.isBlocking }
    var answer: App.RemoteAnswer?
    harness.app.answer(remote: .playlist(.create("Mix"))) { answer = $0 }
    var status: App.RemoteAnswer?
    harness.app.answer(remote: .status) { status = $0 }
    XCTAssertNotNil(status, "status answers at once")
    harness.app.drainInbox()
    XCTAssertNil(answer, "no answer while the edit is not stored")

    library.open()
    harness.waitFor("the answer") { answer != nil }
    XCTAssertEqual(try answer?.get(), #"{"id":2,"name":"Mix","tracks":0}"#)
    XCTAssertTrue(library.calls.contains("create Mix"))
  }
}
