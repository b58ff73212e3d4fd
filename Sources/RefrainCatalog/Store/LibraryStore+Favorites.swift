import Foundation
import GRDB
import RefrainCore

/// Albums the user saved and tracks the user liked, newest first.
extension LibraryStore {
  // MARK: - Saved albums

  /// Saves an album (saving it again refreshes its details and moves it to the top).
  public func saveAlbum(_ album: AlbumSummary) throws {
    try write { db in
      try db.execute(
        sql: """
          INSERT INTO saved_albums (provider, id, title, artist, json, saved_at)
          VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT (provider, id) DO UPDATE SET
            title = excluded.title, artist = excluded.artist, json = excluded.json,
            saved_at = excluded.saved_at
          """,
        arguments: [
          album.provider, album.id, album.title, album.artist, Self.encodeJSON(album), Self.now(),
        ])
    }
  }

  /// Forgets a saved album.
  public func unsaveAlbum(provider: String, id: String) throws {
    try write { db in
      try db.execute(
        sql: "DELETE FROM saved_albums WHERE provider = ? AND id = ?", arguments: [provider, id])
    }
  }

  /// Whether an album is saved.
  public func isAlbumSaved(provider: String, id: String) throws -> Bool {
    try read { db in
      try Bool.fetchOne(
        db, sql: "SELECT EXISTS (SELECT 1 FROM saved_albums WHERE provider = ? AND id = ?)",
        arguments: [provider, id]) ?? false
    }
  }

  /// The saved albums, most recently saved first.
  public func savedAlbums() throws -> [AlbumSummary] {
    try read { db in
      let rows = try Row.fetchAll(
        db,
        sql:
          "SELECT provider, id, title, artist, json FROM saved_albums ORDER BY saved_at DESC, rowid DESC"
      )
      return rows.map { row in
        let json: String = row["json"]
        if let album = try? JSONDecoder().decode(AlbumSummary.self, from: Data(json.utf8)) {
          return album
        }
        return AlbumSummary(
          id: row["id"], provider: row["provider"], title: row["title"], artist: row["artist"])
      }
    }
  }

  // MARK: - Liked tracks

  /// Likes a track (liking it again refreshes its details and moves it to the top).
  public func likeTrack(_ track: CatalogTrack) throws {
    try write { db in
      try Self.store(track, in: db)
      try db.execute(
        sql: """
          INSERT INTO liked_tracks (provider, track_id, liked_at) VALUES (?, ?, ?)
          ON CONFLICT (provider, track_id) DO UPDATE SET liked_at = excluded.liked_at
          """,
        arguments: [track.provider, track.id, Self.now()])
    }
  }

  /// Unlikes a track.
  public func unlikeTrack(provider: String, id: String) throws {
    try write { db in
      try db.execute(
        sql: "DELETE FROM liked_tracks WHERE provider = ? AND track_id = ?",
        arguments: [provider, id])
    }
  }

  /// Whether a track is liked.
  public func isTrackLiked(provider: String, id: String) throws -> Bool {
    try read { db in
      try Bool.fetchOne(
        db, sql: "SELECT EXISTS (SELECT 1 FROM liked_tracks WHERE provider = ? AND track_id = ?)",
        arguments: [provider, id]) ?? false
    }
  }

  /// The liked tracks, most recently liked first.
  public func likedTracks() throws -> [CatalogTrack] {
    try read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT l.provider, l.track_id, t.title, t.artist, t.album, t.duration, t.json
          FROM liked_tracks l
          JOIN stored_tracks t ON t.provider = l.provider AND t.id = l.track_id
          ORDER BY l.liked_at DESC, l.rowid DESC
          """
      ).map(Self.track(from:))
    }
  }
}
