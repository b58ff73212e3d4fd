import Foundation
import GRDB
import RefrainCore

/// Tracks from any provider, kept so that playlists, likes and history can list and replay them.
extension LibraryStore {
  /// The stored copy of a track, if the library holds one.
  public func storedTrack(provider: String, id: String) throws -> CatalogTrack? {
    try read { db in
      let json = try String.fetchOne(
        db, sql: "SELECT json FROM stored_tracks WHERE provider = ? AND id = ?",
        arguments: [provider, id])
      return json.flatMap(Self.decodeTrack)
    }
  }

  /// Deletes stored tracks that no playlist, like or play refers to any more; returns how many.
  @discardableResult
  public func pruneUnusedTracks() throws -> Int {
    try write { db in
      try db.execute(
        sql: """
          DELETE FROM stored_tracks
          WHERE NOT EXISTS (SELECT 1 FROM playlist_entries e
                            WHERE e.provider = stored_tracks.provider AND e.track_id = stored_tracks.id)
            AND NOT EXISTS (SELECT 1 FROM liked_tracks l
                            WHERE l.provider = stored_tracks.provider AND l.track_id = stored_tracks.id)
            AND NOT EXISTS (SELECT 1 FROM play_history h
                            WHERE h.provider = stored_tracks.provider AND h.track_id = stored_tracks.id)
          """)
      return db.changesCount
    }
  }

  // MARK: - Inside transactions

  /// Inserts or refreshes a track's stored copy, without a URL that carries a login.
  static func store(_ track: CatalogTrack, in db: Database) throws {
    let track = track.withoutCredentials
    try db.execute(
      sql: """
        INSERT INTO stored_tracks (provider, id, title, artist, album, duration, json, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (provider, id) DO UPDATE SET
          title = excluded.title, artist = excluded.artist, album = excluded.album,
          duration = excluded.duration, json = excluded.json, updated_at = excluded.updated_at
        """,
      arguments: [
        track.provider, track.id, track.title, track.artist, track.album, track.duration,
        encodeJSON(track), now(),
      ])
  }

  /// Inserts a track's stored copy, or updates it without losing what it knew: a field
  /// `track` lacks keeps its stored value (``CatalogTrack/merging(_:)``).
  ///
  /// For imports, where the same track comes from sources that tell more (a liked track)
  /// or less (an album's track list) about it. A damaged stored copy is replaced.
  static func storeMerging(_ track: CatalogTrack, in db: Database) throws {
    let stored = try String.fetchOne(
      db.cachedStatement(sql: "SELECT json FROM stored_tracks WHERE provider = ? AND id = ?"),
      arguments: [track.provider, track.id]
    ).flatMap(decodeTrack)
    try store(stored.map { $0.merging(track) } ?? track, in: db)
  }

  /// A track decoded from its stored JSON; `nil` when the JSON is damaged.
  static func decodeTrack(_ json: String) -> CatalogTrack? {
    try? JSONDecoder().decode(CatalogTrack.self, from: Data(json.utf8))
  }

  /// The track stored in a row's `json` column, or a bare track built from its columns.
  static func track(from row: Row) -> CatalogTrack {
    let json: String? = row["json"]
    if let json, let track = decodeTrack(json) { return track }
    // A damaged copy still lists under its title, though it cannot be played.
    let provider: String = row["provider"] ?? "unknown"
    let id: String = row["track_id"] ?? row["id"] ?? ""
    return CatalogTrack(
      id: id, provider: provider, title: row["title"] ?? id, artist: row["artist"],
      album: row["album"], duration: row["duration"],
      unplayableReason: "the library's copy of this track is damaged")
  }

  /// A value as JSON text with sorted keys.
  package static func encodeJSON<Value: Encodable>(_ value: Value) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(value) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }
}
