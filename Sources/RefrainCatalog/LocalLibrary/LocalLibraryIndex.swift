import Foundation
import GRDB

/// Writes local tracks, artists and albums into the library file (inside the caller's
/// transaction).
///
/// Artists are grouped by name ignoring case and spacing; albums by album artist (or artist)
/// and title. The IDs of artists and albums seen during one scan are remembered so a batch of
/// files from one album costs one lookup. Statements are prepared once per connection
/// (GRDB's statement cache): the search triggers make a fresh compile costly.
struct LocalLibraryIndex {
  private var artistIDs: [String: Int64] = [:]
  private var albumIDs: [String: Int64] = [:]

  /// A name as a grouping and sorting key: lowercased, spaces collapsed.
  static func key(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
  }

  /// Inserts or updates the track for `file`; returns `true` when it was new.
  @discardableResult
  mutating func upsert(_ info: LocalTrackInfo, file: FoundFile, in db: Database) throws -> Bool {
    let title = Self.clean(info.title) ?? Self.fileTitle(file.path)
    let artist = Self.clean(info.artist)
    let albumArtist = Self.clean(info.albumArtist)
    let album = Self.clean(info.album)
    let trackArtistID = try artist.map { try artistID(named: $0, in: db) }
    var albumID: Int64?
    if let album {
      albumID = try self.albumID(title: album, artist: albumArtist ?? artist, year: info.year, in: db)
    }
    let now = LibraryStore.now()
    let duration = info.duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    let values: [(any DatabaseValueConvertible)?] = [
      file.size, file.mtime, title, Self.key(title), artist, album, albumArtist, trackArtistID,
      albumID, info.trackNumber, info.year, duration, file.hasLyrics, file.lyricsPath,
      CJKGrams.grams([title, artist, album]), now,
    ]
    let existing = try Int64.fetchOne(
      db.cachedStatement(sql: "SELECT id FROM local_tracks WHERE path = ?"),
      arguments: [file.path])
    if let existing {
      try db.cachedStatement(
        sql: """
          UPDATE local_tracks SET size = ?, mtime = ?, title = ?, title_key = ?, artist = ?,
            album = ?, album_artist = ?, artist_id = ?, album_id = ?, track_number = ?, year = ?,
            duration = ?, has_lrc = ?, lyrics_path = ?, grams = ?, updated_at = ?
          WHERE id = ?
          """
      ).execute(arguments: StatementArguments(values + [existing]))
      return false
    }
    try db.cachedStatement(
      sql: """
        INSERT INTO local_tracks (size, mtime, title, title_key, artist, album, album_artist,
          artist_id, album_id, track_number, year, duration, has_lrc, lyrics_path, grams,
          updated_at, added_at, path)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    ).execute(arguments: StatementArguments(values + [now, file.path]))
    return true
  }

  /// Deletes the tracks at `paths` (and any failure notes for them).
  static func remove(paths: [String], in db: Database) throws {
    let track = try db.cachedStatement(sql: "DELETE FROM local_tracks WHERE path = ?")
    let failure = try db.cachedStatement(sql: "DELETE FROM local_scan_failures WHERE path = ?")
    for path in paths {
      try track.execute(arguments: [path])
      try failure.execute(arguments: [path])
    }
  }

  /// Deletes albums without tracks, then artists without tracks or albums.
  static func removeOrphans(in db: Database) throws {
    try db.execute(
      sql: """
        DELETE FROM local_albums WHERE NOT EXISTS
          (SELECT 1 FROM local_tracks t WHERE t.album_id = local_albums.id);
        DELETE FROM local_artists WHERE NOT EXISTS
            (SELECT 1 FROM local_tracks t WHERE t.artist_id = local_artists.id)
          AND NOT EXISTS (SELECT 1 FROM local_albums a WHERE a.artist_id = local_artists.id);
        """)
  }

  // MARK: - Artists and albums

  private mutating func artistID(named name: String, in db: Database) throws -> Int64 {
    let key = Self.key(name)
    if let id = artistIDs[key] { return id }
    let id: Int64
    if let found = try Int64.fetchOne(
      db.cachedStatement(sql: "SELECT id FROM local_artists WHERE key = ?"), arguments: [key])
    {
      id = found
    } else {
      try db.cachedStatement(sql: "INSERT INTO local_artists (key, name, grams) VALUES (?, ?, ?)")
        .execute(arguments: [key, name, CJKGrams.grams([name])])
      id = db.lastInsertedRowID
    }
    artistIDs[key] = id
    return id
  }

  private mutating func albumID(title: String, artist: String?, year: Int?, in db: Database)
    throws -> Int64
  {
    let key = Self.key(artist ?? "") + "\u{1F}" + Self.key(title)
    let id: Int64
    if let known = albumIDs[key] {
      id = known
    } else if let found = try Int64.fetchOne(
      db.cachedStatement(sql: "SELECT id FROM local_albums WHERE key = ?"), arguments: [key])
    {
      id = found
    } else {
      let ownerID = try artist.map { try artistID(named: $0, in: db) }
      try db.cachedStatement(
        sql: """
          INSERT INTO local_albums (key, title, title_key, artist_name, artist_id, year, grams)
          VALUES (?, ?, ?, ?, ?, ?, ?)
          """
      ).execute(arguments: [
        key, title, Self.key(title), artist, ownerID, year, CJKGrams.grams([title, artist]),
      ])
      id = db.lastInsertedRowID
      albumIDs[key] = id
      return id
    }
    albumIDs[key] = id
    if let year {
      // An album's year is its newest track's.
      try db.cachedStatement(
        sql: "UPDATE local_albums SET year = ? WHERE id = ? AND (year IS NULL OR year < ?)"
      ).execute(arguments: [year, id, year])
    }
    return id
  }

  // MARK: - Text

  /// A tag value in canonical (NFC) form; blank values become `nil`. Control characters are
  /// kept: the UI sanitises what it shows, and search must find what the tag says.
  static func clean(_ value: String?) -> String? {
    guard let value else { return nil }
    let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed.precomposedStringWithCanonicalMapping
  }

  /// The title used when a file has no title tag: its name without the extension.
  static func fileTitle(_ path: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
      return name.precomposedStringWithCanonicalMapping
    }
    return String(name[..<dot]).precomposedStringWithCanonicalMapping
  }
}
