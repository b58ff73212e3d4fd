import RefrainCatalog
import RefrainCore
import XCTest

@testable import RefrainSession
@testable import RefrainTUI

/// List commands on rows not opened yet, and what the status line says when a command has
/// nothing to work on.
final class AppListCommandTests: XCTestCase {
  private func home(library: Bool = false) throws -> TUIHarness {
    let harness = TUIHarness(library: library ? try TUIHarness.temporaryLibrary(self) : nil)
    harness.waitForHome()
    return harness
  }

  private func status(_ harness: TUIHarness) -> String? { harness.app.status?.text }

  // MARK: - Albums and lists not opened yet

  func testAOnAnAlbumRowFetchesItsTracksThenOpensThePicker() throws {
    let harness = try home(library: true)
    _ = try harness.library?.createPlaylist(named: "Drive")
    harness.select("◉ 밤의 편지")
    harness.press("A")
    XCTAssertEqual(status(harness), "loading 밤의 편지…")
    harness.waitFor("the picker") {
      if case .picker? = harness.app.overlay { return true }
      return false
    }
    harness.waitForLibrary()
    XCTAssertTrue(harness.screen(60, 16).contains("Add 2 to playlist"))
    XCTAssertTrue(harness.screen(60, 16).contains("| Drive"), "the playlist made meanwhile")
    XCTAssertEqual(harness.app.pane, .home, "the album was not opened")
    XCTAssertNil(harness.app.lists.details[.home], "no detail view was pushed")
    harness.press("enter")
    harness.waitForLibrary()
    let playlist = try XCTUnwrap(try harness.library?.playlists().first)
    XCTAssertEqual(
      try harness.library?.entries(inPlaylist: playlist.id).map(\.track.title),
      ["우산 하나", "첫눈 오는 날"])
    XCTAssertEqual(status(harness), "added 2 to Drive")
  }

  func testAOnAnArtistSearchResultAddsItsTopTracksToTheQueue() throws {
    let harness = try home()
    harness.press("/")
    harness.type("Harbor")
    harness.press("enter")
    harness.waitForSearch()
    harness.select("☺ Harbor Lights")
    harness.press("a")
    harness.waitFor("the queue") { !harness.presenter.queue.isEmpty }
    XCTAssertEqual(
      harness.presenter.queue.tracks.map(\.title), ["Lighthouse Radio"],
      "the playable top track; Lost Tape has no preview")
    XCTAssertEqual(status(harness), "added 1 track to the queue")
  }

  func testAListThatFailsToLoadSaysSo() throws {
    let harness = try home()
    let missing = PlaylistSummary(id: "gone", provider: "fake", title: "Gone Playlist")
    harness.app.session.loadTracks(of: .playlist(missing)) { _ in XCTFail("nothing was loaded") }
    harness.waitFor("the error") {
      status(harness)?.hasPrefix("Gone Playlist could not load") == true
    }
    XCTAssertEqual(harness.app.status?.isError, true)
    XCTAssertNil(harness.app.overlay)
  }

  func testALibraryPlaylistRowAddsItsEntriesToTheQueue() throws {
    let harness = try home(library: true)
    let playlist = try XCTUnwrap(try harness.library?.createPlaylist(named: "Drive"))
    try harness.library?.addTracks(
      [FakeCatalog.lighthouse, FakeCatalog.nightTram], toPlaylist: playlist.id)
    harness.press("3")
    harness.waitForLibrary()
    harness.select("≡ Drive")
    harness.press("a")
    harness.waitForLibrary()
    XCTAssertEqual(harness.presenter.queue.tracks.map(\.title), ["Lighthouse Radio", "夜のトラム"])
  }

  func testACtlEditNamingALocalPlaylistByTextIsOneLineAndChangesNothing() throws {
    let harness = try home(library: true)
    _ = try harness.library?.createPlaylist(named: "Drive")
    var answer: App.RemoteAnswer?
    harness.app.answer(remote: .playlist(.rename("drive", "Mix"))) { answer = $0 }
    guard case .failure(let failure)? = answer else {
      return XCTFail("answered \(String(describing: answer))")
    }
    XCTAssertEqual(
      failure.message,
      "no playlist drive: Refrain's playlists are numbered (`playlist list` shows them)")
    XCTAssertEqual(try harness.library?.playlists().map(\.name), ["Drive"])
  }

  // MARK: - Nothing to work on

  func testListCommandsOnThePlayerPaneSayWhyNothingHappened() throws {
    let harness = try home(library: true)
    harness.press("4")
    let expectations: [(String, String)] = [
      ("a", "nothing here to add: select a track or a list"),
      ("A", "nothing here to add: select a track or a list"),
      ("+", "nothing here to save: select an album or a track"),
      ("enter", "nothing here to open"),
      ("P", "play all works in an open album, artist or playlist"),
    ]
    for (key, message) in expectations {
      harness.app.status = nil
      harness.press(key)
      XCTAssertEqual(status(harness), message, key)
      XCTAssertNil(harness.app.overlay, key)
    }
    harness.app.status = nil
    harness.press("j", "k", "G")
    XCTAssertNil(status(harness), "moving through nothing is silent")
  }

  func testPlaylistEditsAwayFromAPlaylistSayWhereTheyWork() throws {
    let harness = try home(library: true)
    let expectations: [(String, String)] = [
      ("R", "rename works on a playlist in Library"),
      ("d", "delete works on a playlist in Library"),
      ("x", "remove works on an entry of a playlist or the queue"),
      ("J", "moving works on an entry of a playlist or the queue"),
      ("K", "moving works on an entry of a playlist or the queue"),
      ("P", "play all works in an open album, artist or playlist"),
    ]
    for (key, message) in expectations {
      harness.app.status = nil
      harness.press(key)
      XCTAssertEqual(status(harness), message, key)
    }
    harness.press("c")
    guard case .input(let title, _, _)? = harness.app.overlay else {
      return XCTFail("c still asks for a new playlist's name")
    }
    XCTAssertEqual(title, "New playlist name:")
  }

  func testSeekModeAndFollowOutsideTheLyricsViewPointToIt() throws {
    let harness = try home()
    harness.app.handle(.seekMode)
    XCTAssertEqual(status(harness), "seek mode is for the lyrics view: open it with l")
    harness.app.handle(.follow)
    XCTAssertEqual(status(harness), "following is for the lyrics view: open it with l")
  }

  func testStatusFromThePromptSaysWhatIsPlaying() throws {
    let harness = try home()
    harness.press(":")
    harness.type("status")
    harness.press("enter")
    XCTAssertEqual(status(harness), "nothing is playing")
    harness.playFromHome("우산 하나", duration: 32.7)
    harness.player.position = 10.4
    harness.press(":")
    harness.type("status")
    harness.press("enter")
    XCTAssertEqual(status(harness), "playing: 우산 하나 0:10 / 0:32")
  }
}
