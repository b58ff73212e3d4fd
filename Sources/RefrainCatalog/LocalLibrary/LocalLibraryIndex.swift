import Foundation
import GRDB
import RefrainTags

/// Writes local tracks, artists and albums, and their full-text rows, into the library file
/// (inside the caller's transaction).
///
/// Artists are grouped by name ignoring case and spacing; albums by album artist (or artist)
/// and title. The IDs of artists and albums seen during one scan are remembered so a batch of
/// files from one album costs one lookup. Rows arrive cleaned, keyed and with their grams
/// (``LocalTrackRow``, built on the reading threads), and the statements bind them directly
/// (``BoundStatement``), so this thread does little besides SQLite's own work.
struct LocalLibraryIndex {
  /// Artist and album IDs by grouping key.
  private var artistIDs: [String: Int64] = [:]
  private var albumIDs: [String: Int64] = [:]
  /// The newest year each album seen in this scan has, so most tracks cost no write.
  private var albumYears: [Int64: Int] = [:]
  /// Whether artists and albums not seen in this scan are most likely new (the index had
  /// none when it started): they are inserted without a lookup first, and looked up only
  /// when the insert finds one there (another scan may have added it meanwhile).
  var insertsFirst = false

  /// Whether the index holds no artists and no albums, as in a first scan.
  static func hasNoArtistsOrAlbums(_ db: Database) throws -> Bool {
    try Bool.fetchOne(
      db,
      sql: """
        SELECT NOT EXISTS (SELECT 1 FROM local_albums) AND NOT EXISTS (SELECT 1 FROM local_artists)
        """) ?? false
  }

  /// Inserts or updates the track `row` describes; returns `true` when it was new.
  ///
  /// `now` is stored as the time it was added (when new) and updated.
  @discardableResult
  mutating func upsert(_ row: LocalTrackRow, now: Double, with statements: Statements) throws
    -> Bool
  {
    let trackArtistID = try row.artist.map {
      try artistID(named: $0, key: row.artistKey ?? LocalText.key($0), with: statements)
    }
    var albumID: Int64?
    if row.album != nil { albumID = try self.albumID(for: row, with: statements) }
    // Most files in a scan are new: try the insert first, and update only on a clash.
    let insert = statements.insertTrack
    bindTrack(row, artistID: trackArtistID, albumID: albumID, now: now, to: insert)
    insert.bind(20, now)
    insert.bind(21, row.file.path)
    try insert.run()
    let isNew = statements.db.changesCount == 1
    var rowID = statements.db.lastInsertedRowID
    if !isNew {
      statements.findTrack.bind(1, row.file.path)
      guard let found = try statements.findTrack.run() else {
        throw LibraryStoreError.database("\(row.file.path) vanished from the index mid-scan")
      }
      rowID = found
      // First: the full-text tables read the old text from the row to delete it.
      try statements.tracks.remove(rowID: rowID)
      let update = statements.updateTrack
      bindTrack(row, artistID: trackArtistID, albumID: albumID, now: now, to: update)
      update.bind(20, rowID)
      try update.run()
    }
    try statements.tracks.write(
      rowID: rowID, values: [row.title, row.artist, row.album],
      grams: (row.titleGrams, row.otherGrams))
    return isNew
  }

  /// Binds the 19 columns `insertTrack` and `updateTrack` share, in their order.
  private func bindTrack(
    _ row: LocalTrackRow, artistID: Int64?, albumID: Int64?, now: Double,
    to statement: BoundStatement
  ) {
    statement.bind(1, row.file.size)
    statement.bind(2, row.file.mtime)
    statement.bind(3, row.title)
    statement.bind(4, row.titleKey)
    statement.bind(5, row.artist)
    statement.bind(6, row.album)
    statement.bind(7, row.albumArtist)
    statement.bind(8, artistID)
    statement.bind(9, albumID)
    statement.bind(10, row.trackNumber)
    statement.bind(11, row.year)
    statement.bind(12, row.duration)
    statement.bind(13, row.file.hasLyrics)
    statement.bind(14, row.file.lyricsPath)
    statement.bind(15, now)
    statement.bind(16, row.titleGrams)
    statement.bind(17, row.otherGrams)
    statement.bind(18, row.isrc)
    statement.bind(19, row.discNumber)
  }

  /// Deletes the tracks at `paths` (and any failure notes for them).
  ///
  /// Here and below, a row's full-text entries go first: the trigram tables read the text
  /// they delete from the row itself.
  static func remove(paths: [String], in db: Database) throws {
    let find = try db.cachedStatement(sql: "SELECT id FROM local_tracks WHERE path = ?")
    let track = try db.cachedStatement(sql: "DELETE FROM local_tracks WHERE id = ?")
    let failure = try db.cachedStatement(sql: "DELETE FROM local_scan_failures WHERE path = ?")
    for path in paths {
      if let id = try Int64.fetchOne(find, arguments: [path]) {
        try LocalSearchTable.tracks.remove(rowID: id, in: db)
        try track.execute(arguments: [id])
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
      try LocalSearchTable.albums.remove(rowID: id, in: db)
      try db.execute(sql: "DELETE FROM local_albums WHERE id = ?", arguments: [id])
    }
    let artists = try Int64.fetchAll(
      db,
      sql: """
        SELECT id FROM local_artists r
        WHERE NOT EXISTS (SELECT 1 FROM local_tracks t WHERE t.artist_id = r.id)
          AND NOT EXISTS (SELECT 1 FROM local_albums a WHERE a.artist_id = r.id)
        """)
    for id in artists {
      try LocalSearchTable.artists.remove(rowID: id, in: db)
      try db.execute(sql: "DELETE FROM local_artists WHERE id = ?", arguments: [id])
    }
  }

  // MARK: - Artists and albums

  private mutating func artistID(named name: String, key: String, with statements: Statements)
    throws -> Int64
  {
    if let id = artistIDs[key] { return id }
    let id: Int64
    if !insertsFirst, let found = try find(key, with: statements.findArtist) {
      id = found
    } else {
      let grams = CJKGrams.grams([name])
      statements.insertArtist.bind(1, key)
      statements.insertArtist.bind(2, name)
      statements.insertArtist.bind(3, grams)
      try statements.insertArtist.run()
      if statements.db.changesCount == 1 {
        id = statements.db.lastInsertedRowID
        try statements.artists.write(rowID: id, values: [name], grams: (grams, nil))
      } else {
        id = try found(key, with: statements.findArtist)
      }
    }
    artistIDs[key] = id
    return id
  }

  /// The ID of the row `find` (a lookup by key) gives for `key`, if any.
  private func find(_ key: String, with find: BoundStatement) throws -> Int64? {
    find.bind(1, key)
    return try find.run()
  }

  /// The ID of the row an insert just clashed with.
  private func found(_ key: String, with find: BoundStatement) throws -> Int64 {
    guard let id = try self.find(key, with: find) else {
      throw LibraryStoreError.database("\(key) vanished from the index mid-scan")
    }
    return id
  }

  private mutating func albumID(for row: LocalTrackRow, with statements: Statements) throws
    -> Int64
  {
    guard let title = row.album, let key = row.albumKey else {
      throw LibraryStoreError.database("\(row.file.path): an album without its key")
    }
    if let known = albumIDs[key] {
      try raiseYear(of: known, to: row.year, with: statements)
      return known
    }
    let id: Int64
    if !insertsFirst, let found = try find(key, with: statements.findAlbum) {
      id = found
      try raiseYear(of: id, to: row.year, with: statements)
    } else {
      let ownerID = try row.owner.map {
        try artistID(named: $0, key: row.ownerKey ?? LocalText.key($0), with: statements)
      }
      let insert = statements.insertAlbum
      insert.bind(1, key)
      insert.bind(2, title)
      insert.bind(3, row.albumTitleKey ?? LocalText.key(title))
      insert.bind(4, row.owner)
      insert.bind(5, ownerID)
      insert.bind(6, row.year)
      insert.bind(7, row.albumTitleGrams)
      insert.bind(8, row.ownerGrams)
      try insert.run()
      if statements.db.changesCount == 1 {
        id = statements.db.lastInsertedRowID
        albumYears[id] = row.year ?? Int.min
        try statements.albums.write(
          rowID: id, values: [title, row.owner], grams: (row.albumTitleGrams, row.ownerGrams))
      } else {
        id = try found(key, with: statements.findAlbum)
        try raiseYear(of: id, to: row.year, with: statements)
      }
    }
    albumIDs[key] = id
    return id
  }

  /// An album's year is its newest track's (remembered, so most tracks cost no write).
  private mutating func raiseYear(of album: Int64, to year: Int?, with statements: Statements)
    throws
  {
    guard let year, year > albumYears[album] ?? Int.min else { return }
    albumYears[album] = year
    statements.raiseYear.bind(1, year)
    statements.raiseYear.bind(2, album)
    statements.raiseYear.bind(3, year)
    try statements.raiseYear.run()
  }

  // MARK: - Statements

  /// The statements a batch of upserts runs, prepared once per transaction.
  ///
  /// New rows reach the full-text tables in ``flush()``, which the transaction must run last.
  struct Statements {
    let db: Database
    let insertTrack: BoundStatement
    let findTrack: BoundStatement
    let updateTrack: BoundStatement
    let findArtist: BoundStatement
    let insertArtist: BoundStatement
    let findAlbum: BoundStatement
    let insertAlbum: BoundStatement
    let raiseYear: BoundStatement
    let tracks: LocalSearchTable.Writer
    let albums: LocalSearchTable.Writer
    let artists: LocalSearchTable.Writer

    /// Prepares (or takes from the connection's cache) every statement on `db`.
    init(_ db: Database) throws {
      self.db = db
      insertTrack = try BoundStatement(
        db,
        sql: """
          INSERT INTO local_tracks (size, mtime, title, title_key, artist, album, album_artist,
            artist_id, album_id, track_number, year, duration, has_lrc, lyrics_path,
            updated_at, title_grams, other_grams, isrc, disc_number, added_at, path)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (path) DO NOTHING
          """)
      findTrack = try BoundStatement(db, sql: "SELECT id FROM local_tracks WHERE path = ?")
      updateTrack = try BoundStatement(
        db,
        sql: """
          UPDATE local_tracks SET size = ?, mtime = ?, title = ?, title_key = ?, artist = ?,
            album = ?, album_artist = ?, artist_id = ?, album_id = ?, track_number = ?, year = ?,
            duration = ?, has_lrc = ?, lyrics_path = ?, updated_at = ?, title_grams = ?,
            other_grams = ?, isrc = ?, disc_number = ?
          WHERE id = ?
          """)
      findArtist = try BoundStatement(db, sql: "SELECT id FROM local_artists WHERE key = ?")
      insertArtist = try BoundStatement(
        db,
        sql: """
          INSERT INTO local_artists (key, name, title_grams) VALUES (?, ?, ?)
          ON CONFLICT (key) DO NOTHING
          """)
      findAlbum = try BoundStatement(db, sql: "SELECT id FROM local_albums WHERE key = ?")
      insertAlbum = try BoundStatement(
        db,
        sql: """
          INSERT INTO local_albums (key, title, title_key, artist_name, artist_id, year,
            title_grams, other_grams)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (key) DO NOTHING
          """)
      raiseYear = try BoundStatement(
        db, sql: "UPDATE local_albums SET year = ? WHERE id = ? AND (year IS NULL OR year < ?)")
      tracks = try LocalSearchTable.tracks.writer(db)
      albums = try LocalSearchTable.albums.writer(db)
      artists = try LocalSearchTable.artists.writer(db)
    }

    /// Indexes the rows this transaction added in the full-text tables; call it before the
    /// transaction commits, and before rows are deleted by other means.
    func flush() throws {
      try tracks.flush()
      try albums.flush()
      try artists.flush()
    }
  }
}
