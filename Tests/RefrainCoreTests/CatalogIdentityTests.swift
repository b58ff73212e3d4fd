import Foundation
import RefrainCore
import XCTest

/// A track's identity across catalogs, and the queue slot it was taken from.
final class CatalogIdentityTests: XCTestCase {
  private let song = CatalogTrack(
    id: "302127", provider: "deezer", title: "우산", artist: "달빛 우체국",
    streamURL: URL(string: "http://127.0.0.1:9/preview.mp3"))

  func testAPlayableCatalogTrackCarriesItsTypedIdentity() throws {
    let track = try XCTUnwrap(song.playable)
    XCTAssertEqual(track.catalogID, CatalogTrackID(provider: "deezer", id: "302127"))
    XCTAssertEqual(track.id, "deezer:302127", "the key per-track data is stored under")
    XCTAssertNotEqual(
      CatalogTrackID(provider: "demo", id: "302127"), song.catalogID,
      "the same ID in another catalog is another track")
  }

  func testAFileGivenOnTheCommandLineHasNoCatalogIdentity() {
    XCTAssertNil(Track(argument: "/music/우산.mp3").catalogID)
  }

  func testTheQueueSlotDoesNotChangeWhatATrackIs() throws {
    var queue = PlayQueue()
    let track = try XCTUnwrap(song.playable)
    queue.replaceAll(with: [track, track], startAt: 0)
    let first = try XCTUnwrap(queue.track(at: 0))
    let second = try XCTUnwrap(queue.track(at: 1))
    XCTAssertEqual(first, second, "the same recording")
    XCTAssertEqual(first.hashValue, second.hashValue)
    XCTAssertFalse(first.isSameEntry(as: second), "two slots")
    XCTAssertTrue(first.isSameEntry(as: queue.current))
    XCTAssertTrue(track.isSameEntry(as: first), "a track from outside a queue matches any slot")
  }
}
