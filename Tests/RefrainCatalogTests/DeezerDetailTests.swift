import Foundation
import RefrainCore
import XCTest

@testable import RefrainCatalog
@testable import RefrainDeezer

final class DeezerDetailTests: XCTestCase {
  private var server: FixtureSession!

  override func setUpWithError() throws {
    server = try HTTPFixtureServer.deezerSession()
  }

  // MARK: - Albums

  func testAnAlbumPagesBeyondItsEmbeddedTracks() async throws {
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    let detail = try await provider.album(id: "302127")
    XCTAssertEqual(detail.album.title, "Discovery")
    XCTAssertEqual(detail.album.artist, "Daft Punk")
    XCTAssertEqual(detail.album.year, 2001)
    XCTAssertEqual(detail.album.trackCount, 14)
    XCTAssertEqual(detail.tracks.count, 14, "3 embedded + 11 from /album/302127/tracks?index=3")
    XCTAssertEqual(detail.tracks.compactMap(\.trackNumber), Array(1...14))
    XCTAssertEqual(Set(detail.tracks.map(\.albumID)), ["302127"])
    XCTAssertEqual(Set(detail.tracks.map(\.album)), ["Discovery"])
    XCTAssertEqual(detail.tracks[3].title, "Harder, Better, Faster, Stronger")
    XCTAssertEqual(detail.tracks[0].artist, "Daft Punk")
    let logged = try await server.requests(endingWith: "/album/302127/tracks")
    XCTAssertEqual(logged.map(\.query), ["index=3&limit=100"])
  }

  func testAnAlbumPagePastTheEndIsEmptyAndLast() async throws {
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    let first = try await provider.albumTracks(id: "302127", offset: 0, limit: 25)
    XCTAssertEqual(first.items.count, 3)
    XCTAssertEqual(first.total, 14)
    XCTAssertTrue(first.hasMore)
    let end = try await provider.albumTracks(id: "302127", offset: 14, limit: 25)
    XCTAssertEqual(end.items, [])
    XCTAssertEqual(end.offset, 14)
    XCTAssertEqual(end.total, 14)
    XCTAssertFalse(end.hasMore)
  }

  func testMissingAlbumsAreNotFoundWhetherTheStatusIs200Or404() async throws {
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    let with200 = await catalogError { try await provider.album(id: "-1") }
    XCTAssertEqual(with200, .notFound("album -1"))
    let with404 = await catalogError { try await provider.album(id: "0") }
    XCTAssertEqual(with404, .notFound("album 0"))
  }

  func testAnIDThatIsNotANumberIsNotFoundWithoutARequest() async throws {
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    let error = await catalogError { try await provider.album(id: "../chart/0") }
    XCTAssertEqual(error, .notFound("album ../chart/0"))
    let logged = try await server.requests()
    XCTAssertEqual(logged.filter { $0.path.contains("chart") }.count, 0)
  }

  // MARK: - Artists

  func testAnArtistHasTopTracksAndAlbums() async throws {
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    let detail = try await provider.artist(id: "27")
    XCTAssertEqual(detail.artist.name, "Daft Punk")
    XCTAssertEqual(detail.artist.albumCount, 36)
    XCTAssertEqual(detail.topTracks.count, 3)
    XCTAssertEqual(detail.topTracks.first?.title, "Veridis Quo")
    XCTAssertEqual(detail.topTracks.first?.artist, "Daft Punk")
    XCTAssertNotNil(detail.topTracks.first?.album)
    XCTAssertEqual(detail.albums.count, 3)
    XCTAssertEqual(detail.albums.first?.artist, "Daft Punk", "filled in from the artist")
    XCTAssertEqual(detail.albums.first?.year, 2023)
    let paths = try await server.requests().map(\.path)
    XCTAssertTrue(paths.contains { $0.hasSuffix("/artist/27/top") })
    XCTAssertTrue(paths.contains { $0.hasSuffix("/artist/27/albums") })
  }

  // MARK: - Playlists

  func testAPlaylistNamesItsCreatorAndPagesItsTracks() async throws {
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    let detail = try await provider.playlist(id: "908622995", offset: 0, limit: 25)
    XCTAssertEqual(detail.playlist.title, "En mode 60")
    XCTAssertEqual(
      detail.playlist.owner, "Alexandre - Pop & Hits Editor", "details name the owner `creator`")
    XCTAssertEqual(detail.playlist.trackCount, 50)
    XCTAssertEqual(detail.tracks.total, 50)
    XCTAssertEqual(detail.tracks.items.count, 3)
    XCTAssertTrue(detail.tracks.hasMore)
    let jack = try XCTUnwrap(detail.tracks.items.first { $0.title == "Hit the Road Jack" })
    XCTAssertFalse(jack.isPlayable, "preview is \"\" when the track is not readable")
    XCTAssertEqual(jack.unplayableReason, "no preview available")
    XCTAssertNil(jack.playable)
    let logged = try await server.requests(endingWith: "/playlist/908622995/tracks")
    XCTAssertEqual(logged.map(\.query), ["index=0&limit=25"])
  }

  func testAPlaylistWithAnIDAbove32Bits() async throws {
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    let detail = try await provider.playlist(id: "9062995762", offset: 0, limit: 25)
    XCTAssertEqual(detail.playlist.id, "9062995762")
    XCTAssertEqual(detail.playlist.title, "Gangsta’s Paradise")
    XCTAssertEqual(detail.playlist.owner, "anonymous")
  }

  // MARK: - Genres

  func testAGenreListsItsArtists() async throws {
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    let detail = try await provider.genre(id: "113")
    XCTAssertEqual(detail.genre.name, "Dance")
    XCTAssertEqual(detail.sections.map(\.kind), [.artists])
    XCTAssertEqual(detail.sections.first?.items.first?.title, "Bad Bunny")
  }

  func testAWrongGenreIDIsNotFound() async throws {
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    let error = await catalogError { try await provider.genre(id: "-1") }
    XCTAssertEqual(error, .notFound("genre -1"))
  }
}
