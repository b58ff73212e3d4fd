import Foundation
import RefrainCore

/// The embedded demo catalog: original songs with synced lyrics, read from `Resources/demo/`.
///
/// It is the default catalog when nothing is configured and works fully offline. Everything
/// is read once, in the initializer, from `demo/catalog.json` (written by
/// `scripts/make-demo-catalog`); the MP3, lyrics and cover URLs are files beside it.
public struct DemoCatalogProvider: CatalogProvider {
  public let name = DemoCatalog.provider
  /// The `catalog.json` this catalog was read from.
  public let catalogFile: URL
  private let catalog: DemoCatalog

  /// Reads the demo catalog from `resources/demo/catalog.json`.
  ///
  /// - Parameter resources: Refrain's resources folder (the one holding `demo/`).
  /// - Throws: `CatalogError.unavailable`, naming the file, when `catalog.json` is missing,
  ///   unreadable or malformed (bad JSON, a missing field, a reference to an unknown ID).
  public init(resources: URL) throws {
    try self.init(catalogFile: Self.catalogFile(in: resources))
  }

  /// Reads a demo catalog from a `catalog.json` file; paths inside are relative to its folder.
  ///
  /// - Throws: `CatalogError.unavailable`, naming the file, when it is missing, unreadable
  ///   or malformed.
  public init(catalogFile: URL) throws {
    let path = catalogFile.path
    guard FileManager.default.fileExists(atPath: path) else {
      throw CatalogError.unavailable(
        "the demo catalog \(path) is missing; run scripts/make-demo-catalog, "
          + "or point REFRAIN_RESOURCES at a folder that holds demo/catalog.json")
    }
    let data: Data
    do {
      data = try Data(contentsOf: catalogFile)
    } catch {
      throw CatalogError.unavailable(
        "the demo catalog \(path) cannot be read: \(error.localizedDescription)")
    }
    do throws(DemoCatalogProblem) {
      let file = try DemoCatalogFile.decode(data)
      catalog = try DemoCatalog(file: file, folder: catalogFile.deletingLastPathComponent())
    } catch {
      throw CatalogError.unavailable(
        "the demo catalog \(path) is malformed: \(error.reason); "
          + "run scripts/make-demo-catalog to write it again")
    }
    self.catalogFile = catalogFile
  }

  /// Where the demo catalog's `catalog.json` sits inside a resources folder.
  public static func catalogFile(in resources: URL) -> URL {
    resources.appendingPathComponent("demo").appendingPathComponent("catalog.json")
  }

  // MARK: - Browsing

  public func home() async throws -> [HomeSection] {
    catalog.home
  }

  public func album(id: String) async throws -> AlbumDetail {
    guard let album = catalog.album(id) else { throw Self.notFound("album", id) }
    return AlbumDetail(album: album, tracks: catalog.tracks(ofAlbum: id))
  }

  /// The artist's albums and all their tracks; top tracks follow the Home charts' order.
  public func artist(id: String) async throws -> ArtistDetail {
    guard let artist = catalog.artist(id) else { throw Self.notFound("artist", id) }
    let chart = catalog.home.first { $0.kind == .charts }?.items ?? []
    let chartRank = Dictionary(
      chart.enumerated().compactMap { position, item -> (String, Int)? in
        guard case .track(let track) = item else { return nil }
        return (track.id, position)
      }, uniquingKeysWith: min)
    let order = { (entry: (offset: Int, element: CatalogTrack)) in
      (chartRank[entry.element.id] ?? .max, entry.offset)
    }
    let tracks = catalog.tracks.enumerated()
      .filter { $0.element.artistID == id }
      .sorted { order($0) < order($1) }
      .map(\.element)
    return ArtistDetail(
      artist: artist, topTracks: tracks, albums: catalog.albums.filter { $0.artistID == id })
  }

  public func playlist(id: String, offset: Int, limit: Int) async throws -> PlaylistDetail {
    guard let playlist = catalog.playlist(id) else { throw Self.notFound("playlist", id) }
    let tracks = catalog.tracks(ofPlaylist: id)
    return PlaylistDetail(
      playlist: playlist, tracks: Self.page(tracks, offset: offset, limit: limit))
  }

  /// The genre's albums, tracks, artists, and the playlists that include its tracks.
  public func genre(id: String) async throws -> GenreDetail {
    guard let genre = catalog.genre(id) else { throw Self.notFound("genre", id) }
    let albums = catalog.albums.filter { catalog.genreIDs(ofAlbum: $0.id).contains(id) }
    let albumIDs = Set(albums.map(\.id))
    let tracks = catalog.tracks.filter { $0.albumID.map(albumIDs.contains) ?? false }
    let trackIDs = Set(tracks.map(\.id))
    let artistIDs = Set(albums.compactMap(\.artistID))
    let artists = catalog.artists.filter { artistIDs.contains($0.id) }
    let playlists = catalog.playlists.filter { playlist in
      catalog.tracks(ofPlaylist: playlist.id).contains { trackIDs.contains($0.id) }
    }
    let sections = [
      HomeSection(
        id: "\(id)-albums", title: "Albums", kind: .newReleases,
        items: albums.map(CatalogItem.album)),
      HomeSection(
        id: "\(id)-tracks", title: "Tracks", kind: .charts, items: tracks.map(CatalogItem.track)),
      HomeSection(
        id: "\(id)-artists", title: "Artists", kind: .artists,
        items: artists.map(CatalogItem.artist)),
      HomeSection(
        id: "\(id)-playlists", title: "Playlists", kind: .playlists,
        items: playlists.map(CatalogItem.playlist)),
    ]
    return GenreDetail(genre: genre, sections: sections.filter { !$0.items.isEmpty })
  }

  /// The track with this ID.
  public func track(id: String) async throws -> CatalogTrack {
    guard let track = catalog.track(id) else { throw Self.notFound("track", id) }
    return track
  }

  /// The track's MP3, checked to still exist.
  public func streamURL(for track: CatalogTrack) async throws -> URL {
    guard track.provider == name, let known = catalog.track(track.id) else {
      throw Self.notFound("track", track.id)
    }
    guard let url = known.streamURL, FileManager.default.fileExists(atPath: url.path) else {
      throw CatalogError.unplayable(
        known.unplayableReason ?? "the demo file for \(known.title) is missing; "
          + "run scripts/make-demo-catalog")
    }
    return url
  }

  // MARK: - Search

  /// Case-, accent- and width-insensitive substring search over titles, artists and albums.
  ///
  /// Exact title matches come first, then titles that start with the query, then other
  /// title matches, then matches on the artist, album or owner; ties keep catalog order.
  /// A query with nothing searchable in it finds nothing.
  public func search(_ query: String, kind: SearchKind, offset: Int, limit: Int) async throws
    -> Page<CatalogItem>
  {
    let query = DemoSearchText(query)
    guard !query.isEmpty else { return Page(items: [], offset: max(0, offset), total: 0) }
    let candidates: [(item: CatalogItem, title: String, others: [String?])]
    switch kind {
    case .track:
      candidates = catalog.tracks.map { (.track($0), $0.title, [$0.artist, $0.album]) }
    case .album:
      candidates = catalog.albums.map { (.album($0), $0.title, [$0.artist]) }
    case .artist:
      candidates = catalog.artists.map { (.artist($0), $0.name, []) }
    case .playlist:
      candidates = catalog.playlists.map { (.playlist($0), $0.title, [$0.owner]) }
    case .lyric:
      candidates = []  // The demo's lyrics are files of their own, not indexed.
    }
    let ranked = candidates.enumerated().compactMap {
      position, candidate -> (Int, Int, CatalogItem)? in
      if let rank = DemoSearchText(candidate.title).titleRank(query) {
        return (rank, position, candidate.item)
      }
      let other = candidate.others.contains {
        $0.map { DemoSearchText($0).contains(query) } ?? false
      }
      return other ? (3, position, candidate.item) : nil
    }
    let items = ranked.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    return Self.page(items, offset: offset, limit: limit)
  }

  // MARK: - Helpers

  /// One page of a list; a negative offset counts as 0 and a negative limit as 0.
  private static func page<Item: Sendable & Hashable & Codable>(
    _ items: [Item], offset: Int, limit: Int
  ) -> Page<Item> {
    let start = min(max(0, offset), items.count)
    let end = start + min(max(0, limit), items.count - start)
    return Page(items: Array(items[start..<end]), offset: start, total: items.count)
  }

  private static func notFound(_ kind: String, _ id: String) -> CatalogError {
    .notFound("\(kind) \"\(id)\" in the demo catalog")
  }
}
