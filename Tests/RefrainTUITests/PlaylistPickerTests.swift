import Foundation
import RefrainCore
import XCTest

@testable import RefrainTUI

/// The playlist picker's rows and where its selection goes as fresh lists arrive.
final class PlaylistPickerTests: XCTestCase {
  private let track = CatalogTrack(id: "s-1", provider: "subsonic", title: "Middle A")

  private func own(_ id: Int64, _ name: String) -> LibraryPlaylist {
    LibraryPlaylist(
      id: id, name: name, trackCount: 0, createdAt: Date(timeIntervalSince1970: 0),
      updatedAt: Date(timeIntervalSince1970: 0))
  }

  private func server(_ id: String, _ name: String) -> PlaylistSummary {
    PlaylistSummary(id: id, provider: "subsonic", title: name)
  }

  func testWithoutAServerOnlyRefrainsPlaylistsAreListedAsPlainRows() {
    let picker = PlaylistPicker(tracks: [track], own: [own(1, "Morning")], server: nil)
    XCTAssertEqual(picker.rows.map(\.text), ["Morning", "+ New playlist…"])
    XCTAssertFalse(picker.rows.contains { $0.isHeader })
    XCTAssertEqual(picker.selected, .own(own(1, "Morning")))
  }

  func testUnderAServerItsPlaylistsComeFirstAndTheSelectionSkipsTheTitles() {
    var picker = PlaylistPicker(
      tracks: [track], own: [own(1, "Morning")], server: [server("p-1", "Road")])
    XCTAssertEqual(
      picker.rows.map(\.text),
      [
        "On the server", "Road", "+ New playlist on the server…", "Refrain's playlists",
        "Morning", "+ New playlist…",
      ])
    XCTAssertEqual(picker.selected, .server(server("p-1", "Road")))
    picker.move(.down, page: 8)
    XCTAssertEqual(picker.selected, .newOnServer)
    picker.move(.down, page: 8)
    XCTAssertEqual(picker.selected, .own(own(1, "Morning")), "the section title is stepped over")
    picker.move(.top, page: 8)
    XCTAssertEqual(picker.selected, .server(server("p-1", "Road")))
  }

  func testTheServersPlaylistsArrivingLaterTakeTheTopWhileTheUserHasNotMoved() {
    var picker = PlaylistPicker(tracks: [track], own: [], server: [])
    XCTAssertEqual(picker.selected, .newOnServer, "nothing read yet: the first row")
    picker.update(server: [server("p-1", "Road"), server("p-2", "Rain")])
    XCTAssertEqual(picker.selected, .server(server("p-1", "Road")))
  }

  func testAfterAMoveTheSelectionStaysOnTheSamePlaylistWhenTheListsChange() {
    var picker = PlaylistPicker(
      tracks: [track], own: [own(1, "Morning")], server: [server("p-2", "Rain")])
    picker.move(.down, page: 8)
    picker.move(.down, page: 8)
    XCTAssertEqual(picker.selected, .own(own(1, "Morning")))
    // A playlist made elsewhere appears above it on both lists.
    picker.update(
      own: [own(3, "Alpha"), own(1, "Morning")],
      server: [server("p-1", "Road"), server("p-2", "Rain")])
    XCTAssertEqual(picker.selected, .own(own(1, "Morning")))
    picker.update(own: [own(3, "Alpha")])
    XCTAssertNotEqual(picker.selected, .header, "a playlist that went leaves a real row selected")
  }
}
