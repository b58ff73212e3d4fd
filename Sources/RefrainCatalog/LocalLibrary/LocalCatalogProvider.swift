import Foundation
import GRDB
import RefrainCore

/// The user's own MP3 folders as a catalog: artists → albums → tracks, searched with FTS5.
///
/// It reads the index `refrain scan` (or ``LocalLibraryScanner``) wrote into the library file.
/// Its playlists are the user's own playlists from the same file.
public struct LocalCatalogProvider: CatalogProvider {
  /// The library holding the index.
  public let store: LibraryStore

  public var name: String { LocalLibraryRows.provider }

  /// How many items each Home section lists.
  public static let homeSectionSize = 30

  /// Creates the provider over `store`.
  public init(store: LibraryStore) {
    self.store = store
  }

  public func home() async throws -> [HomeSection] {
    try read { db in
      let size = Self.homeSectionSize
      let artists = try Row.fetchAll(
        db,
        sql: "SELECT \(LocalLibraryRows.artistColumns) FROM local_artists r ORDER BY r.key LIMIT ?",
        arguments: [size]
      ).map(LocalLibraryRows.artist)
      let albums = try Row.fetchAll(
        db,
        sql: """
          SELECT \(LocalLibraryRows.albumColumns) FROM local_albums a
          ORDER BY a.title_key, a.id LIMIT ?
          """,
        arguments: [size]
      ).map(LocalLibraryRows.album)
      let recent = try Row.fetchAll(
        db,
        sql: """
          SELECT \(LocalLibraryRows.trackColumns) FROM local_tracks t
          ORDER BY t.added_at DESC, t.id DESC LIMIT ?
          """,
        arguments: [size]
      ).map(LocalLibraryRows.track)
      return [
        HomeSection(
          id: "local-artists", title: "Artists", kind: .artists, items: artists.map { .artist($0) }),
        HomeSection(
          id: "local-albums", title: "Albums", kind: .other, items: albums.map { .album($0) }),
        HomeSection(
          id: "local-recent", title: "Recently added", kind: .newReleases,
          items: recent.map { .track($0) }),
      ].filter { !$0.items.isEmpty }
    }
  }

  public func search(_ query: String, kind: SearchKind, offset: Int, limit: Int) async throws
    -> Page<CatalogItem>
  {
    try searchNow(query, kind: kind, offset: offset, limit: limit)
  }

  /// ``search(_:kind:offset:limit:)`` on the calling thread (for the command line and benchmarks).
  public func searchNow(_ query: String, kind: SearchKind, offset: Int = 0, limit: Int = 50) throws
    -> Page<CatalogItem>
  {
    let offset = max(0, offset)
    if kind == .lyric {
      return try read { db in
        let found = try LyricSearchIndex.search(query, offset: offset, limit: limit + 1, db: db)
        return Page(
          items: Array(found.prefix(limit)).map { .lyric($0) }, offset: offset,
          total: found.count > limit ? nil : offset + found.count)
      }
    }
    guard limit > 0, let parsed = LocalSearchQuery(query) else {
      return Page(items: [], offset: offset, total: offset)
    }
    return try read { db in
      // One extra row tells whether another page follows.
      let items: [CatalogItem]
      switch kind {
      case .track:
        let ids = try LocalLibrarySearch.rankedIDs(
          parsed, in: LocalSearchTable.tracks, offset: offset, limit: limit + 1, db: db)
        items = try LocalLibraryRows.tracks(ids: ids, db: db).map { .track($0) }
      case .album:
        let ids = try LocalLibrarySearch.rankedIDs(
          parsed, in: LocalSearchTable.albums, offset: offset, limit: limit + 1, db: db)
        items = try LocalLibraryRows.albums(ids: ids, db: db).map { .album($0) }
      case .artist:
        let ids = try LocalLibrarySearch.rankedIDs(
          parsed, in: LocalSearchTable.artists, offset: offset, limit: limit + 1, db: db)
        items = try LocalLibraryRows.artists(ids: ids, db: db).map { .artist($0) }
      case .playlist:
        items = try Self.playlists(matching: parsed, offset: offset, limit: limit + 1, db: db)
          .map { .playlist($0) }
      case .lyric:
        items = []  // Answered above.
      }
      let more = items.count > limit
      return Page(
        items: Array(items.prefix(limit)), offset: offset,
        total: more ? nil : offset + items.count)
    }
  }

  public func album(id: String) async throws -> AlbumDetail {
    let rowID = try LocalLibraryRows.rowID(id, kind: "album")
    return try read { db in
      guard let album = try LocalLibraryRows.albums(ids: [rowID], db: db).first else {
        throw CatalogError.notFound("album \(id)")
      }
      let tracks = try Row.fetchAll(
        db,
        sql: """
          SELECT \(LocalLibraryRows.trackColumns) FROM local_tracks t WHERE t.album_id = ?
          ORDER BY coalesce(t.disc_number, 1), t.track_number IS NULL, t.track_number,
            t.title_key, t.path
          """,
        arguments: [rowID]
      ).map(LocalLibraryRows.track)
      return AlbumDetail(album: album, tracks: tracks)
    }
  }

  public func artist(id: String) async throws -> ArtistDetail {
    let rowID = try LocalLibraryRows.rowID(id, kind: "artist")
    return try read { db in
      guard let artist = try LocalLibraryRows.artists(ids: [rowID], db: db).first else {
        throw CatalogError.notFound("artist \(id)")
      }
      let albums = try Row.fetchAll(
        db,
        sql: """
          SELECT \(LocalLibraryRows.albumColumns) FROM local_albums a WHERE a.artist_id = ?
          ORDER BY a.year IS NULL, a.year, a.title_key
          """,
        arguments: [rowID]
      ).map(LocalLibraryRows.album)
      let tracks = try Row.fetchAll(
        db,
        sql: """
          SELECT \(LocalLibraryRows.trackColumns) FROM local_tracks t
          LEFT JOIN local_albums a ON a.id = t.album_id
          WHERE t.artist_id = ?
          ORDER BY a.year IS NULL, a.year, a.title_key, coalesce(t.disc_number, 1), t.track_number,
            t.title_key
          LIMIT 200
          """,
        arguments: [rowID]
      ).map(LocalLibraryRows.track)
      return ArtistDetail(artist: artist, topTracks: tracks, albums: albums)
    }
  }

  public func playlist(id: String, offset: Int, limit: Int) async throws -> PlaylistDetail {
    guard let rowID = Int64(id) else { throw CatalogError.notFound("playlist \(id)") }
    do {
      let playlist = try store.playlist(rowID)
      let entries = try store.entries(inPlaylist: rowID, offset: offset, limit: max(0, limit))
      return PlaylistDetail(
        playlist: playlist.summary,
        tracks: Page(
          items: entries.map(\.track), offset: max(0, offset), total: playlist.trackCount))
    } catch LibraryStoreError.playlistNotFound {
      throw CatalogError.notFound("playlist \(id)")
    } catch let error as LibraryStoreError {
      throw CatalogError.unavailable(error.description)
    }
  }

  public func streamURL(for track: CatalogTrack) async throws -> URL {
    let url = track.streamURL ?? URL(fileURLWithPath: track.id)
    guard FileManager.default.isReadableFile(atPath: url.path) else {
      throw CatalogError.unplayable(
        "\(url.path) is gone or unreadable; run `refrain scan` to refresh your folders")
    }
    return url
  }

  // MARK: - Lists for the Library pane

  /// One page of all artists, by name.
  public func artists(offset: Int, limit: Int) throws -> Page<ArtistSummary> {
    try read { db in
      let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM local_artists") ?? 0
      let items = try Row.fetchAll(
        db,
        sql:
          "SELECT \(LocalLibraryRows.artistColumns) FROM local_artists r ORDER BY r.key LIMIT ? OFFSET ?",
        arguments: [limit, max(0, offset)]
      ).map(LocalLibraryRows.artist)
      return Page(items: items, offset: max(0, offset), total: total)
    }
  }

  /// One page of all albums, by title.
  public func albums(offset: Int, limit: Int) throws -> Page<AlbumSummary> {
    try read { db in
      let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM local_albums") ?? 0
      let items = try Row.fetchAll(
        db,
        sql: """
          SELECT \(LocalLibraryRows.albumColumns) FROM local_albums a
          ORDER BY a.title_key, a.id LIMIT ? OFFSET ?
          """,
        arguments: [limit, max(0, offset)]
      ).map(LocalLibraryRows.album)
      return Page(items: items, offset: max(0, offset), total: total)
    }
  }

  /// How many tracks the index holds.
  public func trackCount() throws -> Int {
    try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM local_tracks") ?? 0 }
  }

  // MARK: - Helpers

  /// The user's playlists whose names contain the query, exact and prefix matches first.
  private static func playlists(
    matching query: LocalSearchQuery, offset: Int, limit: Int, db: Database
  ) throws -> [PlaylistSummary] {
    let like = "%" + LocalSearchQuery.likeEscaped(query.text) + "%"
    return try Row.fetchAll(
      db,
      sql: """
        SELECT p.id, p.name,
          (SELECT COUNT(*) FROM playlist_entries e WHERE e.playlist_id = p.id) AS track_count
        FROM playlists p WHERE p.name LIKE ? ESCAPE '\\'
        ORDER BY lower(p.name) = lower(?) DESC, p.name LIKE ? ESCAPE '\\' DESC,
          p.name COLLATE NOCASE, p.id
        LIMIT ? OFFSET ?
        """,
      arguments: [
        like, query.text, LocalSearchQuery.likeEscaped(query.text) + "%", limit, offset,
      ]
    ).map { row in
      let id: Int64 = row["id"]
      return PlaylistSummary(
        id: String(id), provider: LocalLibraryRows.provider, title: row["name"],
        trackCount: row["track_count"])
    }
  }

  /// Reads from the store, turning store failures into catalog errors.
  private func read<T>(_ body: (Database) throws -> T) throws -> T {
    do {
      return try store.read(body)
    } catch let error as LibraryStoreError {
      throw CatalogError.unavailable(error.description)
    }
  }
}
