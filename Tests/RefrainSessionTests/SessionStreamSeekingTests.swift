import Foundation
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainSession

/// A catalog whose streams are transcoded: seeks refused, and a fixed stream address.
private struct TranscodingCatalog: CatalogProvider {
  let name = "thin"
  static let reason = "seeking is not available: the server transcodes this track to opus"

  func home() async throws -> [HomeSection] { [] }
  func search(_ query: String, kind: SearchKind, offset: Int, limit: Int) async throws
    -> Page<CatalogItem>
  { Page(items: [], offset: 0, total: 0) }
  func album(id: String) async throws -> AlbumDetail { throw CatalogError.unsupported("albums") }
  func artist(id: String) async throws -> ArtistDetail { throw CatalogError.unsupported("artists") }
  func playlist(id: String, offset: Int, limit: Int) async throws -> PlaylistDetail {
    throw CatalogError.unsupported("playlists")
  }
  func streamURL(for track: CatalogTrack) async throws -> URL {
    URL(string: "http://127.0.0.1:9/rest/stream.view?id=\(track.id)&format=opus")!
  }
  func seeking(for track: CatalogTrack) -> StreamSeeking? {
    track.provider == name ? .refused(reason: Self.reason) : nil
  }
}

/// The catalog says how its streams seek, and the track handed to the player carries it.
final class SessionStreamSeekingTests: XCTestCase {
  func testTheCatalogsSeekingTravelsWithTheTrackToThePlayer() {
    let player = FakePlayer()
    let session = Session(
      player: player, library: nil, storage: nil,
      lyricsLoader: { _ in .notFound(reasons: ["no lyrics in the test"]) })
    session.catalog = TranscodingCatalog()
    let tracks = [
      CatalogTrack(id: "7", provider: "thin", title: "Thin", duration: 20),
      CatalogTrack(
        id: "f", provider: "demo", title: "File", streamURL: URL(fileURLWithPath: "/m/f.mp3")),
    ]
    var outcome: Outcome?
    session.queueCommands.play(tracks, startAt: 0) { result, _ in outcome = result }
    let deadline = Date().addingTimeInterval(5)
    while outcome == nil, Date() < deadline {
      usleep(2_000)
      session.drainInbox()
    }
    XCTAssertEqual(outcome, .done(message: nil))
    XCTAssertEqual(player.played.first?.seeking, .refused(reason: TranscodingCatalog.reason))
    XCTAssertEqual(player.played.first?.location.query, "id=7&format=opus")
    XCTAssertEqual(
      session.playback.queue.tracks.map(\.seeking),
      [
        .refused(reason: TranscodingCatalog.reason), nil,
      ])
  }
}
