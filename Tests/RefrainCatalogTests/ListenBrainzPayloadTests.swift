import Foundation
import RefrainCore
import XCTest

@testable import RefrainCatalog
@testable import RefrainScrobble

/// The JSON bodies sent to ListenBrainz's submit-listens endpoint.
final class ListenBrainzPayloadTests: XCTestCase {
  private let client = ListenBrainzPayload.Client(name: "Refrain", version: "0.2.0")

  private func queued(
    _ id: Int64 = 1, artist: String = "아이유", title: String = "밤편지", album: String = "Palette",
    at listenedAt: Int64 = 1_700_000_000
  ) -> QueuedListen {
    QueuedListen(
      id: id, service: .listenBrainz, artist: artist, title: title, album: album,
      duration: 253.5, trackKey: "local:/music/night.mp3", listenedAt: listenedAt, attempts: 0,
      lastError: nil)
  }

  private func text(_ data: Data?) -> String? { data.map { String(decoding: $0, as: UTF8.self) } }

  func testSingleListen() {
    XCTAssertEqual(
      text(ListenBrainzPayload.single(queued(), client: client)),
      #"{"listen_type":"single","payload":[{"listened_at":1700000000,"track_metadata":"#
        + #"{"additional_info":{"duration_ms":253500,"submission_client":"Refrain","#
        + #""submission_client_version":"0.2.0"},"artist_name":"아이유","release_name":"Palette","#
        + #""track_name":"밤편지"}}]}"#)
  }

  func testPlayingNowHasNoListenedAt() {
    var track = Track(
      id: "x", location: URL(fileURLWithPath: "/music/x.mp3"), title: "Jóga", artist: "Björk")
    track.album = nil
    let now = NowPlaying(track: track, duration: 305, startedAt: Date(timeIntervalSince1970: 5))
    XCTAssertEqual(
      text(ListenBrainzPayload.playingNow(now, client: client)),
      #"{"listen_type":"playing_now","payload":[{"track_metadata":{"additional_info":"#
        + #"{"duration_ms":305000,"submission_client":"Refrain","submission_client_version":"#
        + #""0.2.0"},"artist_name":"Björk","track_name":"Jóga"}}]}"#)
  }

  func testImportKeepsOrderAndTimes() throws {
    let data = try XCTUnwrap(
      ListenBrainzPayload.importing(
        [queued(1, at: 100), queued(2, album: "", at: 200)], client: client))
    let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    XCTAssertEqual(json["listen_type"] as? String, "import")
    let payload = try XCTUnwrap(json["payload"] as? [[String: Any]])
    XCTAssertEqual(payload.map { $0["listened_at"] as? Int }, [100, 200])
    let second = try XCTUnwrap(payload[1]["track_metadata"] as? [String: Any])
    XCTAssertNil(second["release_name"], "a blank album is left out")
  }

  func testImportSizeIsBounded() {
    XCTAssertNil(ListenBrainzPayload.importing([], client: client))
    let many = (0...ListenBrainzPayload.maximumImport).map { queued(Int64($0), at: Int64($0)) }
    XCTAssertNil(ListenBrainzPayload.importing(many, client: client))
    XCTAssertNotNil(ListenBrainzPayload.importing(Array(many.dropLast()), client: client))
  }

  func testListensWithoutArtistOrTitleAreRefused() {
    XCTAssertNil(ListenBrainzPayload.single(queued(artist: " "), client: client))
    XCTAssertNil(ListenBrainzPayload.single(queued(title: ""), client: client))
    XCTAssertNil(
      ListenBrainzPayload.importing([queued(1), queued(2, artist: "")], client: client))
  }

  func testSlashesAndQuotesAreEscapedOnlyAsJSONNeeds() throws {
    let data = try XCTUnwrap(
      ListenBrainzPayload.single(queued(artist: "AC/DC", title: #"Say "Hi""#), client: client))
    let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    let payload = try XCTUnwrap(json["payload"] as? [[String: Any]])
    let metadata = try XCTUnwrap(payload.first?["track_metadata"] as? [String: Any])
    XCTAssertEqual(metadata["artist_name"] as? String, "AC/DC")
    XCTAssertEqual(metadata["track_name"] as? String, #"Say "Hi""#)
  }
}
