import Foundation
import GRDB
import RefrainCore

/// One staged entry of an import in progress: a track, playlist or album ID in list order.
package struct SpotifyStagedItem: Sendable, Equatable {
  package var id: String
  package var addedAt: Double?
  package var json: String?

  /// Creates an entry.
  package init(id: String, addedAt: Double? = nil, json: String? = nil) {
    self.id = id
    self.addedAt = addedAt
    self.json = json
  }
}

/// What plays an imported track.
public struct SpotifyMatch: Sendable, Equatable {
  /// How it plays.
  public enum Kind: String, Sendable {
    case local, subsonic, preview, none
  }

  public var kind: Kind
  /// The local file, for `local`.
  public var localPath: String?
  /// The Subsonic server's song ID, for `subsonic` (its stream URL is made at play time).
  public var serverID: String?
  /// The preview catalog's track ID, for `preview` (its URL expires: fetch a fresh one).
  public var previewID: String?
  /// The last preview URL seen, for listing before a fresh one is fetched.
  public var previewURL: String?
  /// Why nothing plays it, for `none`.
  public var reason: String?

  public init(
    kind: Kind, localPath: String? = nil, serverID: String? = nil, previewID: String? = nil,
    previewURL: String? = nil, reason: String? = nil
  ) {
    self.kind = kind
    self.localPath = localPath
    self.serverID = serverID
    self.previewID = previewID
    self.previewURL = previewURL
    self.reason = reason
  }
}

/// A local file as matching sees it.
package struct LocalMatchRow: Sendable {
  package var path: String
  package var isrc: String?
  package var title: String
  package var artist: String?
  package var duration: Double?
}

/// The imported Spotify library: staging of an import in progress, its results as ordinary
/// playlists, likes and saved albums, and the matches that make the tracks playable.
///
/// Each page of an import is staged in one transaction together with where the next page
/// is, and each list is applied (its playlist rewritten, the likes or saved albums
/// replaced) in one transaction when its last page is in. A killed import therefore leaves
/// either a list's previous state or its new one, and the next run continues from the last
/// staged page.
public struct SpotifyImportStore: Sendable {
  /// The library whose connection it shares.
  let store: LibraryStore

  /// The provider name of Spotify's tracks (`SpotifyMapping.provider` in RefrainSpotify).
  package static let spotifyProvider = "spotify"

  // MARK: - An import in progress

  /// The lists of the import in progress, with the next page of each (`nil` once complete)
  /// and whether it was applied.
  package func spotifyImportLists() throws -> [(
    list: String, next: String?, done: Bool, json: String?
  )] {
    try store.read { db in
      try Row.fetchAll(
        db, sql: "SELECT list, next_url, done, json FROM spotify_import_lists ORDER BY rowid"
      ).map { ($0["list"], $0["next_url"], $0["done"], $0["json"]) }
    }
  }

  /// Adds lists to the import in progress (ones already there are left as they are).
  package func addSpotifyImportLists(_ lists: [(list: String, first: String, json: String?)]) throws
  {
    try store.write { db in
      for entry in lists {
        try db.execute(
          sql: """
            INSERT INTO spotify_import_lists (list, next_url, done, json) VALUES (?, ?, 0, ?)
            ON CONFLICT (list) DO NOTHING
            """,
          arguments: [entry.list, entry.first, entry.json])
      }
    }
  }

  /// Stages one page of `list`: its tracks stored, its items appended, and `next` recorded
  /// as the page to fetch after it (`nil`: the list is complete), in one transaction.
  ///
  /// A track already stored keeps every field the page's record lacks (`storeMerging`).
  package func stageSpotifyPage(
    list: String, items: [SpotifyStagedItem], tracks: [CatalogTrack], next: String?
  ) throws {
    try store.write { db in
      for track in tracks { try LibraryStore.storeMerging(Self.bare(track), in: db) }
      var position =
        try Int.fetchOne(
          db, sql: "SELECT count(*) FROM spotify_import_items WHERE list = ?", arguments: [list])
        ?? 0
      for item in items {
        try db.execute(
          sql: """
            INSERT INTO spotify_import_items (list, position, item_id, added_at, json)
            VALUES (?, ?, ?, ?, ?)
            """,
          arguments: [list, position, item.id, item.addedAt, item.json])
        position += 1
      }
      try db.execute(
        sql: "UPDATE spotify_import_lists SET next_url = ? WHERE list = ?",
        arguments: [next, list])
    }
  }

  /// The staged items of `list`, in order.
  package func stagedSpotifyItems(_ list: String) throws -> [SpotifyStagedItem] {
    try store.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT item_id, added_at, json FROM spotify_import_items WHERE list = ?
          ORDER BY position
          """,
        arguments: [list]
      ).map { SpotifyStagedItem(id: $0["item_id"], addedAt: $0["added_at"], json: $0["json"]) }
    }
  }

  /// Writes a staged playlist as a Refrain playlist: the one it became before (renamed if
  /// needed) or a new one, its entries replaced by the staged tracks in order.
  package func applySpotifyPlaylist(
    spotifyID: String, name: String, snapshot: String?, position: Int
  )
    throws
  {
    let list = "playlist:" + spotifyID
    try store.write { db in
      let time = LibraryStore.now()
      let cleanName = Self.importedName(name)
      var playlistID = try Int64.fetchOne(
        db,
        sql: """
          SELECT s.playlist_id FROM spotify_playlists s JOIN playlists p ON p.id = s.playlist_id
          WHERE s.spotify_id = ?
          """,
        arguments: [spotifyID])
      if let existing = playlistID {
        try db.execute(
          sql: "UPDATE playlists SET name = ?, updated_at = ? WHERE id = ?",
          arguments: [cleanName, time, existing])
        try db.execute(
          sql: "DELETE FROM playlist_entries WHERE playlist_id = ?", arguments: [existing])
      } else {
        try db.execute(
          sql: "INSERT INTO playlists (name, created_at, updated_at) VALUES (?, ?, ?)",
          arguments: [cleanName, time, time])
        playlistID = db.lastInsertedRowID
      }
      guard let playlistID else { return }
      try db.execute(
        sql: """
          INSERT INTO playlist_entries (playlist_id, position, provider, track_id, added_at)
          SELECT ?, position, 'spotify', item_id, coalesce(added_at, ?)
          FROM spotify_import_items WHERE list = ? ORDER BY position
          """,
        arguments: [playlistID, time, list])
      try db.execute(
        sql: """
          INSERT INTO spotify_playlists (spotify_id, playlist_id, snapshot_id, position)
          VALUES (?, ?, ?, ?)
          ON CONFLICT (spotify_id) DO UPDATE SET playlist_id = excluded.playlist_id,
            snapshot_id = excluded.snapshot_id, position = excluded.position
          """,
        arguments: [spotifyID, playlistID, snapshot, position])
      try Self.finishList(list, in: db)
    }
  }

  /// Keeps a playlist whose snapshot did not change, recording its new place in the list.
  package func keepSpotifyPlaylist(spotifyID: String, position: Int) throws {
    try store.write { db in
      try db.execute(
        sql: "UPDATE spotify_playlists SET position = ? WHERE spotify_id = ?",
        arguments: [position, spotifyID])
    }
  }

  /// The snapshot each imported playlist had at its last import (`""` when Spotify gave
  /// none), by Spotify ID, for the playlists whose Refrain playlist still exists.
  package func spotifyPlaylistSnapshots() throws -> [String: String] {
    try store.read { db in
      var snapshots: [String: String] = [:]
      for row in try Row.fetchAll(
        db,
        sql: """
          SELECT s.spotify_id, s.snapshot_id FROM spotify_playlists s
          JOIN playlists p ON p.id = s.playlist_id
          """)
      {
        snapshots[row["spotify_id"]] = (row["snapshot_id"] as String?) ?? ""
      }
      return snapshots
    }
  }

  /// Replaces the Spotify likes with the staged ones; their order is Spotify's (newest first).
  package func applySpotifyLikes() throws {
    try store.write { db in
      let time = LibraryStore.now()
      try db.execute(sql: "DELETE FROM liked_tracks WHERE provider = 'spotify'")
      // Spotify lists newest first; an entry without a date keeps its place below the one
      // above it.
      let rows = try Row.fetchAll(
        db,
        sql:
          "SELECT item_id, added_at FROM spotify_import_items WHERE list = 'liked' ORDER BY position"
      )
      var previous = time
      for row in rows {
        let id: String = row["item_id"]
        let at = min((row["added_at"] as Double?) ?? previous, previous)
        try db.execute(
          sql: """
            INSERT INTO liked_tracks (provider, track_id, liked_at) VALUES ('spotify', ?, ?)
            ON CONFLICT (provider, track_id) DO NOTHING
            """,
          arguments: [id, at])
        previous = at - 0.001
      }
      try Self.finishList("liked", in: db)
    }
  }

  /// Replaces the Spotify saved albums with the staged ones.
  package func applySpotifyAlbums() throws {
    try store.write { db in
      let time = LibraryStore.now()
      try db.execute(sql: "DELETE FROM saved_albums WHERE provider = 'spotify'")
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT item_id, added_at, json FROM spotify_import_items WHERE list = 'albums'
          ORDER BY position
          """)
      var previous = time
      for row in rows {
        guard let json: String = row["json"],
          let album = try? JSONDecoder().decode(AlbumSummary.self, from: Data(json.utf8))
        else { continue }
        let at = min((row["added_at"] as Double?) ?? previous, previous)
        try db.execute(
          sql: """
            INSERT INTO saved_albums (provider, id, title, artist, json, saved_at)
            VALUES ('spotify', ?, ?, ?, ?, ?)
            ON CONFLICT (provider, id) DO NOTHING
            """,
          arguments: [album.id, album.title, album.artist, json, at])
        previous = at - 0.001
      }
      try Self.finishList("albums", in: db)
    }
  }

  /// Replaces an album's stored track list.
  ///
  /// Its tracks are Spotify's simplified records (no ISRC): a track already stored from a
  /// like or a playlist keeps its ISRC and every other field they lack (`storeMerging`).
  package func storeSpotifyAlbumTracks(albumID: String, tracks: [CatalogTrack]) throws {
    try store.write { db in
      try db.execute(
        sql: "DELETE FROM spotify_album_tracks WHERE album_id = ?", arguments: [albumID])
      for (position, track) in tracks.enumerated() {
        try LibraryStore.storeMerging(Self.bare(track), in: db)
        try db.execute(
          sql: "INSERT INTO spotify_album_tracks (album_id, position, track_id) VALUES (?, ?, ?)",
          arguments: [albumID, position, track.id])
      }
    }
  }

  /// What `spotify_import_lists.json` holds for a list Spotify would not let the app read.
  package static let skippedList = "skipped"

  /// Marks a list as one the app may not read (a withdrawn endpoint): nothing is changed.
  package func skipSpotifyList(_ list: String) throws {
    try store.write { db in
      try Self.finishList(list, in: db)
      try db.execute(
        sql: "UPDATE spotify_import_lists SET json = ? WHERE list = ?",
        arguments: [Self.skippedList, list])
    }
  }

  /// Ends the import: playlists no longer on Spotify are removed, the staging is emptied
  /// and `summary` is recorded, in one transaction.
  package func finishSpotifyImport(keeping playlists: Set<String>, summary: String) throws {
    try store.write { db in
      let imported = try Row.fetchAll(
        db, sql: "SELECT spotify_id, playlist_id FROM spotify_playlists")
      for row in imported where !playlists.contains(row["spotify_id"]) {
        let playlistID: Int64 = row["playlist_id"]
        try db.execute(sql: "DELETE FROM playlists WHERE id = ?", arguments: [playlistID])
        try db.execute(
          sql: "DELETE FROM spotify_playlists WHERE spotify_id = ?",
          arguments: [row["spotify_id"] as String])
      }
      try db.execute(sql: "DELETE FROM spotify_import_items")
      try db.execute(sql: "DELETE FROM spotify_import_lists")
      try db.execute(
        sql: "INSERT INTO spotify_imports (finished_at, summary) VALUES (?, ?)",
        arguments: [LibraryStore.now(), summary])
    }
  }

  /// The newest finished import: when, and its summary's JSON.
  public func lastSpotifyImport() throws -> (at: Date, summary: String)? {
    try store.read { db in
      try Row.fetchOne(
        db, sql: "SELECT finished_at, summary FROM spotify_imports ORDER BY id DESC LIMIT 1"
      ).map { (Date(timeIntervalSince1970: $0["finished_at"]), $0["summary"]) }
    }
  }

  /// Replaces the Spotify likes with `tracks`, newest first, in one transaction, as an
  /// import's last step does; for tools that build a library without the Web API.
  ///
  /// A track already stored keeps every field its new record lacks (`storeMerging`).
  public func replaceSpotifyLikes(with tracks: [CatalogTrack]) throws {
    try store.write { db in
      try db.execute(sql: "DELETE FROM liked_tracks WHERE provider = 'spotify'")
      var at = LibraryStore.now()
      for track in tracks where track.provider == Self.spotifyProvider {
        try LibraryStore.storeMerging(Self.bare(track), in: db)
        try db.execute(
          sql: """
            INSERT INTO liked_tracks (provider, track_id, liked_at) VALUES ('spotify', ?, ?)
            ON CONFLICT (provider, track_id) DO NOTHING
            """,
          arguments: [track.id, at])
        at -= 0.001
      }
    }
  }

  // MARK: - Matches

  /// Every imported track that a playlist, like or saved album still refers to.
  package func spotifyTracksInUse() throws -> [CatalogTrack] {
    try store.read { db in
      try String.fetchAll(
        db,
        sql: """
          SELECT json FROM stored_tracks t WHERE provider = 'spotify' AND (
            EXISTS (SELECT 1 FROM playlist_entries e WHERE e.provider = 'spotify' AND e.track_id = t.id)
            OR EXISTS (SELECT 1 FROM liked_tracks l WHERE l.provider = 'spotify' AND l.track_id = t.id)
            OR EXISTS (SELECT 1 FROM spotify_album_tracks a
                       JOIN saved_albums s ON s.provider = 'spotify' AND s.id = a.album_id
                       WHERE a.track_id = t.id))
          ORDER BY id
          """
      ).compactMap(LibraryStore.decodeTrack)
    }
  }

  /// The stored matches, by Spotify track ID.
  public func spotifyMatches() throws -> [String: SpotifyMatch] {
    try store.read { db in try Self.matches(in: db, ids: nil) }
  }

  /// The stored match of one track.
  public func spotifyMatch(for trackID: String) throws -> SpotifyMatch? {
    try store.read { db in try Self.matches(in: db, ids: [trackID])[trackID] }
  }

  /// Stores matches, replacing earlier ones for the same tracks, in one transaction.
  package func saveSpotifyMatches(_ matches: [String: SpotifyMatch]) throws {
    guard !matches.isEmpty else { return }
    try store.write { db in
      let time = LibraryStore.now()
      let statement = try db.cachedStatement(
        sql: """
          INSERT INTO spotify_matches (track_id, kind, local_path, server_id, preview_id,
            preview_url, reason, checked_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (track_id) DO UPDATE SET kind = excluded.kind,
            local_path = excluded.local_path, server_id = excluded.server_id,
            preview_id = excluded.preview_id,
            preview_url = excluded.preview_url, reason = excluded.reason,
            checked_at = excluded.checked_at
          """)
      for (id, match) in matches {
        try statement.execute(arguments: [
          id, match.kind.rawValue, match.localPath, match.serverID, match.previewID,
          match.previewURL,
          match.reason, time,
        ])
      }
    }
  }

  /// The scanned local files, for matching.
  package func localMatchRows() throws -> [LocalMatchRow] {
    try store.read { db in
      try Row.fetchAll(db, sql: "SELECT path, isrc, title, artist, duration FROM local_tracks")
        .map {
          LocalMatchRow(
            path: $0["path"], isrc: $0["isrc"], title: $0["title"], artist: $0["artist"],
            duration: $0["duration"])
        }
    }
  }

  // MARK: - Browsing

  /// Imported tracks with what plays them filled in (`streamURL`, `match`, or the reason).
  package func decorated(_ tracks: [CatalogTrack], in db: Database) throws -> [CatalogTrack] {
    let matches = try Self.matches(in: db, ids: tracks.map(\.id))
    return tracks.map { Self.decorate($0, with: matches[$0.id]) }
  }

  /// Imported tracks with their matches, read in one transaction.
  public func decoratedSpotifyTracks(_ tracks: [CatalogTrack]) throws -> [CatalogTrack] {
    try store.read { db in try decorated(tracks, in: db) }
  }

  /// The imported playlists in Spotify's order.
  public func spotifyPlaylists() throws -> [LibraryPlaylist] {
    try store.read { db in
      try Row.fetchAll(
        db,
        sql: PlaylistStore.playlistSelect
          + " JOIN spotify_playlists s ON s.playlist_id = p.id ORDER BY s.position"
      )
      .map(PlaylistStore.playlist(from:))
    }
  }

  /// An imported playlist's tracks in order, with their matches.
  public func spotifyPlaylistTracks(_ playlistID: Int64, offset: Int, limit: Int) throws
    -> [CatalogTrack]
  {
    let tracks = try store.entries(inPlaylist: playlistID, offset: offset, limit: limit).map(
      \.track)
    return try decoratedSpotifyTracks(tracks)
  }

  /// The Spotify likes, newest first, with their matches.
  public func spotifyLikedTracks() throws -> [CatalogTrack] {
    try decoratedSpotifyTracks(store.likedTracks().filter { $0.provider == Self.spotifyProvider })
  }

  /// A saved album's tracks in order, with their matches.
  public func spotifyAlbumTracks(_ albumID: String) throws -> [CatalogTrack] {
    try store.read { db in
      let tracks = try String.fetchAll(
        db,
        sql: """
          SELECT t.json FROM spotify_album_tracks a
          JOIN stored_tracks t ON t.provider = 'spotify' AND t.id = a.track_id
          WHERE a.album_id = ? ORDER BY a.position
          """,
        arguments: [albumID]
      ).compactMap(LibraryStore.decodeTrack)
      return try decorated(tracks, in: db)
    }
  }

  /// Imported tracks whose title, artist or album contains every word of `query`.
  public func searchSpotifyTracks(_ query: String, offset: Int, limit: Int) throws
    -> (tracks: [CatalogTrack], total: Int)
  {
    let words = query.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
    guard !words.isEmpty else { return ([], 0) }
    let clause = words.map { _ in
      "(lower(title) LIKE ? ESCAPE '\\' OR lower(coalesce(artist, '')) LIKE ? ESCAPE '\\' OR lower(coalesce(album, '')) LIKE ? ESCAPE '\\')"
    }.joined(separator: " AND ")
    var arguments: [DatabaseValueConvertible] = []
    for word in words {
      let escaped = word.replacingOccurrences(of: "\\", with: "\\\\")
        .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
      arguments += Array(repeating: "%\(escaped)%", count: 3)
    }
    return try store.read { db in
      let filter = "FROM stored_tracks WHERE provider = 'spotify' AND " + clause
      let total =
        try Int.fetchOne(
          db, sql: "SELECT count(*) " + filter, arguments: StatementArguments(arguments))
        ?? 0
      let tracks = try String.fetchAll(
        db, sql: "SELECT json " + filter + " ORDER BY title COLLATE NOCASE, id LIMIT ? OFFSET ?",
        arguments: StatementArguments(arguments + [limit, offset])
      ).compactMap(LibraryStore.decodeTrack)
      return (try decorated(tracks, in: db), total)
    }
  }

  // MARK: - Inside transactions

  private static func finishList(_ list: String, in db: Database) throws {
    try db.execute(sql: "DELETE FROM spotify_import_items WHERE list = ?", arguments: [list])
    try db.execute(
      sql: "UPDATE spotify_import_lists SET done = 1, next_url = NULL WHERE list = ?",
      arguments: [list])
  }

  private static func matches(in db: Database, ids: [String]?) throws -> [String: SpotifyMatch] {
    var sql =
      "SELECT track_id, kind, local_path, server_id, preview_id, preview_url, reason"
      + " FROM spotify_matches"
    var arguments = StatementArguments()
    if let ids {
      guard !ids.isEmpty else { return [:] }
      sql += " WHERE track_id IN (" + ids.map { _ in "?" }.joined(separator: ",") + ")"
      arguments = StatementArguments(ids)
    }
    var matches: [String: SpotifyMatch] = [:]
    for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
      matches[row["track_id"]] = SpotifyMatch(
        kind: SpotifyMatch.Kind(rawValue: row["kind"]) ?? .none, localPath: row["local_path"],
        serverID: row["server_id"], previewID: row["preview_id"], previewURL: row["preview_url"],
        reason: row["reason"])
    }
    return matches
  }

  /// A track with its match applied.
  package static func decorate(_ track: CatalogTrack, with match: SpotifyMatch?) -> CatalogTrack {
    var track = track
    switch match?.kind {
    case .local?:
      track.streamURL = match?.localPath.map { URL(fileURLWithPath: $0) }
      track.match = "local"
    case .subsonic?:
      // A stand-in without credentials: the provider makes the real URL at play time.
      track.streamURL = match?.serverID.flatMap { URL(string: "subsonic:song/\($0)") }
      track.match = "subsonic"
    case .preview?:
      track.streamURL = match?.previewURL.flatMap(URL.init(string:))
      track.match = "preview"
    default:
      track.streamURL = nil
      track.match = nil
    }
    if track.streamURL == nil {
      track.match = nil
      track.unplayableReason = match?.reason ?? "not matched yet: run `refrain spotify import`"
    } else {
      track.unplayableReason = nil
    }
    return track
  }

  /// A track as stored: what plays it is kept in `spotify_matches`, not in the copy.
  package static func bare(_ track: CatalogTrack) -> CatalogTrack {
    var track = track
    track.streamURL = nil
    track.match = nil
    track.unplayableReason = nil
    return track
  }

  /// A Spotify playlist's name as a Refrain playlist's: cleaned, never empty.
  package static func importedName(_ name: String) -> String {
    let clean = TerminalSanitizer.clean(name).trimmingCharacters(in: .whitespaces)
    return clean.isEmpty ? "Untitled Spotify playlist" : String(clean.prefix(200))
  }
}
