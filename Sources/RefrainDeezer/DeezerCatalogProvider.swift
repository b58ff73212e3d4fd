import Foundation
import RefrainCore
import RefrainHTTP

/// The online catalog: Deezer's public API (no sign-in), playing its 30-second MP3 previews.
///
/// Every call goes through one `HTTPClient`, so the rate limit and the page cache are shared.
/// Preview URLs are signed and expire after about 15 minutes, so `streamURL(for:)` fetches
/// `/track/{id}` afresh on every call; a player that gets HTTP 403 on a preview asks again.
public struct DeezerCatalogProvider: CatalogProvider {
  public let name = DeezerMapping.provider
  /// The API root, or `nil` when none is configured (every call then fails clearly).
  public let baseURL: URL?
  private let client: HTTPClient

  /// How many new releases the Home pane shows.
  static let releasesLimit = 20
  /// How many top tracks an artist page shows.
  static let artistTopLimit = 10
  /// How many albums an artist page lists.
  static let artistAlbumsLimit = 50
  /// The page size used to fetch album tracks beyond those embedded in `/album/{id}`.
  static let albumPageSize = 100
  /// The most extra album pages fetched, a guard against a server that never ends.
  static let albumPageLimit = 20

  /// Creates the provider for a base URL, with its own client unless one is given.
  public init(baseURL: URL?, client: HTTPClient? = nil) {
    self.baseURL = baseURL
    self.client = client ?? HTTPClient(configuration: Self.clientConfiguration())
  }

  /// Creates the provider for `baseURL` (the configuration resolves it), caching
  /// pages on disk under `$XDG_CACHE_HOME/refrain/http/` when `diskCache` is on.
  public init(baseURL: URL?, environment: [String: String], diskCache: Bool = true) {
    let directory = diskCache ? ResponseCache.defaultDirectory(environment: environment) : nil
    self.init(
      baseURL: baseURL,
      client: HTTPClient(configuration: Self.clientConfiguration(cacheDirectory: directory)))
  }

  // MARK: - CatalogProvider

  public func home() async throws -> [HomeSection] {
    let api = try configuredAPI()
    async let chart = attempt(DeezerChart.self, api.chart())
    async let releases = attempt(
      DeezerList<DeezerAlbum>.self, api.editorialReleases(limit: Self.releasesLimit))
    async let genres = attempt(DeezerList<DeezerGenre>.self, api.genres())
    let results = (await chart, await releases, await genres)
    return try DeezerHome.sections(chart: results.0, releases: results.1, genres: results.2)
  }

  public func search(_ query: String, kind: SearchKind, offset: Int, limit: Int) async throws
    -> Page<CatalogItem>
  {
    let api = try configuredAPI()
    let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
    let offset = max(0, offset)
    // The online catalog has no lyrics to search.
    guard !text.isEmpty, kind != .lyric else { return Page(items: [], offset: offset, total: 0) }
    let endpoint = api.search(kind, query: text, index: offset, limit: min(max(1, limit), 100))
    switch kind {
    case .track:
      let list = try await fetch(DeezerList<DeezerTrack>.self, endpoint)
      return DeezerMapping.page(list, offset: offset) { .track(DeezerMapping.track($0)) }
    case .album:
      let list = try await fetch(DeezerList<DeezerAlbum>.self, endpoint)
      return DeezerMapping.page(list, offset: offset) { .album(DeezerMapping.album($0)) }
    case .artist:
      let list = try await fetch(DeezerList<DeezerArtist>.self, endpoint)
      return DeezerMapping.page(list, offset: offset) { .artist(DeezerMapping.artist($0)) }
    case .playlist:
      let list = try await fetch(DeezerList<DeezerPlaylist>.self, endpoint)
      return DeezerMapping.page(list, offset: offset) { .playlist(DeezerMapping.playlist($0)) }
    case .lyric:
      return Page(items: [], offset: offset, total: 0)
    }
  }

  public func album(id: String) async throws -> AlbumDetail {
    let api = try configuredAPI()
    let item = try Self.checked(id, "album")
    let record = try await fetch(DeezerAlbum.self, api.album(id), item: item)
    var tracks = record.tracks?.data ?? []
    // `/album/{id}` may embed only the first tracks; page through the rest.
    var pages = 0
    while tracks.count < (record.trackCount ?? 0), pages < Self.albumPageLimit {
      let endpoint = api.albumTracks(id, index: tracks.count, limit: Self.albumPageSize)
      let page = try await fetch(DeezerList<DeezerTrack>.self, endpoint, item: item)
      pages += 1
      guard !page.data.isEmpty else { break }
      tracks += page.data
      if let total = page.total, tracks.count >= total { break }
    }
    // Embedded tracks carry no `track_position`; their order is the album's.
    let mapped = tracks.enumerated().map { index, track in
      var item = DeezerMapping.track(track, album: record.reference, artist: record.artist)
      item.trackNumber = item.trackNumber ?? index + 1
      return item
    }
    return AlbumDetail(album: DeezerMapping.album(record), tracks: mapped)
  }

  public func artist(id: String) async throws -> ArtistDetail {
    let api = try configuredAPI()
    let item = try Self.checked(id, "artist")
    async let artist = attempt(DeezerArtist.self, api.artist(id))
    async let top = attempt(
      DeezerList<DeezerTrack>.self, api.artistTop(id, limit: Self.artistTopLimit))
    async let albums = attempt(
      DeezerList<DeezerAlbum>.self, api.artistAlbums(id, limit: Self.artistAlbumsLimit))
    let results = await (artist, top, albums)
    let record = try Self.value(results.0, item: item)
    let topTracks = try Self.value(results.1, item: item).data
    let albumRecords = try Self.value(results.2, item: item).data
    return ArtistDetail(
      artist: DeezerMapping.artist(record),
      topTracks: topTracks.map { DeezerMapping.track($0, artist: record) },
      albums: albumRecords.map {
        var album = DeezerMapping.album($0)
        album.artist = album.artist ?? record.name
        album.artistID = album.artistID ?? record.id.value
        return album
      })
  }

  public func playlist(id: String, offset: Int, limit: Int) async throws -> PlaylistDetail {
    let api = try configuredAPI()
    let item = try Self.checked(id, "playlist")
    let offset = max(0, offset)
    async let playlist = attempt(DeezerPlaylist.self, api.playlist(id))
    async let tracks = attempt(
      DeezerList<DeezerTrack>.self,
      api.playlistTracks(id, index: offset, limit: min(max(1, limit), 100)))
    let results = await (playlist, tracks)
    let summary = DeezerMapping.playlist(try Self.value(results.0, item: item))
    var page = DeezerMapping.page(try Self.value(results.1, item: item), offset: offset) {
      DeezerMapping.track($0)
    }
    page.total = page.total ?? summary.trackCount
    return PlaylistDetail(playlist: summary, tracks: page)
  }

  public func genre(id: String) async throws -> GenreDetail {
    let api = try configuredAPI()
    let item = try Self.checked(id, "genre")
    async let genre = attempt(DeezerGenre.self, api.genre(id))
    async let artists = attempt(DeezerList<DeezerArtist>.self, api.genreArtists(id))
    let results = await (genre, artists)
    let summary = DeezerMapping.genre(try Self.value(results.0, item: item))
    let items = try Self.value(results.1, item: item).data.map {
      CatalogItem.artist(DeezerMapping.artist($0))
    }
    let sections =
      items.isEmpty
      ? []
      : [
        HomeSection(
          id: "deezer.genre.\(id).artists", title: "Artists", kind: .artists, items: items)
      ]
    return GenreDetail(genre: summary, sections: sections)
  }

  /// A fresh preview URL from `/track/{id}`, fetched on every call and never cached.
  public func streamURL(for track: CatalogTrack) async throws -> URL {
    let api = try configuredAPI()
    let item = try Self.checked(track.id, "track")
    let record = try await fetch(DeezerTrack.self, api.track(track.id), item: item)
    guard let url = DeezerMapping.previewURL(record.preview) else {
      throw CatalogError.unplayable(DeezerMapping.noPreview)
    }
    return url
  }

  // MARK: - More than the protocol

  /// The catalog's track with this ISRC (`/track/isrc:CODE`), or `nil` when the catalog has
  /// none (it says so with HTTP 200 and error code 800). Throws when it cannot be asked.
  public func track(isrc: String) async throws -> CatalogTrack? {
    guard let code = ISRC.normalized(isrc) else { return nil }
    let api = try configuredAPI()
    do {
      let record = try await fetch(DeezerTrack.self, api.track(isrc: code), item: "ISRC \(code)")
      return DeezerMapping.track(record)
    } catch CatalogError.notFound {
      return nil
    }
  }

  /// One page of an album's tracks (`/album/{id}/tracks`); past the end it is empty.
  public func albumTracks(id: String, offset: Int, limit: Int) async throws -> Page<CatalogTrack> {
    let api = try configuredAPI()
    let item = try Self.checked(id, "album")
    let offset = max(0, offset)
    let endpoint = api.albumTracks(id, index: offset, limit: min(max(1, limit), 100))
    let list = try await fetch(DeezerList<DeezerTrack>.self, endpoint, item: item)
    return DeezerMapping.page(list, offset: offset) { DeezerMapping.track($0) }
  }

  // MARK: - Plumbing

  private func configuredAPI() throws -> DeezerAPI {
    guard let baseURL else { throw CatalogError.unavailable(Self.notConfiguredMessage) }
    return DeezerAPI(baseURL: baseURL)
  }

  /// Deezer IDs are 64-bit integers; anything else cannot exist, so no request is sent.
  private static func checked(_ id: String, _ kind: String) throws -> String {
    guard Int64(id) != nil else { throw CatalogError.notFound("\(kind) \(id)") }
    return "\(kind) \(id)"
  }

  private func fetch<Value: Decodable & Sendable>(
    _ type: Value.Type, _ endpoint: Endpoint, item: String? = nil
  ) async throws -> Value {
    do {
      return try await client.decode(type, from: endpoint)
    } catch {
      throw DeezerErrors.catalogError(error, item: item)
    }
  }

  /// Fetches without throwing, so that concurrent requests (`async let`) all finish and
  /// none is cancelled halfway when another fails.
  private func attempt<Value: Decodable & Sendable>(_ type: Value.Type, _ endpoint: Endpoint)
    async -> Result<Value, NetworkError>
  {
    do {
      return .success(try await client.decode(type, from: endpoint))
    } catch {
      return .failure(error)
    }
  }

  private static func value<Value>(_ result: Result<Value, NetworkError>, item: String?) throws
    -> Value
  {
    switch result {
    case .success(let value): return value
    case .failure(let error): throw DeezerErrors.catalogError(error, item: item)
    }
  }
}
