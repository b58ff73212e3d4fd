import Foundation
import GRDB
import RefrainCore

/// The library file's schema as a list of versioned migrations.
///
/// A migration, once released, never changes: a new Refrain adds `v6`, `v7`, … and every
/// older file is brought forward step by step. Tests open a file migrated to each earlier
/// version, fill it, then migrate it to the latest and check that nothing was lost.
enum LibrarySchema {
  /// The migration identifiers, oldest first.
  static let versions = [
    "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v13", "v14",
  ]

  /// The migrator that brings any earlier file to the latest schema.
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in try createCollection(db) }
    migrator.registerMigration("v2") { db in try createHistory(db) }
    migrator.registerMigration("v3") { db in try createLyrics(db) }
    migrator.registerMigration("v4") { db in try createSession(db) }
    migrator.registerMigration("v5") { db in try LocalLibrarySchema.create(db) }
    migrator.registerMigration("v6") { db in try LocalLibrarySchema.splitGrams(db) }
    migrator.registerMigration("v7") { db in try LocalLibrarySchema.externalContent(db) }
    migrator.registerMigration("v8") { db in try createScrobbleQueue(db) }
    migrator.registerMigration("v9") { db in try createSpotify(db) }
    migrator.registerMigration("v10") { db in try createReplayGain(db) }
    migrator.registerMigration("v11") { db in try createRadioStations(db) }
    migrator.registerMigration("v13") { db in try matchSpotifyOnServer(db) }
    migrator.registerMigration("v14") { db in try dropStoredCredentials(db) }
    return migrator
  }

  /// Creates the latest schema in one transaction when the file is new (it has no tables),
  /// and records every migration as applied.
  ///
  /// It runs the same statements as the migrations, but creates the local index as `v7`
  /// leaves it rather than building and rebuilding it in three steps: a new library opens
  /// in half the time. `LibrarySchemaTests` checks that both paths give the same schema.
  static func createLatestIfNew(_ db: Database) throws {
    let isNew = { try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0 }
    guard try isNew() else { return }
    // The write lock first: another Refrain may be creating the same file.
    try db.inTransaction(.immediate) {
      guard try isNew() else { return .commit }
      try createCollection(db)
      try createHistory(db)
      try createLyrics(db)
      try createSession(db)
      try LocalLibrarySchema.create(db, latest: true)
      try createScrobbleQueue(db)
      try createSpotify(db)
      try createReplayGain(db)
      try createRadioStations(db)
      try matchSpotifyOnServer(db)
      // The table GRDB's migrator keeps its applied migrations in.
      try db.execute(
        sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
      for version in versions {
        try db.execute(
          sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [version])
      }
      return .commit
    }
  }

  /// v11: the user's radio stations (`refrain radio add`), each a name and a stream or
  /// playlist URL; names are unique whatever their case.
  private static func createRadioStations(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE radio_stations (
          name TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
          url TEXT NOT NULL,
          added_at REAL NOT NULL
        )
        """)
  }

  /// v13: an imported Spotify track may play from the user's Subsonic server: the match's
  /// kind gains `subsonic`, with the server's song ID in `server_id`. SQLite cannot change
  /// a CHECK in place, so the table is rebuilt, keeping every match.
  /// Rewrites every stored track and the saved queue without URLs that carry a login:
  /// Refrain before v14 kept Subsonic stream and cover URLs with their token and salt.
  private static func dropStoredCredentials(_ db: Database) throws {
    // What is rewritten is overwritten in the file too, not left in a free page.
    try db.execute(sql: "PRAGMA secure_delete = ON")
    let rows = try Row.fetchAll(db, sql: "SELECT provider, id, json FROM stored_tracks")
    for row in rows {
      let json: String = row["json"]
      guard let track = LibraryStore.decodeTrack(json) else { continue }
      let kept = LibraryStore.encodeJSON(track.withoutCredentials)
      guard kept != LibraryStore.encodeJSON(track) else { continue }
      try db.execute(
        sql: "UPDATE stored_tracks SET json = ? WHERE provider = ? AND id = ?",
        arguments: [kept, row["provider"] as String, row["id"] as String])
    }
    if let json = try String.fetchOne(db, sql: "SELECT queue_json FROM last_session WHERE id = 1"),
      let queue = try? JSONDecoder().decode([CatalogTrack].self, from: Data(json.utf8))
    {
      try db.execute(
        sql: "UPDATE last_session SET queue_json = ? WHERE id = 1",
        arguments: [LibraryStore.encodeJSON(queue.map(\.withoutCredentials))])
    }
  }

  private static func matchSpotifyOnServer(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE spotify_matches_v13 (
          track_id TEXT PRIMARY KEY NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('local', 'subsonic', 'preview', 'none')),
          local_path TEXT,
          server_id TEXT,
          preview_id TEXT,
          preview_url TEXT,
          reason TEXT,
          checked_at REAL NOT NULL
        );
        INSERT INTO spotify_matches_v13 (track_id, kind, local_path, preview_id, preview_url,
          reason, checked_at)
          SELECT track_id, kind, local_path, preview_id, preview_url, reason, checked_at
          FROM spotify_matches;
        DROP TABLE spotify_matches;
        ALTER TABLE spotify_matches_v13 RENAME TO spotify_matches;
        """)
  }

  /// v10: ReplayGain measured by `refrain scan --replaygain`, per file, with the size and
  /// modification time it was measured at (a changed file is measured again); and each
  /// local file's disc number (`local_tracks.disc_number`). Every file's stamp is cleared,
  /// so the next scan reads each tag again and fills the disc in.
  private static func createReplayGain(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE local_tracks ADD COLUMN disc_number INTEGER;
        UPDATE local_tracks SET mtime = -1;
        CREATE TABLE replay_gain (
          path TEXT PRIMARY KEY NOT NULL,
          size INTEGER NOT NULL,
          mtime REAL NOT NULL,
          track_gain REAL NOT NULL,
          track_peak REAL NOT NULL,
          album_gain REAL,
          album_peak REAL
        )
        """)
  }

  /// v1: tracks from any provider, playlists, saved albums and liked tracks.
  private static func createCollection(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE stored_tracks (
          provider TEXT NOT NULL,
          id TEXT NOT NULL,
          title TEXT NOT NULL,
          artist TEXT,
          album TEXT,
          duration REAL,
          json TEXT NOT NULL,
          updated_at REAL NOT NULL,
          PRIMARY KEY (provider, id)
        );
        CREATE TABLE playlists (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          name TEXT NOT NULL,
          created_at REAL NOT NULL,
          updated_at REAL NOT NULL
        );
        CREATE TABLE playlist_entries (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          playlist_id INTEGER NOT NULL REFERENCES playlists(id) ON DELETE CASCADE,
          position INTEGER NOT NULL,
          provider TEXT NOT NULL,
          track_id TEXT NOT NULL,
          added_at REAL NOT NULL,
          FOREIGN KEY (provider, track_id) REFERENCES stored_tracks(provider, id)
        );
        CREATE INDEX playlist_entries_order ON playlist_entries(playlist_id, position);
        CREATE INDEX playlist_entries_track ON playlist_entries(provider, track_id);
        CREATE TABLE saved_albums (
          provider TEXT NOT NULL,
          id TEXT NOT NULL,
          title TEXT NOT NULL,
          artist TEXT,
          json TEXT NOT NULL,
          saved_at REAL NOT NULL,
          PRIMARY KEY (provider, id)
        );
        CREATE TABLE liked_tracks (
          provider TEXT NOT NULL,
          track_id TEXT NOT NULL,
          liked_at REAL NOT NULL,
          PRIMARY KEY (provider, track_id),
          FOREIGN KEY (provider, track_id) REFERENCES stored_tracks(provider, id)
        );
        CREATE INDEX liked_tracks_time ON liked_tracks(liked_at);
        """)
  }

  /// v2: recent searches and play history.
  private static func createHistory(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE recent_searches (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          query TEXT NOT NULL,
          normalized TEXT NOT NULL UNIQUE,
          searched_at REAL NOT NULL
        );
        CREATE TABLE play_history (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          provider TEXT NOT NULL,
          track_id TEXT NOT NULL,
          played_at REAL NOT NULL,
          seconds_played REAL,
          FOREIGN KEY (provider, track_id) REFERENCES stored_tracks(provider, id)
        );
        CREATE INDEX play_history_track ON play_history(provider, track_id);
        """)
  }

  /// v3: the lyrics cache and per-track lyric offsets.
  private static func createLyrics(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE lyrics_cache (
          key TEXT PRIMARY KEY NOT NULL,
          text TEXT NOT NULL,
          source TEXT,
          fetched_at REAL NOT NULL
        );
        CREATE TABLE lyric_offsets (
          track_key TEXT PRIMARY KEY NOT NULL,
          offset_ms INTEGER NOT NULL,
          updated_at REAL NOT NULL
        );
        """)
  }

  /// v4: the last session, one row, for resuming where the user left off.
  private static func createSession(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE last_session (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          queue_json TEXT NOT NULL,
          current_index INTEGER,
          position REAL NOT NULL,
          volume INTEGER NOT NULL,
          shuffle INTEGER NOT NULL,
          repeat_mode TEXT NOT NULL,
          open_pane TEXT NOT NULL,
          saved_at REAL NOT NULL
        );
        """)
  }

  /// v8: listens waiting to be sent to the scrobbling services (issue 16).
  ///
  /// One row per listen and service. The UNIQUE key makes queuing the same listen twice a
  /// no-op; `artist` and `album` are `''` when unknown, so the key never holds a NULL (which
  /// SQLite would take as distinct from every other NULL).
  private static func createScrobbleQueue(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE scrobble_queue (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          service TEXT NOT NULL,
          artist TEXT NOT NULL,
          title TEXT NOT NULL,
          album TEXT NOT NULL,
          duration REAL NOT NULL,
          track_key TEXT NOT NULL,
          listened_at INTEGER NOT NULL,
          state TEXT NOT NULL CHECK (state IN ('pending', 'sent')),
          attempts INTEGER NOT NULL DEFAULT 0,
          next_attempt_at REAL NOT NULL,
          last_error TEXT,
          UNIQUE (service, listened_at, title, artist)
        );
        CREATE INDEX scrobble_queue_due ON scrobble_queue(service, state, next_attempt_at);
        """)
  }

  /// v9: local files' ISRCs, the lyrics search, and the user's imported Spotify library
  /// (issues 18 and 19).
  ///
  /// - `local_lyric_grams`, `local_lyric_sources`: every line of the local tracks' sidecar
  ///   lyrics, for search by a phrase (``LyricSearchIndex``).
  ///
  /// - `local_tracks.isrc`: each file's TSRC tag. Every file's stamp is cleared, so the next
  ///   scan reads each tag again and fills it in.
  /// - `spotify_matches`: what plays each imported track (a local file, a preview by its
  ///   catalog ID, or nothing and why), so matching is not redone on every run.
  /// - `spotify_playlists`: which Refrain playlist each Spotify playlist became.
  /// - `spotify_album_tracks`: the track list of each saved album, in order.
  /// - `spotify_import_lists` and `spotify_import_items`: an import in progress, page by page,
  ///   so one that is killed resumes where it stopped; empty between imports.
  /// - `spotify_imports`: the summary of each finished import.
  private static func createSpotify(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE local_tracks ADD COLUMN isrc TEXT;
        CREATE INDEX local_tracks_isrc ON local_tracks(isrc) WHERE isrc IS NOT NULL;
        UPDATE local_tracks SET mtime = -1;
        CREATE VIRTUAL TABLE local_lyric_grams USING fts5(text, ms UNINDEXED,
          tokenize = 'trigram');
        CREATE TABLE local_lyric_sources (
          track_id INTEGER PRIMARY KEY NOT NULL,
          path TEXT NOT NULL,
          size INTEGER NOT NULL,
          mtime INTEGER NOT NULL
        );
        CREATE TABLE spotify_matches (
          track_id TEXT PRIMARY KEY NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('local', 'preview', 'none')),
          local_path TEXT,
          preview_id TEXT,
          preview_url TEXT,
          reason TEXT,
          checked_at REAL NOT NULL
        );
        CREATE TABLE spotify_playlists (
          spotify_id TEXT PRIMARY KEY NOT NULL,
          playlist_id INTEGER NOT NULL REFERENCES playlists(id) ON DELETE CASCADE,
          snapshot_id TEXT,
          position INTEGER NOT NULL
        );
        CREATE TABLE spotify_album_tracks (
          album_id TEXT NOT NULL,
          position INTEGER NOT NULL,
          track_id TEXT NOT NULL,
          PRIMARY KEY (album_id, position)
        );
        CREATE TABLE spotify_import_lists (
          list TEXT PRIMARY KEY NOT NULL,
          next_url TEXT,
          done INTEGER NOT NULL DEFAULT 0,
          json TEXT
        );
        CREATE TABLE spotify_import_items (
          list TEXT NOT NULL,
          position INTEGER NOT NULL,
          item_id TEXT NOT NULL,
          added_at REAL,
          json TEXT,
          PRIMARY KEY (list, position)
        );
        CREATE TABLE spotify_imports (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          finished_at REAL NOT NULL,
          summary TEXT NOT NULL
        );
        """)
  }
}
