import Foundation
import GRDB
import RefrainCore
import RefrainTags
import XCTest

@testable import RefrainCatalog

/// The library file's migrations: from nothing, and from every earlier version, data intact.
final class LibraryMigrationTests: XCTestCase {
  // MARK: - Fresh files

  func testEmptyFileMigratesToTheLatestVersion() throws {
    let url = try LibraryTestSupport.temporaryFolder(self).appendingPathComponent(
      "new/library.sqlite")
    let store = try LibraryStore(fileURL: url)
    XCTAssertEqual(try store.appliedMigrations(), LibrarySchema.versions)
    XCTAssertTrue(try store.checkIntegrity())
    XCTAssertTrue(FileManager.default.fileExists(atPath: url.path))
    let journal = try store.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
    XCTAssertEqual(journal, "wal")
    let synchronous = try store.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
    XCTAssertEqual(synchronous, 1, "NORMAL")
  }

  func testANewFileGetsTheSameSchemaAsOneMigratedStepByStep() throws {
    let folder = try LibraryTestSupport.temporaryFolder(self)
    // A new file takes the one-transaction path; naming the last migration takes every step.
    let created = try LibraryStore(fileURL: folder.appendingPathComponent("new.sqlite"))
    let migrated = try LibraryStore(
      fileURL: folder.appendingPathComponent("migrated.sqlite"), durability: .normal,
      migratingUpTo: LibrarySchema.versions.last!)
    let expected = try schema(of: migrated)
    XCTAssertGreaterThan(expected.count, 40, "tables, columns, indexes and full-text tables")
    let actual = try schema(of: created)
    XCTAssertEqual(actual.filter { !expected.contains($0) }, [], "only in the new file")
    XCTAssertEqual(expected.filter { !actual.contains($0) }, [], "only in the migrated file")
    XCTAssertEqual(try created.appliedMigrations(), LibrarySchema.versions)
    XCTAssertTrue(try created.checkIntegrity())
  }

  /// Every table's columns, every index's columns, the full-text tables' definitions and
  /// settings, and the applied migrations, one line each, sorted.
  private func schema(of store: LibraryStore) throws -> [String] {
    try store.read { db in
      var lines: [String] = []
      let objects = try Row.fetchAll(
        db,
        sql: """
          SELECT type, name, tbl_name, sql FROM sqlite_master
          WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY name
          """)
      for object in objects {
        let (type, name, table): (String, String, String) = (
          object["type"], object["name"], object["tbl_name"]
        )
        let sql: String? = object["sql"]
        if sql?.hasPrefix("CREATE VIRTUAL TABLE") == true {
          // Both paths create the full-text tables with the same statement.
          lines.append(
            "\(name): " + sql!.split(whereSeparator: \.isWhitespace).joined(separator: " "))
          continue
        }
        // ALTER TABLE rewrites a table's SQL text, so compare what SQLite reports instead.
        let pragma = type == "index" ? "index_xinfo" : "table_xinfo"
        for row in try Row.fetchAll(db, sql: "PRAGMA \(pragma)('\(name)')") {
          lines.append("\(type) \(name) on \(table): \(row)")
        }
        if type == "index" {
          let unique = try Row.fetchOne(
            db, sql: "SELECT \"unique\" FROM pragma_index_list(?) WHERE name = ?",
            arguments: [table, name])
          lines.append("index \(name) unique: \(unique.map { "\($0)" } ?? "-")")
        }
        if type == "table", name.hasSuffix("_config") {
          for row in try Row.fetchAll(db, sql: "SELECT * FROM \(name) ORDER BY k") {
            lines.append("\(name) holds \(row)")
          }
        }
      }
      for id in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") {
        lines.append("applied \(id)")
      }
      return lines.sorted()
    }
  }

  func testFullDurabilitySetsSynchronousFull() throws {
    let url = try LibraryTestSupport.temporaryFolder(self).appendingPathComponent("library.sqlite")
    let store = try LibraryStore(fileURL: url, durability: .full)
    let synchronous = try store.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
    XCTAssertEqual(synchronous, 2, "FULL")
  }

  func testReopeningTheLatestFileChangesNothing() throws {
    let url = try LibraryTestSupport.temporaryFolder(self).appendingPathComponent("library.sqlite")
    do {
      let store = try LibraryStore(fileURL: url)
      try store.addRecentSearch("moon")
    }
    let again = try LibraryStore(fileURL: url)
    XCTAssertEqual(try again.recentSearches(), ["moon"])
    XCTAssertEqual(try again.appliedMigrations(), LibrarySchema.versions)
  }

  func testAFileThatIsNotSQLiteFailsWithAClearMessage() throws {
    let url = try LibraryTestSupport.temporaryFolder(self).appendingPathComponent("library.sqlite")
    try Data(repeating: 0x41, count: 4096).write(to: url)
    XCTAssertThrowsError(try LibraryStore(fileURL: url)) { error in
      guard case LibraryStoreError.cannotOpen(let path, _) = error else {
        return XCTFail("unexpected \(error)")
      }
      XCTAssertEqual(path, url.path)
    }
  }

  // MARK: - Earlier versions

  func testEveryEarlierVersionMigratesWithItsDataIntact() throws {
    for (index, version) in LibrarySchema.versions.enumerated().dropLast() {
      let url = try LibraryTestSupport.temporaryFolder(self).appendingPathComponent(
        "library.sqlite")
      do {
        let old = try LibraryStore(fileURL: url, durability: .normal, migratingUpTo: version)
        XCTAssertEqual(try old.appliedMigrations(), Array(LibrarySchema.versions[...index]))
        try fill(old, upTo: index + 1)
      }
      let store = try LibraryStore(fileURL: url)
      XCTAssertEqual(try store.appliedMigrations(), LibrarySchema.versions, "from \(version)")
      try verify(store, upTo: index + 1, from: version)
      XCTAssertTrue(try store.checkIntegrity())
    }
  }

  func testAFileFromBeforeV14LosesTheLoginsInItsStoredURLs() throws {
    let url = try LibraryTestSupport.temporaryFolder(self).appendingPathComponent("lib.sqlite")
    let login = "http://127.0.0.1:4040/rest/stream.view?u=ann&t=48d84223&s=25e8587a&id=7"
    var song = LibraryTestSupport.track("7", provider: "subsonic")
    song.streamURL = URL(string: login)
    song.coverURL = URL(string: "http://127.0.0.1:4040/rest/getCoverArt.view?u=ann&p=enc:6869&id=7")
    do {
      let old = try LibraryStore(fileURL: url, durability: .normal, migratingUpTo: "v13")
      try old.write { db in
        // As Refrain before v14 stored them: the URLs as the server was asked.
        try db.execute(
          sql: """
            INSERT INTO stored_tracks (provider, id, title, json, updated_at)
            VALUES ('subsonic', '7', 'Seven', ?, 0)
            """, arguments: [LibraryStore.encodeJSON(song)])
        try db.execute(
          sql: """
            INSERT INTO last_session (id, queue_json, current_index, position, volume, shuffle,
              repeat_mode, open_pane, saved_at) VALUES (1, ?, 0, 3, 80, 0, 'off', 'player', 0)
            """, arguments: [LibraryStore.encodeJSON([song])])
      }
    }
    do {
      let store = try LibraryStore(fileURL: url)
      let stored = try XCTUnwrap(try store.storedTrack(provider: "subsonic", id: "7"))
      XCTAssertNil(stored.streamURL)
      XCTAssertNil(stored.coverURL)
      let saved = try XCTUnwrap(try store.lastSession())
      XCTAssertEqual(saved.queue.map(\.id), ["7"])
      XCTAssertNil(saved.queue[0].streamURL)
      // And what is stored from now on never holds a login either.
      try store.likeTrack(song)
      XCTAssertNil(try store.storedTrack(provider: "subsonic", id: "7")?.streamURL)
    }
    for file in [url.path, url.path + "-wal"] where FileManager.default.fileExists(atPath: file) {
      let bytes = String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self)
      XCTAssertFalse(bytes.contains("48d84223"), "the token is still in \(file)")
    }
  }

  /// Writes data into every table that exists at schema version `level` (1-based).
  private func fill(_ store: LibraryStore, upTo level: Int) throws {
    let playlist = try store.createPlaylist(named: "Road trip")
    try store.addTracks(
      [LibraryTestSupport.track("1"), LibraryTestSupport.track("2", provider: "deezer")],
      toPlaylist: playlist.id)
    try store.likeTrack(LibraryTestSupport.track("3", provider: "local"))
    try store.saveAlbum(AlbumSummary(id: "al", provider: "demo", title: "Saved", artist: "Someone"))
    if level >= 2 {
      try store.addRecentSearch("사랑")
      try store.recordPlay(LibraryTestSupport.track("1"), secondsPlayed: 12)
    }
    if level >= 3 {
      try store.lyrics.cacheLyrics("[00:01.00]hello", for: "artist|title|30", source: "lrclib")
      try store.setLyricOffset(-250, for: "demo:1")
    }
    if level >= 10 {
      // Today's index, as today's scanner writes it.
      try LocalLibraryScanner(store: store, tagReader: ID3TagReader())
        .importTracks([
          (path: "/music/love.mp3", info: LocalTrackInfo(title: "사랑해요", artist: "아이유"))
        ])
    } else if level >= 7 {
      // The v7 index, as a v7, v8 or v9 Refrain wrote it (external content; v9's ISRC and
      // v10's disc number left empty).
      try store.write { db in
        try db.execute(
          sql: """
            INSERT INTO local_artists (id, key, name, title_grams)
            VALUES (7, '아이유', '아이유', '아 이 유 아이 이유');
            INSERT INTO local_tracks (id, path, size, mtime, title, title_key, artist, artist_id,
              has_lrc, added_at, updated_at, title_grams, other_grams)
            VALUES (9, '/music/love.mp3', 1, 1, '사랑해요', '사랑해요', '아이유', 7, 0, 0, 0,
              '사 랑 해 요 사랑 랑해 해요', '아 이 유 아이 이유');
            """)
        for table in [LocalSearchTable.tracks, .artists] {
          for fts in [table.words, table.trigrams] {
            try db.execute(sql: "INSERT INTO \(fts) (\(fts)) VALUES ('rebuild')")
          }
        }
      }
    } else if level >= 6 {
      // The v6 index, as a v6 Refrain wrote it: grams split by column, trigram tables with
      // their own copy of the text.
      try store.write { db in
        try db.execute(
          sql: """
            INSERT INTO local_artists (id, key, name) VALUES (7, '아이유', '아이유');
            INSERT INTO local_artist_words (rowid, name, title_grams, other_grams)
            VALUES (7, '아이유', '아 이 유 아이 이유', NULL);
            INSERT INTO local_artist_grams (rowid, name) VALUES (7, '아이유');
            INSERT INTO local_tracks (id, path, size, mtime, title, title_key, artist, artist_id,
              has_lrc, added_at, updated_at)
            VALUES (9, '/music/love.mp3', 1, 1, '사랑해요', '사랑해요', '아이유', 7, 0, 0, 0);
            INSERT INTO local_track_words (rowid, title, artist, album, title_grams, other_grams)
            VALUES (9, '사랑해요', '아이유', NULL, '사 랑 해 요 사랑 랑해 해요', '아 이 유 아이 이유');
            INSERT INTO local_track_grams (rowid, title, artist, album)
            VALUES (9, '사랑해요', '아이유', NULL);
            """)
      }
    } else if level >= 5 {
      // The v5 index, as a v5 Refrain wrote it: one `grams` column for all CJK pieces.
      try store.write { db in
        try db.execute(
          sql: """
            INSERT INTO local_artists (id, key, name) VALUES (7, '아이유', '아이유');
            INSERT INTO local_artist_words (rowid, name, grams) VALUES (7, '아이유', '아 이 유 아이 이유');
            INSERT INTO local_artist_grams (rowid, name) VALUES (7, '아이유');
            INSERT INTO local_tracks (id, path, size, mtime, title, title_key, artist, artist_id,
              has_lrc, added_at, updated_at)
            VALUES (9, '/music/love.mp3', 1, 1, '사랑해요', '사랑해요', '아이유', 7, 0, 0, 0);
            INSERT INTO local_track_words (rowid, title, artist, album, grams)
            VALUES (9, '사랑해요', '아이유', NULL, '사 랑 해 요 사랑 랑해 해요 아 이 유 아이 이유');
            INSERT INTO local_track_grams (rowid, title, artist, album)
            VALUES (9, '사랑해요', '아이유', NULL);
            """)
      }
    }
    if level >= 8 {
      try store.enqueueListen(
        Listen(
          track: Track(argument: "/music/love.mp3"), listenedAt: Date(timeIntervalSince1970: 1),
          duration: 200, playedSeconds: 100), services: [.listenBrainz])
    }
    if level >= 4 {
      try store.saveSession(
        SavedSession(
          queue: [LibraryTestSupport.track("1")], currentIndex: 0, position: 4.5, volume: 70,
          shuffle: true, repeatMode: .all, openPane: "lyrics"))
    }
  }

  /// Checks that what ``fill(_:upTo:)`` wrote is still there.
  private func verify(_ store: LibraryStore, upTo level: Int, from version: String) throws {
    let message = "migrated from \(version)"
    let playlists = try store.playlists()
    XCTAssertEqual(playlists.map(\.name), ["Road trip"], message)
    let entries = try store.entries(inPlaylist: try XCTUnwrap(playlists.first).id)
    XCTAssertEqual(
      entries.map(\.track),
      [
        LibraryTestSupport.track("1"), LibraryTestSupport.track("2", provider: "deezer"),
      ], message)
    XCTAssertEqual(try store.likedTracks().map(\.id), ["3"], message)
    XCTAssertEqual(try store.savedAlbums().map(\.title), ["Saved"], message)
    if level >= 2 {
      XCTAssertEqual(try store.recentSearches(), ["사랑"], message)
      XCTAssertEqual(try store.playHistory().map(\.secondsPlayed), [12], message)
    }
    if level >= 3 {
      XCTAssertEqual(try store.lyrics.cachedLyrics(for: "artist|title|30")?.text, "[00:01.00]hello")
      XCTAssertEqual(try store.lyricOffset(for: "demo:1"), -250, message)
    }
    if level >= 4 {
      XCTAssertEqual(try store.lastSession()?.openPane, "lyrics", message)
    }
    // The scrobble queue (v8) works on a migrated file.
    XCTAssertEqual(
      try store.enqueueListen(
        Listen(
          track: Track(argument: "/music/love.mp3"), listenedAt: Date(timeIntervalSince1970: 1),
          duration: 200, playedSeconds: 100), services: [.listenBrainz]), level >= 8 ? 0 : 1,
      message)
    let provider = LocalCatalogProvider(store: store)
    if level >= 5 {
      XCTAssertEqual(try provider.searchNow("랑", kind: .track).items.map(\.title), ["사랑해요"])
      XCTAssertEqual(try provider.searchNow("사랑", kind: .track).items.map(\.title), ["사랑해요"])
      XCTAssertEqual(try provider.searchNow("이유", kind: .artist).items.map(\.title), ["아이유"])
      // v7 rebuilt every full-text table over its rows: they must agree.
      try LibraryTestSupport.checkFullText(store)
      // A substring of three characters: the trigram table, rebuilt over its rows by v7.
      XCTAssertEqual(try provider.searchNow("랑해요", kind: .track).items.map(\.title), ["사랑해요"])
    }
    // The newest tables work on a migrated file.
    try LocalLibraryScanner(store: store, tagReader: ID3TagReader())
      .importTracks([(path: "/music/a.mp3", info: LocalTrackInfo(title: "Moonlight"))])
    XCTAssertEqual(try provider.searchNow("moon", kind: .track).items.map(\.title), ["Moonlight"])
  }

  // MARK: - Location

  func testTheDefaultFileFollowsXDGDataHome() {
    let url = LibraryStore.defaultFileURL(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/h"])
    XCTAssertEqual(url.path, "/x/data/refrain/library.sqlite")
  }

  func testARelativeXDGDataHomeIsIgnored() {
    let url = LibraryStore.defaultFileURL(environment: ["XDG_DATA_HOME": "data", "HOME": "/h"])
    XCTAssertEqual(url.path, "/h/.local/share/refrain/library.sqlite")
  }

  func testOpenDefaultCreatesTheFolder() throws {
    let folder = try LibraryTestSupport.temporaryFolder(self)
    let store = try LibraryStore.openDefault(environment: ["XDG_DATA_HOME": folder.path])
    XCTAssertEqual(store.fileURL.path, folder.path + "/refrain/library.sqlite")
    XCTAssertTrue(FileManager.default.fileExists(atPath: store.fileURL.path))
  }
}
