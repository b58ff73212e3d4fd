import GRDB

/// The local folder index inside the library file (migration `v5`).
///
/// `local_tracks` holds one row per MP3 file; artists and albums get their own rows so the
/// Library pane can browse them without grouping every track. Each of the three tables has two
/// full-text indexes (row IDs shared with the table), written by ``LocalLibraryIndex``:
/// - `…_words` (`unicode61`, diacritics removed) for whole words and prefixes (`lov*`, `사랑*`),
///   plus a `grams` column holding the one- and two-character pieces of Korean, Japanese and
///   Chinese text (``CJKGrams``) for short queries inside words;
/// - `…_grams` (`trigram`) for substrings of three characters or more inside words.
///
/// Migration `v6` splits `grams` into `title_grams` and `other_grams`, so short Korean and
/// Japanese queries can rank title matches first. Migration `v7` stores the grams on the rows
/// and makes both full-text tables read their text from there (external content).
enum LocalLibrarySchema {
  /// Creates the tables, indexes and full-text tables as migration `v5` made them, or with
  /// `latest`, as migration `v7` leaves them (for a new library file).
  static func create(_ db: Database, latest: Bool = false) throws {
    // v7 added these to each searchable table.
    let grams = latest ? ",\n  title_grams TEXT,\n  other_grams TEXT" : ""
    try db.execute(
      sql: """
        CREATE TABLE local_folders (
          path TEXT PRIMARY KEY NOT NULL,
          added_at REAL NOT NULL,
          last_scan_at REAL
        );
        CREATE TABLE local_artists (
          id INTEGER PRIMARY KEY,
          key TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL\(grams)
        );
        CREATE TABLE local_albums (
          id INTEGER PRIMARY KEY,
          key TEXT NOT NULL UNIQUE,
          title TEXT NOT NULL,
          title_key TEXT NOT NULL,
          artist_name TEXT,
          artist_id INTEGER REFERENCES local_artists(id),
          year INTEGER\(grams)
        );
        CREATE INDEX local_albums_artist ON local_albums(artist_id);
        CREATE INDEX local_albums_title ON local_albums(title_key);
        CREATE TABLE local_tracks (
          id INTEGER PRIMARY KEY,
          path TEXT NOT NULL UNIQUE,
          size INTEGER NOT NULL,
          mtime INTEGER NOT NULL,
          title TEXT NOT NULL,
          title_key TEXT NOT NULL,
          artist TEXT,
          album TEXT,
          album_artist TEXT,
          artist_id INTEGER REFERENCES local_artists(id),
          album_id INTEGER REFERENCES local_albums(id),
          track_number INTEGER,
          year INTEGER,
          duration REAL,
          has_lrc INTEGER NOT NULL DEFAULT 0,
          lyrics_path TEXT,
          added_at REAL NOT NULL,
          updated_at REAL NOT NULL\(grams)
        );
        CREATE INDEX local_tracks_title ON local_tracks(title_key);
        CREATE INDEX local_tracks_album ON local_tracks(album_id, track_number);
        CREATE INDEX local_tracks_artist ON local_tracks(artist_id);
        CREATE INDEX local_tracks_added ON local_tracks(added_at);
        CREATE TABLE local_scan_failures (
          path TEXT PRIMARY KEY NOT NULL,
          size INTEGER NOT NULL,
          mtime INTEGER NOT NULL,
          reason TEXT NOT NULL
        );
        """)
    if latest {
      for table in [LocalSearchTable.tracks, .albums, .artists] { try createSearch(table, db) }
    } else {
      try createSearch(prefix: "local_track", columns: ["title", "artist", "album"], db)
      try createSearch(prefix: "local_album", columns: ["title", "artist_name"], db)
      try createSearch(prefix: "local_artist", columns: ["name"], db)
    }
  }

  /// The indexes on `local_tracks` besides its paths, as migration `v5` created them: the
  /// Library pane's lists and the title tiers of search use them.
  static let trackIndexes = [
    ("local_tracks_title", "local_tracks(title_key)"),
    ("local_tracks_album", "local_tracks(album_id, track_number)"),
    ("local_tracks_artist", "local_tracks(artist_id)"),
    ("local_tracks_added", "local_tracks(added_at)"),
  ]

  /// Drops ``trackIndexes`` when `local_tracks` has no rows; returns whether it did.
  ///
  /// A first scan builds them after its rows (``createTrackIndexes(_:)``), which costs less
  /// than keeping four indexes in order through 10,000 inserts.
  static func dropTrackIndexesWhenEmpty(_ db: Database) throws -> Bool {
    guard try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM local_tracks)")! else {
      return false
    }
    for (name, _) in trackIndexes { try db.execute(sql: "DROP INDEX IF EXISTS \(name)") }
    return true
  }

  /// Creates whichever of ``trackIndexes`` are missing.
  static func createTrackIndexes(_ db: Database) throws {
    for (name, target) in trackIndexes {
      try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(name) ON \(target)")
    }
  }

  /// Whether all of ``trackIndexes`` exist (a scan that dropped them may have been killed).
  static func hasTrackIndexes(_ db: Database) throws -> Bool {
    let names = trackIndexes.map { "'\($0.0)'" }.joined(separator: ", ")
    let count = try Int.fetchOne(
      db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name IN (\(names))")
    return count == trackIndexes.count
  }

  /// Creates `<prefix>_words` over `columns` and `grams`, and `<prefix>_grams` over `columns`.
  ///
  /// ``LocalLibraryIndex`` writes them next to each row. Triggers would be simpler, but FTS5
  /// flushes its pending terms at every statement savepoint a trigger opens, which made a scan
  /// three times slower.
  private static func createSearch(prefix: String, columns: [String], _ db: Database) throws {
    let words = (columns + ["grams"]).joined(separator: ", ")
    try db.execute(
      sql: """
        CREATE VIRTUAL TABLE \(prefix)_words USING fts5(\(words),
          tokenize = 'unicode61 remove_diacritics 2');
        CREATE VIRTUAL TABLE \(prefix)_grams USING fts5(\(columns.joined(separator: ", ")),
          tokenize = 'trigram');
        """)
  }

  /// v6: rebuilds each `_words` table with the grams split by column, from the rows themselves.
  static func splitGrams(_ db: Database) throws {
    let sources: [(LocalSearchTable, String)] = [
      (.tracks, "SELECT id, title, artist, album FROM local_tracks"),
      (.albums, "SELECT id, title, artist_name FROM local_albums"),
      (.artists, "SELECT id, name FROM local_artists"),
    ]
    for (table, select) in sources {
      let columns = table.columns.joined(separator: ", ")
      try db.execute(
        sql: """
          DROP TABLE \(table.words);
          CREATE VIRTUAL TABLE \(table.words) USING fts5(\(columns), title_grams, other_grams,
            tokenize = 'unicode61 remove_diacritics 2');
          """)
      let rows = try Row.fetchCursor(db, sql: select)
      while let row = try rows.next() {
        let values: [String?] = (1...table.columns.count).map { row[$0] }
        try table.writeWords(rowID: row[0], values: values, in: db)
      }
    }
  }

  /// v7: both full-text tables of each table read their text from its rows (external
  /// content), and the trigram tables keep no column sizes.
  ///
  /// The rows gain `title_grams` and `other_grams` (copied from the word tables), so each
  /// title, artist and album is written once instead of three times; no search tier ranks
  /// trigram matches, so their sizes were never read. Because FTS5 reads an external-content
  /// row's old text to delete it, ``LocalSearchTable/Writer/remove(rowID:)`` must run before
  /// the row changes or goes.
  static func externalContent(_ db: Database) throws {
    for table in [LocalSearchTable.tracks, .albums, .artists] {
      try db.execute(
        sql: """
          ALTER TABLE \(table.table) ADD COLUMN title_grams TEXT;
          ALTER TABLE \(table.table) ADD COLUMN other_grams TEXT;
          UPDATE \(table.table) SET (title_grams, other_grams) = (
            SELECT w.title_grams, w.other_grams FROM \(table.words) w
            WHERE w.rowid = \(table.table).id);
          DROP TABLE \(table.words);
          DROP TABLE \(table.trigrams);
          """)
      try createSearch(table, db)
      try db.execute(
        sql: """
          INSERT INTO \(table.words) (\(table.words)) VALUES ('rebuild');
          INSERT INTO \(table.trigrams) (\(table.trigrams)) VALUES ('rebuild');
          """)
    }
  }

  /// Creates `table`'s two full-text tables as `v7` defines them, reading from its rows.
  private static func createSearch(_ table: LocalSearchTable, _ db: Database) throws {
    let columns = table.columns.joined(separator: ", ")
    try db.execute(
      sql: """
        CREATE VIRTUAL TABLE \(table.words) USING fts5(\(columns), title_grams, other_grams,
          content = '\(table.table)', content_rowid = 'id',
          tokenize = 'unicode61 remove_diacritics 2');
        CREATE VIRTUAL TABLE \(table.trigrams) USING fts5(\(columns),
          content = '\(table.table)', content_rowid = 'id', columnsize = 0,
          tokenize = 'trigram');
        """)
  }
}
