import RefrainCatalog
import RefrainCore
import XCTest

@testable import RefrainSession
@testable import RefrainTUI

/// The Library pane over a real library file: playlists, the picker, likes.
final class AppLibraryTests: XCTestCase {
  private func makeHarness() throws -> TUIHarness {
    let harness = TUIHarness(library: try TUIHarness.temporaryLibrary(self))
    harness.waitForHome()
    harness.waitForLibrary()
    return harness
  }

  /// Creates a playlist the way a user does: Library, `c`, the name, Enter; then waits
  /// until it is stored and listed.
  private func createPlaylist(_ name: String, in harness: TUIHarness) {
    harness.press("3", "c")
    harness.type(name)
    harness.press("enter")
    harness.waitForLibrary()
  }

  // MARK: - The pane

  func testAnEmptyLibraryOffersANewPlaylistAndTheCollection() throws {
    let harness = try makeHarness()
    harness.press("3")
    assertScreen(
      harness.screen(60, 12),
      """
      1 Home  2 Search  3 Library  4 Player  5 Queue
       Playlists
        + New playlist (c)
       Collection
        ♥ Liked tracks
        ◉ Saved albums
        ↺ Recently played
       Radio
        No stations: refrain radio add NAME URL

       ■ stopped
       ? help  / search  l lyrics  space play/pause  q back
      """)
  }

  func testARadioStationIsListedAndEnterPlaysIt() throws {
    let library = try TUIHarness.temporaryLibrary(self)
    try library.radio.saveStation(
      RadioStation(name: "Tones FM", url: "http://127.0.0.1:9/radio.mp3"))
    let harness = TUIHarness(library: library)
    harness.waitForHome()
    harness.waitForLibrary()
    harness.press("3")
    harness.waitForLibrary()
    harness.select("◎ Tones FM")
    harness.press("enter")
    XCTAssertEqual(harness.presenter.queue.tracks.map(\.title), ["Tones FM"])
    XCTAssertEqual(
      harness.presenter.queue.current?.location.absoluteString, "http://127.0.0.1:9/radio.mp3")
  }

  func testWithoutALibraryFileThePaneSaysSo() {
    let harness = TUIHarness(library: nil)
    harness.waitForHome()
    harness.press("3")
    XCTAssertEqual(harness.row(1), " The library database is not available.")
    harness.press("c")
    XCTAssertEqual(harness.row(15), " the library is not available")
  }

  // MARK: - Playlists

  func testCCreatesAPlaylistFromANameTypedOnTheStatusLine() throws {
    let harness = try makeHarness()
    harness.press("3", "c")
    XCTAssertEqual(harness.row(15), "New playlist name: ▏")
    harness.type("밤 노래")
    XCTAssertEqual(harness.row(15), "New playlist name: 밤 노래▏")
    harness.press("backspace")
    harness.type("래")
    harness.press("enter")
    harness.waitForLibrary()
    XCTAssertEqual(try harness.library?.playlists().map(\.name), ["밤 노래"])
    XCTAssertEqual(harness.row(2), aligned("  ≡ 밤 노래", "0 tracks", width: 60))
    XCTAssertEqual(harness.row(15), " created 밤 노래")
  }

  func testEscCancelsTheNameAndCreatesNothing() throws {
    let harness = try makeHarness()
    harness.press("3", "c")
    harness.type("never")
    harness.press("esc")
    XCTAssertEqual(try harness.library?.playlists(), [])
    XCTAssertEqual(harness.app.pane, .library, "Esc closed the prompt, not the pane")
  }

  func testThePickerAddsTracksFromHomeAndSearchToAPlaylist() throws {
    let harness = try makeHarness()
    createPlaylist("Drive", in: harness)
    harness.press("1")
    harness.select("우산 하나")
    harness.press("A")
    assertScreen(
      harness.screen(60, 12),
      """
      1 Home  2 Search  3 Library  4 Player  5 Queue
       New releases
        ◉                                                     025
        ◉  +- Add 1 to playlist ----------------------------+ 024
        ◉  | Drive                                          | 023
       Top | + New playlist…                                |
        ♪  +------------------------------------------------+ :32
        ♪                                                     :30
        ♪ 夜のトラム — 青い自転車 · ブルーアワー             0:30
        ♪ Lighthouse Radio — Harbor Lights · Tidewater Sign… 0:27
       ■ stopped
       created Drive
      """)
    harness.press("enter")
    harness.waitForLibrary()
    XCTAssertEqual(harness.row(15), " added 1 to Drive")

    harness.press("/")
    harness.type("Lighthouse")
    harness.press("enter")
    harness.waitForSearch()
    harness.press("A", "enter")
    harness.waitForLibrary()
    XCTAssertEqual(harness.row(15), " added 1 to Drive")

    harness.press("3")
    harness.waitForLibrary()
    XCTAssertEqual(harness.row(2), aligned("  ≡ Drive", "2 tracks", width: 60))
    harness.press("enter")
    harness.waitForLibrary()
    assertScreen(
      harness.screen(60, 12),
      """
      1 Home  2 Search  3 Library  4 Player  5 Queue
       ‹ Drive
       Drive — x remove, J/K move, R rename, d delete
        ▶ Play all
        ♪ 우산 하나 — 달빛 우체국 · 밤의 편지                0:32
        ♪ Lighthouse Radio — Harbor Lights · Tidewater Sign… 0:27




       ■ stopped
       added 1 to Drive
      """)
    let playlist = try XCTUnwrap(harness.library?.playlists().first)
    XCTAssertEqual(
      try harness.library?.entries(inPlaylist: playlist.id).map(\.track.title),
      ["우산 하나", "Lighthouse Radio"])
  }

  func testThePickersNewPlaylistEntryCreatesOneHoldingTheTrack() throws {
    let harness = try makeHarness()
    harness.select("夜のトラム")
    harness.press("A", "G", "enter")
    XCTAssertEqual(harness.row(15), "New playlist name: ▏")
    harness.type("東京")
    harness.press("enter")
    harness.waitForLibrary()
    let playlist = try XCTUnwrap(harness.library?.playlists().first)
    XCTAssertEqual(playlist.name, "東京")
    XCTAssertEqual(
      try harness.library?.entries(inPlaylist: playlist.id).map(\.track.title), ["夜のトラム"])
    XCTAssertEqual(harness.row(15), " created 東京 with 1 track")
  }

  func testAddingAnAlbumToAPlaylistAddsItsTracksOnceOpened() throws {
    let harness = try makeHarness()
    createPlaylist("Letters", in: harness)
    harness.press("1", "g", "enter")
    harness.waitFor("the album") { harness.app.currentRows().count > 2 }
    harness.press("A", "enter")
    harness.waitForLibrary()
    XCTAssertEqual(harness.row(15), " added 2 to Letters", "Play all stands for the album's tracks")
  }

  func testRenameAndDeleteAPlaylist() throws {
    let harness = try makeHarness()
    createPlaylist("Drive", in: harness)
    harness.press("g", "R")
    XCTAssertEqual(harness.row(15), "Rename Drive to: Drive▏")
    harness.press("ctrl-u")
    harness.type("Night Drive")
    harness.press("enter")
    harness.waitForLibrary()
    XCTAssertEqual(harness.row(2), aligned("  ≡ Night Drive", "0 tracks", width: 60))

    harness.press("d")
    XCTAssertEqual(harness.row(15), "Delete the playlist Night Drive? (y/n)")
    harness.press("n")
    XCTAssertEqual(try harness.library?.playlists().count, 1, "n keeps it")
    harness.press("d", "y")
    harness.waitForLibrary()
    XCTAssertEqual(try harness.library?.playlists().count, 0)
    XCTAssertEqual(harness.row(15), " playlist deleted")
    XCTAssertEqual(harness.row(2), "  + New playlist (c)")
  }

  func testRemovingAndMovingEntriesInAPlaylist() throws {
    let harness = try makeHarness()
    createPlaylist("Mix", in: harness)
    for title in ["우산 하나", "첫눈 오는 날", "夜のトラム"] {
      harness.press("1", "g")
      harness.select(title)
      harness.press("A", "enter")
      harness.waitForLibrary()
    }
    harness.press("3", "g", "enter")
    harness.waitForLibrary()
    XCTAssertEqual(harness.selectedRow, "▶ Play all")
    harness.press("j")
    XCTAssertEqual(harness.selectedRow, "♪ 우산 하나 — 달빛 우체국 · 밤의 편지")
    harness.press("J")
    harness.waitForLibrary()
    let playlist = try XCTUnwrap(harness.library?.playlists().first)
    func titles() throws -> [String]? {
      try harness.library?.entries(inPlaylist: playlist.id).map(\.track.title)
    }
    XCTAssertEqual(try titles(), ["첫눈 오는 날", "우산 하나", "夜のトラム"])
    XCTAssertEqual(harness.selectedRow, "♪ 우산 하나 — 달빛 우체국 · 밤의 편지", "the cursor moved with it")
    harness.press("x")
    harness.waitForLibrary()
    XCTAssertEqual(try titles(), ["첫눈 오는 날", "夜のトラム"])
    XCTAssertEqual(harness.row(15), " removed 우산 하나")
  }

  // MARK: - Likes

  func testPlusLikesATrackAndLikedTracksListsIt() throws {
    let harness = try makeHarness()
    harness.select("첫눈 오는 날")
    harness.press("+")
    harness.waitForLibrary()
    XCTAssertEqual(harness.row(15), " liked 첫눈 오는 날")
    harness.press("3")
    harness.select("Liked tracks")
    harness.press("enter")
    harness.waitForLibrary()
    XCTAssertEqual(harness.row(1), " ‹ Liked tracks")
    XCTAssertEqual(harness.row(4), aligned("  ♪ 첫눈 오는 날 — 달빛 우체국 · 밤의 편지", "0:30", width: 60))
    harness.press("esc", "1")
    harness.select("첫눈 오는 날")
    harness.press("+")
    harness.waitForLibrary()
    XCTAssertEqual(harness.row(15), " unliked 첫눈 오는 날")
  }
}
