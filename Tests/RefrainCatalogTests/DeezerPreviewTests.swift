import Foundation
import RefrainCore
import XCTest

@testable import RefrainCatalog
@testable import RefrainDeezer

/// Signed preview URLs expire after about 15 minutes; the provider must never serve old ones.
final class DeezerPreviewTests: XCTestCase {
  private var server: FixtureSession!

  override func setUpWithError() throws {
    server = try HTTPFixtureServer.deezerSession()
  }

  // MARK: - Fresh URLs

  func testStreamURLFetchesTheTrackEveryTime() async throws {
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    let track = CatalogTrack(
      id: "3135556", provider: "deezer", title: "Harder, Better, Faster, Stronger")
    let first = try await provider.streamURL(for: track)
    let second = try await provider.streamURL(for: track)
    XCTAssertNotEqual(first, second, "never a cached preview URL")
    XCTAssertEqual(first.host, "127.0.0.1")
    XCTAssertEqual(first.path, "/preview/3135556.mp3")
    let logged = try await server.requests(endingWith: "/track/3135556")
    XCTAssertEqual(logged.count, 2)
  }

  func testAnExpiredPreviewIs403AndAskingAgainGivesAWorkingOne() async throws {
    // A server of its own, because this test moves the server's clock.
    let server = try HTTPFixtureServer.deezer()
    defer { server.stop() }
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    let album = try await provider.album(id: "302127")
    let track = try XCTUnwrap(album.tracks.first { $0.id == "3135556" })
    let listed = try XCTUnwrap(track.streamURL)
    let fresh = try await server.status(of: listed)
    XCTAssertEqual(fresh, 200)

    try await server.advanceClock(by: 901)
    let expired = try await server.status(of: listed)
    XCTAssertEqual(expired, 403, "the listed URL has expired")

    let renewed = try await provider.streamURL(for: track)
    XCTAssertNotEqual(renewed, listed)
    let status = try await server.status(of: renewed)
    XCTAssertEqual(status, 200)
  }

  func testATrackWithoutAPreviewIsUnplayable() async throws {
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    let track = CatalogTrack(id: "100325278", provider: "deezer", title: "Hit the Road Jack")
    let error = await catalogError { try await provider.streamURL(for: track) }
    XCTAssertEqual(error, .unplayable("no preview available"))
  }

  func testAnUnknownTrackIsNotFound() async throws {
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    let track = CatalogTrack(id: "42", provider: "deezer", title: "?")
    let error = await catalogError { try await provider.streamURL(for: track) }
    XCTAssertEqual(error, .notFound("track 42"))
  }

  // MARK: - Mapping

  func testOnlyHTTPPreviewsArePlayable() {
    XCTAssertNil(DeezerMapping.previewURL(""))
    XCTAssertNil(DeezerMapping.previewURL("  "))
    XCTAssertNil(DeezerMapping.previewURL(nil))
    XCTAssertNil(DeezerMapping.previewURL("file:///etc/passwd"))
    XCTAssertEqual(
      DeezerMapping.previewURL("http://127.0.0.1:9/preview/1.mp3?exp=1")?.path, "/preview/1.mp3")
  }
}
