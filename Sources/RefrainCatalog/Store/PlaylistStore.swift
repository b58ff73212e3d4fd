import Foundation
import GRDB
import RefrainCore

/// The user's playlists: named, ordered lists of tracks from any provider.
///
/// Entry positions are dense (0, 1, 2, …) and every change renumbers them in the same
/// transaction, so a reader never sees a gap or a duplicate position.
public struct PlaylistStore: Sendable {
  /// The library whose connection it shares.
  let store: LibraryStore

  /// Every playlist, by name.
  public func playlists() throws -> [LibraryPlaylist] {
    try store.read { db in
      try Row.fetchAll(db, sql: Self.playlistSelect + " ORDER BY p.name COLLATE NOCASE, p.id")
        .map(Self.playlist(from:))
    }
  }

  /// One playlist; throws ``LibraryStoreError/playlistNotFound(_:)`` when it is gone.
  public func playlist(_ id: Int64) throws -> LibraryPlaylist {
    try store.read { db in try Self.fetchPlaylist(id, in: db) }
  }

  /// Makes an empty playlist.
  public func createPlaylist(named name: String) throws -> LibraryPlaylist {
    let name = try Self.validName(name)
    return try store.write { db in
      let time = LibraryStore.now()
      try db.execute(
        sql: "INSERT INTO playlists (name, created_at, updated_at) VALUES (?, ?, ?)",
        arguments: [name, time, time])
      return try Self.fetchPlaylist(db.lastInsertedRowID, in: db)
    }
  }

  /// Gives a playlist a new name.
  public func renamePlaylist(_ id: Int64, to name: String) throws {
    let name = try Self.validName(name)
    try store.write { db in
      try db.execute(
        sql: "UPDATE playlists SET name = ?, updated_at = ? WHERE id = ?",
        arguments: [name, LibraryStore.now(), id])
      guard db.changesCount == 1 else { throw LibraryStoreError.playlistNotFound(id) }
    }
  }

  /// Deletes a playlist and its entries (the tracks stay in other playlists and in history).
  public func deletePlaylist(_ id: Int64) throws {
    try store.write { db in
      try db.execute(sql: "DELETE FROM playlists WHERE id = ?", arguments: [id])
      guard db.changesCount == 1 else { throw LibraryStoreError.playlistNotFound(id) }
    }
  }

  /// A playlist's entries in order, from `offset`, at most `limit` of them (all when `nil`).
  public func entries(inPlaylist id: Int64, offset: Int = 0, limit: Int? = nil) throws
    -> [PlaylistEntry]
  {
    try store.read { db in
      _ = try Self.fetchPlaylist(id, in: db)
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT e.id AS entry_id, e.position, e.added_at, e.provider, e.track_id,
                 t.title, t.artist, t.album, t.duration, t.json
          FROM playlist_entries e
          JOIN stored_tracks t ON t.provider = e.provider AND t.id = e.track_id
          WHERE e.playlist_id = ?
          ORDER BY e.position
          LIMIT ? OFFSET ?
          """,
        arguments: [id, limit ?? -1, max(0, offset)])
      return rows.map { row in
        PlaylistEntry(
          entryID: row["entry_id"], position: row["position"], track: LibraryStore.track(from: row),
          addedAt: Date(timeIntervalSince1970: row["added_at"]))
      }
    }
  }

  /// Adds tracks to a playlist at `position` (at the end when `nil`); returns the new entries' IDs.
  @discardableResult
  public func addTracks(_ tracks: [CatalogTrack], toPlaylist id: Int64, at position: Int? = nil)
    throws -> [Int64]
  {
    try store.write { db in
      let count = try Self.entryCount(id, in: db)
      let start = position ?? count
      guard (0...count).contains(start) else {
        throw LibraryStoreError.positionOutOfRange(start, count: count)
      }
      if start < count {
        try db.execute(
          sql: """
            UPDATE playlist_entries SET position = position + ?
            WHERE playlist_id = ? AND position >= ?
            """,
          arguments: [tracks.count, id, start])
      }
      let time = LibraryStore.now()
      var added: [Int64] = []
      for (offset, track) in tracks.enumerated() {
        try LibraryStore.store(track, in: db)
        try db.execute(
          sql: """
            INSERT INTO playlist_entries (playlist_id, position, provider, track_id, added_at)
            VALUES (?, ?, ?, ?, ?)
            """,
          arguments: [id, start + offset, track.provider, track.id, time])
        added.append(db.lastInsertedRowID)
      }
      try Self.touch(id, in: db)
      return added
    }
  }

  /// Removes entries (by entry ID) from a playlist; IDs not in it are ignored.
  public func removeEntries(_ entryIDs: [Int64], fromPlaylist id: Int64) throws {
    try store.write { db in
      _ = try Self.fetchPlaylist(id, in: db)
      for entryID in entryIDs {
        try db.execute(
          sql: "DELETE FROM playlist_entries WHERE id = ? AND playlist_id = ?",
          arguments: [entryID, id])
      }
      try Self.renumber(id, in: db)
      try Self.touch(id, in: db)
    }
  }

  /// Moves the entry at position `from` to position `to`; the entries between shift by one.
  public func moveEntry(inPlaylist id: Int64, from: Int, to: Int) throws {
    try store.write { db in
      let count = try Self.entryCount(id, in: db)
      for position in [from, to] where !(0..<count).contains(position) {
        throw LibraryStoreError.positionOutOfRange(position, count: count)
      }
      guard from != to,
        let moved = try Int64.fetchOne(
          db, sql: "SELECT id FROM playlist_entries WHERE playlist_id = ? AND position = ?",
          arguments: [id, from])
      else { return }
      if from < to {
        try db.execute(
          sql: """
            UPDATE playlist_entries SET position = position - 1
            WHERE playlist_id = ? AND position > ? AND position <= ?
            """,
          arguments: [id, from, to])
      } else {
        try db.execute(
          sql: """
            UPDATE playlist_entries SET position = position + 1
            WHERE playlist_id = ? AND position >= ? AND position < ?
            """,
          arguments: [id, to, from])
      }
      try db.execute(
        sql: "UPDATE playlist_entries SET position = ? WHERE id = ?", arguments: [to, moved])
      try Self.touch(id, in: db)
    }
  }

  // MARK: - Helpers

  static let playlistSelect = """
    SELECT p.id, p.name, p.created_at, p.updated_at,
           (SELECT COUNT(*) FROM playlist_entries e WHERE e.playlist_id = p.id) AS track_count
    FROM playlists p
    """

  static func playlist(from row: Row) -> LibraryPlaylist {
    LibraryPlaylist(
      id: row["id"], name: row["name"], trackCount: row["track_count"],
      createdAt: Date(timeIntervalSince1970: row["created_at"]),
      updatedAt: Date(timeIntervalSince1970: row["updated_at"]))
  }

  private static func fetchPlaylist(_ id: Int64, in db: Database) throws -> LibraryPlaylist {
    guard
      let row = try Row.fetchOne(db, sql: playlistSelect + " WHERE p.id = ?", arguments: [id])
    else { throw LibraryStoreError.playlistNotFound(id) }
    return playlist(from: row)
  }

  /// The number of entries; throws when the playlist does not exist.
  private static func entryCount(_ id: Int64, in db: Database) throws -> Int {
    try fetchPlaylist(id, in: db).trackCount
  }

  /// Marks the playlist as changed now.
  private static func touch(_ id: Int64, in db: Database) throws {
    try db.execute(
      sql: "UPDATE playlists SET updated_at = ? WHERE id = ?", arguments: [LibraryStore.now(), id])
  }

  /// Closes the gaps left by removed entries: positions become 0, 1, 2, … in the same order.
  private static func renumber(_ id: Int64, in db: Database) throws {
    let ids = try Int64.fetchAll(
      db, sql: "SELECT id FROM playlist_entries WHERE playlist_id = ? ORDER BY position, id",
      arguments: [id])
    for (position, entryID) in ids.enumerated() {
      try db.execute(
        sql: "UPDATE playlist_entries SET position = ? WHERE id = ? AND position != ?",
        arguments: [position, entryID, position])
    }
  }

  private static func validName(_ name: String) throws -> String {
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { throw LibraryStoreError.emptyPlaylistName }
    return trimmed
  }
}
