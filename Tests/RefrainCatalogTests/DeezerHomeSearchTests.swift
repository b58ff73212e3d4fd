import Foundation
import RefrainCore
import XCTest

@testable import RefrainCatalog
@testable import RefrainDeezer

final class DeezerHomeSearchTests: XCTestCase {
  private var server: FixtureSession!

  override func setUpWithError() throws {
    server = try HTTPFixtureServer.deezerSession()
  }

  // MARK: - Home

  func testHomeHasReleasesChartsPlaylistsArtistsAndGenres() async throws {
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    let sections = try await provider.home()
    XCTAssertEqual(
      sections.map(\.id),
      [
        "deezer.new-releases", "deezer.chart.tracks", "deezer.chart.albums",
        "deezer.chart.playlists", "deezer.chart.artists", "deezer.genres",
      ])
    XCTAssertEqual(
      sections.map(\.kind), [.newReleases, .charts, .charts, .playlists, .artists, .genres])
    XCTAssertEqual(sections.map(\.items.count), [3, 3, 3, 3, 3, 23])

    guard case .album(let release) = sections[0].items[0] else { return XCTFail() }
    XCTAssertEqual(release.title, "Balloonerism")
    XCTAssertEqual(release.artist, "MAC MILLER")
    XCTAssertEqual(release.year, 2025)

    let track = try XCTUnwrap(sections[1].items[0].trackValue)
    XCTAssertEqual(track.title, "Bad Habits")
    XCTAssertEqual(track.artist, "Ed Sheeran")
    XCTAssertEqual(track.album, "Bad Habits")
    XCTAssertEqual(track.duration, 231)
    XCTAssertTrue(track.isPlayable)
    XCTAssertEqual(track.streamURL?.host, "127.0.0.1")

    let playlist = try XCTUnwrap(sections[3].items[0].playlistValue)
    XCTAssertEqual(
      playlist.owner, "Adam - Deezer UK & Ireland Editor", "lists name the owner `user`")
    XCTAssertEqual(playlist.trackCount, 60)
  }

  func testHomeKeepsWhatArrivedWhenOneRequestFails() throws {
    let genres = DeezerList(data: [DeezerGenre(id: DeezerID("113"), name: "Dance")])
    let sections = try DeezerHome.sections(
      chart: .failure(.timeout), releases: .failure(.httpStatus(code: 503, body: "")),
      genres: .success(genres))
    XCTAssertEqual(sections.map(\.id), ["deezer.genres"])
    XCTAssertThrowsError(
      try DeezerHome.sections(
        chart: .failure(.timeout), releases: .failure(.timeout), genres: .failure(.timeout)))
  }

  func testHomeFailsClearlyWhenTheServerIsDown() async throws {
    let (provider, _) = makeDeezerProvider(base: server.scenario("500-always"))
    let error = await catalogError { try await provider.home() }
    guard case .unavailable(let why) = error else { return XCTFail("\(String(describing: error))") }
    XCTAssertTrue(why.contains("HTTP 500"), why)
  }

  // MARK: - Search

  func testTrackSearchMapsTracksAndTheTotal() async throws {
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    let page = try await provider.search("eminem", kind: .track, offset: 0, limit: 25)
    XCTAssertEqual(page.items.count, 3)
    XCTAssertEqual(page.offset, 0)
    XCTAssertEqual(page.total, 193)
    XCTAssertTrue(page.hasMore)
    let track = try XCTUnwrap(page.items.first?.trackValue)
    XCTAssertEqual(track.id, "6461432")
    XCTAssertEqual(track.provider, "deezer")
    XCTAssertEqual(track.title, "Not Afraid")
    XCTAssertEqual(track.artist, "Eminem")
    XCTAssertEqual(track.duration, 248)
    XCTAssertNotNil(track.albumID)
    XCTAssertNotNil(track.playable)
    let logged = try await server.requests(endingWith: "/search")
    XCTAssertEqual(logged.map(\.query), ["q=eminem&index=0&limit=25"])
  }

  func testAMiddlePageKeepsItsOffsetAndTotal() async throws {
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    let page = try await provider.search("Billy Jean", kind: .track, offset: 1, limit: 4)
    XCTAssertEqual(page.items.count, 4)
    XCTAssertEqual(page.offset, 1)
    XCTAssertEqual(page.total, 298)
    XCTAssertTrue(page.hasMore)
    XCTAssertEqual(page.items.first?.title, "Billie Jean")
    XCTAssertEqual(
      page.items.first?.trackValue?.streamURL?.path.hasPrefix("/stream/"), true,
      "old unsigned preview URLs still play")
    let logged = try await server.requests(endingWith: "/search")
    XCTAssertEqual(logged.map(\.query), ["q=Billy%20Jean&index=1&limit=4"])
  }

  func testAlbumArtistAndPlaylistSearches() async throws {
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    let albums = try await provider.search("eminem", kind: .album, offset: 0, limit: 25)
    XCTAssertEqual(albums.items.map(\.kind), ["album", "album", "album"])
    XCTAssertEqual(albums.total, 266)
    guard case .album(let album) = albums.items[0] else { return XCTFail() }
    XCTAssertEqual(album.title, "2001")
    XCTAssertEqual(album.trackCount, 23)

    let artists = try await provider.search("doja", kind: .artist, offset: 0, limit: 25)
    guard case .artist(let artist) = artists.items[0] else { return XCTFail() }
    XCTAssertEqual(artist.name, "Doja Cat")
    XCTAssertEqual(artist.albumCount, 58)

    let playlists = try await provider.search("gangsta", kind: .playlist, offset: 0, limit: 25)
    let playlist = try XCTUnwrap(playlists.items.first?.playlistValue)
    XCTAssertEqual(playlist.id, "9062995762", "IDs above 2^32 survive")
    XCTAssertGreaterThan(try XCTUnwrap(Int64(playlist.id)), Int64(UInt32.max))
    XCTAssertEqual(playlist.owner, "anonymous")

    let paths = try await server.requests().map(\.path)
    XCTAssertTrue(paths.contains { $0.hasSuffix("/search/album") })
    XCTAssertTrue(paths.contains { $0.hasSuffix("/search/artist") })
    XCTAssertTrue(paths.contains { $0.hasSuffix("/search/playlist") })
  }

  func testAnEmptyResultEndsThePaging() async throws {
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    let page = try await provider.search(
      "nothing matches this", kind: .artist, offset: 0, limit: 25)
    XCTAssertEqual(page.items, [])
    XCTAssertEqual(page.total, 0)
    XCTAssertFalse(page.hasMore)
  }

  func testABlankQuerySendsNothing() async throws {
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    let page = try await provider.search("   ", kind: .track, offset: 0, limit: 25)
    XCTAssertEqual(page.total, 0)
    let logged = try await server.requests(endingWith: "/search")
    XCTAssertEqual(logged.count, 0)
  }

  func testAPageIsServedFromTheCacheTheSecondTime() async throws {
    let (provider, _) = makeDeezerProvider(base: server.baseURL)
    _ = try await provider.search("eminem", kind: .album, offset: 0, limit: 25)
    _ = try await provider.search("eminem", kind: .album, offset: 0, limit: 25)
    let logged = try await server.requests(endingWith: "/search/album")
    XCTAssertEqual(logged.count, 1)
  }

  // MARK: - Quirks on the way

  func testAQuotaErrorIsRetriedTransparently() async throws {
    let (provider, clock) = makeDeezerProvider(base: server.scenario("quota-then-ok"))
    let page = try await provider.search("eminem", kind: .track, offset: 0, limit: 25)
    XCTAssertEqual(page.total, 193)
    XCTAssertEqual(clock.sleeps.count, 1)
  }

  func testA429IsRetriedAfterItsRetryAfter() async throws {
    let (provider, clock) = makeDeezerProvider(base: server.scenario("429-then-ok"))
    let page = try await provider.search("eminem", kind: .track, offset: 0, limit: 25)
    XCTAssertEqual(page.total, 193)
    XCTAssertEqual(clock.sleeps.first, 2)
  }

  func testMalformedJSONIsReportedAsUnavailable() async throws {
    let (provider, _) = makeDeezerProvider(base: server.scenario("malformed"))
    let error = await catalogError {
      try await provider.search("x", kind: .track, offset: 0, limit: 5)
    }
    guard case .unavailable(let why) = error else { return XCTFail("\(String(describing: error))") }
    XCTAssertTrue(why.contains("could not be read"), why)
  }
}
