import Foundation
import GRDB

/// Writes local tracks, artists and albums, and their full-text rows, into the library file
/// (inside the caller's transaction).
///
/// Artists are grouped by name ignoring case and spacing; albums by album artist (or artist)
/// and title. The IDs of artists and albums seen during one scan are remembered so a batch of
/// files from one album costs one lookup. Statements are prepared once per connection
/// (GRDB's statement cache).
struct LocalLibraryIndex {
  /// Artist IDs by grouping key, and by the exact name seen (which skips the key's work).
  private var artistIDs: [String: Int64] = [:]
  private var artistNames: [String: Int64] = [:]
  /// Album IDs by grouping key, and by the exact artist and title seen.
  private var albumIDs: [String: Int64] = [:]
  private var albumNames: [String: Int64] = [:]
  private var albumYears: [Int64: Int] = [:]

  /// Inserts or updates the track for `file`; returns `true` when it was new.
  @discardableResult
  mutating func upsert(_ info: LocalTrackInfo, file: FoundFile, in db: Database) throws -> Bool {
    let title = LocalText.clean(info.title) ?? LocalText.fileTitle(file.path)
    let artist = LocalText.clean(info.artist)
    let albumArtist = LocalText.clean(info.albumArtist)
    let album = LocalText.clean(info.album)
    let trackArtistID = try artist.map { try artistID(named: $0, in: db) }
    var albumID: Int64?
    if let album {
      albumID = try self.albumID(
        title: album, artist: albumArtist ?? artist, year: info.year, in: db)
    }
    let now = LibraryStore.now()
    let duration = info.duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    let values: [(any DatabaseValueConvertible)?] = [
      file.size, file.mtime, title, LocalText.key(title), artist, album, albumArtist,
      trackArtistID, albumID, info.trackNumber, info.year, duration, file.hasLyrics,
      file.lyricsPath, now,
    ]
    // Most files in a scan are new: try the insert first, and update only on a clash.
    try db.cachedStatement(
      sql: """
        INSERT INTO local_tracks (size, mtime, title, title_key, artist, album, album_artist,
          artist_id, album_id, track_number, year, duration, has_lrc, lyrics_path,
          updated_at, added_at, path)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (path) DO NOTHING
        """
    ).execute(arguments: StatementArguments(values + [now, file.path]))
    let isNew = db.changesCount == 1
    var rowID = db.lastInsertedRowID
    if !isNew {
      guard
        let found = try Int64.fetchOne(
          db.cachedStatement(sql: "SELECT id FROM local_tracks WHERE path = ?"),
          arguments: [file.path])
      else { throw LibraryStoreError.database("\(file.path) vanished from the index mid-scan") }
      rowID = found
      try db.cachedStatement(
        sql: """
          UPDATE local_tracks SET size = ?, mtime = ?, title = ?, title_key = ?, artist = ?,
            album = ?, album_artist = ?, artist_id = ?, album_id = ?, track_number = ?, year = ?,
            duration = ?, has_lrc = ?, lyrics_path = ?, updated_at = ?
          WHERE id = ?
          """
      ).execute(arguments: StatementArguments(values + [rowID]))
    }
    try LocalSearchTable.tracks.write(
      rowID: rowID, values: [title, artist, album], replacing: !isNew, in: db)
    return isNew
  }

  /// Deletes the tracks at `paths` (and any failure notes for them).
  static func remove(paths: [String], in db: Database) throws {
    let find = try db.cachedStatement(sql: "SELECT id FROM local_tracks WHERE path = ?")
    let track = try db.cachedStatement(sql: "DELETE FROM local_tracks WHERE id = ?")
    let failure = try db.cachedStatement(sql: "DELETE FROM local_scan_failures WHERE path = ?")
    for path in paths {
      if let id = try Int64.fetchOne(find, arguments: [path]) {
        try track.execute(arguments: [id])
        try LocalSearchTable.tracks.remove(rowID: id, in: db)
      }
      try failure.execute(arguments: [path])
    }
  }

  /// Deletes albums without tracks, then artists without tracks or albums.
  static func removeOrphans(in db: Database) throws {
    let albums = try Int64.fetchAll(
      db,
      sql: """
        SELECT id FROM local_albums a
        WHERE NOT EXISTS (SELECT 1 FROM local_tracks t WHERE t.album_id = a.id)
        """)
    for id in albums {
      try db.execute(sql: "DELETE FROM local_albums WHERE id = ?", arguments: [id])
      try LocalSearchTable.albums.remove(rowID: id, in: db)
    }
    let artists = try Int64.fetchAll(
      db,
      sql: """
        SELECT id FROM local_artists r
        WHERE NOT EXISTS (SELECT 1 FROM local_tracks t WHERE t.artist_id = r.id)
          AND NOT EXISTS (SELECT 1 FROM local_albums a WHERE a.artist_id = r.id)
        """)
    for id in artists {
      try db.execute(sql: "DELETE FROM local_artists WHERE id = ?", arguments: [id])
      try LocalSearchTable.artists.remove(rowID: id, in: db)
    }
  }

  // MARK: - Artists and albums

  private mutating func artistID(named name: String, in db: Database) throws -> Int64 {
    if let id = artistNames[name] { return id }
    let key = LocalText.key(name)
    if let id = artistIDs[key] {
      artistNames[name] = id
      return id
    }
    let id: Int64
    if let found = try Int64.fetchOne(
      db.cachedStatement(sql: "SELECT id FROM local_artists WHERE key = ?"), arguments: [key])
    {
      id = found
    } else {
      try db.cachedStatement(sql: "INSERT INTO local_artists (key, name) VALUES (?, ?)")
        .execute(arguments: [key, name])
      id = db.lastInsertedRowID
      try LocalSearchTable.artists.write(rowID: id, values: [name], replacing: false, in: db)
    }
    artistIDs[key] = id
    artistNames[name] = id
    return id
  }

  private mutating func albumID(title: String, artist: String?, year: Int?, in db: Database)
    throws -> Int64
  {
    let name = (artist ?? "") + "\u{1F}" + title
    if let known = albumNames[name] {
      try raiseYear(of: known, to: year, in: db)
      return known
    }
    let key = LocalText.key(artist ?? "") + "\u{1F}" + LocalText.key(title)
    if let known = albumIDs[key] {
      albumNames[name] = known
      try raiseYear(of: known, to: year, in: db)
      return known
    }
    let id: Int64
    if let found = try Int64.fetchOne(
      db.cachedStatement(sql: "SELECT id FROM local_albums WHERE key = ?"), arguments: [key])
    {
      id = found
      try raiseYear(of: id, to: year, in: db)
    } else {
      let ownerID = try artist.map { try artistID(named: $0, in: db) }
      try db.cachedStatement(
        sql: """
          INSERT INTO local_albums (key, title, title_key, artist_name, artist_id, year)
          VALUES (?, ?, ?, ?, ?, ?)
          """
      ).execute(arguments: [key, title, LocalText.key(title), artist, ownerID, year])
      id = db.lastInsertedRowID
      albumYears[id] = year ?? Int.min
      try LocalSearchTable.albums.write(
        rowID: id, values: [title, artist], replacing: false, in: db)
    }
    albumIDs[key] = id
    albumNames[name] = id
    return id
  }

  /// An album's year is its newest track's (remembered, so most tracks cost no write).
  private mutating func raiseYear(of album: Int64, to year: Int?, in db: Database) throws {
    guard let year, year > albumYears[album] ?? Int.min else { return }
    albumYears[album] = year
    try db.cachedStatement(
      sql: "UPDATE local_albums SET year = ? WHERE id = ? AND (year IS NULL OR year < ?)"
    ).execute(arguments: [year, album, year])
  }
}
