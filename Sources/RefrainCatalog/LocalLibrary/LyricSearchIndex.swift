import Foundation
import GRDB
import RefrainCore
import RefrainTags

/// The lines of the local tracks' lyrics (their sidecars, the lyrics in their own tags, or
/// the lyrics cache's copy of lyrics fetched online for them), searchable by any phrase.
///
/// One FTS5 table with the trigram tokenizer (`local_lyric_grams`), so a phrase is found
/// inside words and in any script (Korean lyrics have no spaces where English would); each
/// row's ID is `track_id × 10,000 + line`, so a track's lines are replaced by one range
/// delete. `local_lyric_sources` remembers which source and which version of it was read,
/// so a scan reads only the lyrics that changed. Phrases shorter than three characters are
/// matched line by line instead (the trigram index needs three).
///
/// A track's lyrics come from the first source that has them, in playback's order: the
/// sidecar `.lrc`; else its embedded lyrics (``EmbeddedLyricsSource``, every format), then
/// the lyrics cache. Embedded lyrics are remembered by the audio file's size and mtime, so a
/// rescan reads a file's tags again only when it changed (or when its cached lyrics did).
enum LyricSearchIndex {
  /// How a source that is the lyrics cache is named in `local_lyric_sources.path`.
  static let cachePrefix = "cache:"
  /// How a source that is the track's own tags is named in `local_lyric_sources.path`,
  /// before the audio file's path (and the cache's key and time, when it has lyrics there).
  static let embeddedPrefix = "embedded:"

  /// The lyrics cache's keys with when each was fetched (seconds).
  private static func cachedKeys(_ db: Database) throws -> [String: Double] {
    var keys: [String: Double] = [:]
    for row in try Row.fetchAll(db, sql: "SELECT key, fetched_at FROM lyrics_cache") {
      keys[row["key"]] = row["fetched_at"]
    }
    return keys
  }

  /// Lines kept per track; a longer file's later lines are not searchable.
  static let linesPerTrack: Int64 = 10_000

  /// Where a track's lyrics are read from.
  private enum Reading {
    /// Its sidecar `.lrc`.
    case sidecar(path: String)
    /// The audio file's tags; then the lyrics cache under `cached`, when given.
    case embedded(file: String, cached: LyricsQuery?)
  }

  /// Indexes the lyrics of every scanned track whose sidecar, audio file or cached lyrics are
  /// new or changed, and forgets those of tracks that are gone; returns how many tracks were
  /// (re)read.
  @discardableResult
  static func refresh(_ store: LibraryStore) throws -> Int {
    let cache = LyricsCache(storage: LibraryLyricsCache(store: store))
    let wanted = try store.read { db -> [(Int64, String, FileStamp, Reading)] in
      let cached = try Self.cachedKeys(db)
      return try Row.fetchAll(
        db,
        sql: """
          SELECT t.id, t.path, t.size AS file_size, t.mtime AS file_mtime, t.title, t.artist,
            t.album, t.duration, t.lyrics_path, s.path AS indexed_path, s.size, s.mtime
          FROM local_tracks t LEFT JOIN local_lyric_sources s ON s.track_id = t.id
          """
      ).compactMap { row -> (Int64, String, FileStamp, Reading)? in
        let source: String
        let stamp: FileStamp
        let reading: Reading
        if let path: String = row["lyrics_path"] {
          source = path
          stamp = FileStamp.of(path: path) ?? FileStamp(size: -1, mtime: -1)
          reading = .sidecar(path: path)
        } else {
          let file: String = row["path"]
          var named = Self.embeddedPrefix + file
          var query: LyricsQuery?
          if !cached.isEmpty {
            // Lyrics fetched online for this file, read when its tags hold none.
            let asked = LyricsQuery(
              title: row["title"], artist: row["artist"], album: row["album"],
              duration: row["duration"])
            let key = LyricsCache.key(for: asked)
            if let fetched = cached[key] {
              query = asked
              named += "\n" + Self.cachePrefix + key + "@" + String(Int64(fetched * 1000))
            }
          }
          source = named
          stamp = FileStamp(size: row["file_size"], mtime: row["file_mtime"])
          reading = .embedded(file: file, cached: query)
        }
        let indexed: String? = row["indexed_path"]
        let size: Int64? = row["size"]
        let mtime: Int64? = row["mtime"]
        if indexed == source, size == stamp.size, mtime == stamp.mtime { return nil }
        return (row["id"], source, stamp, reading)
      }
    }
    for (id, source, stamp, reading) in wanted {
      var lines: [LyricLine] = []
      switch reading {
      case .sidecar(let path):
        if let data = FileManager.default.contents(atPath: path) {
          lines = LRCParser.parse(data: data).lines
        }
      case .embedded(let file, let query):
        if let found = try? EmbeddedLyricsSource.document(in: URL(fileURLWithPath: file)) {
          lines = found.lines
        }
        if lines.isEmpty, let query, case .hit(.lyrics(let document)) = cache.lookup(query) {
          lines = document.lines
        }
      }
      let synced = lines.contains { $0.ms != 0 }
      try store.write { db in
        try replace(track: id, lines: lines, synced: synced, db: db)
        try db.execute(
          sql: """
            INSERT INTO local_lyric_sources (track_id, path, size, mtime) VALUES (?, ?, ?, ?)
            ON CONFLICT (track_id) DO UPDATE SET path = excluded.path, size = excluded.size,
              mtime = excluded.mtime
            """,
          arguments: [id, source, stamp.size, stamp.mtime])
      }
    }
    try store.write { db in
      let gone = try Int64.fetchAll(
        db,
        sql: """
          SELECT s.track_id FROM local_lyric_sources s
          LEFT JOIN local_tracks t ON t.id = s.track_id WHERE t.id IS NULL
          """)
      for id in gone {
        try remove(track: id, db: db)
        try db.execute(sql: "DELETE FROM local_lyric_sources WHERE track_id = ?", arguments: [id])
      }
    }
    return wanted.count
  }

  /// Lines containing `query` (case and accents ignored), best first: a line that is the
  /// phrase, then one that starts with it, then one that contains it; ties by how short the
  /// line is, then in library order. The first 200 lines found (plus `offset`) are ranked:
  /// only the tracks of the lines shown are read. A phrase
  /// common enough to be in more lines than that is ranked among those.
  static func search(_ query: String, offset: Int, limit: Int, db: Database) throws
    -> [LyricMatch]
  {
    let phrase = query.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !phrase.isEmpty, limit > 0 else { return [] }
    let candidates = 200 + offset
    let rows: [Row]
    if phrase.count >= 3 {
      let quoted = "\"" + phrase.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      rows = try Row.fetchAll(
        db,
        sql: """
          SELECT rowid, text, ms FROM local_lyric_grams WHERE local_lyric_grams MATCH ?
          LIMIT ?
          """,
        arguments: [quoted, candidates])
    } else {
      let escaped = phrase.replacingOccurrences(of: "\\", with: "\\\\")
        .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
      rows = try Row.fetchAll(
        db,
        sql: """
          SELECT rowid, text, ms FROM local_lyric_grams WHERE text LIKE ? ESCAPE '\\'
          LIMIT ?
          """,
        arguments: ["%\(escaped)%", candidates])
    }
    let needle = fold(phrase)
    // Rank the lines first (by their text alone), then read only the tracks shown.
    let ranked = rows.map { row -> (key: (Int, Int, Int64), rowid: Int64, text: String, ms: Int?) in
      let rowid: Int64 = row["rowid"]
      let text: String = row["text"]
      let folded = fold(text)
      let place = folded == needle ? 0 : folded.hasPrefix(needle) ? 1 : 2
      return ((place, text.count, rowid), rowid, text, row["ms"])
    }
    .sorted { $0.key < $1.key }
    let shown = Array(ranked.dropFirst(offset).prefix(limit))
    let trackIDs = Array(Set(shown.map { $0.rowid / linesPerTrack }))
    // A local track's catalog ID is its path: map row IDs to paths, then to tracks.
    var paths: [Int64: String] = [:]
    if !trackIDs.isEmpty {
      let marks = trackIDs.map { _ in "?" }.joined(separator: ",")
      for row in try Row.fetchAll(
        db, sql: "SELECT id, path FROM local_tracks WHERE id IN (\(marks))",
        arguments: StatementArguments(trackIDs))
      {
        paths[row["id"]] = row["path"]
      }
    }
    var byPath: [String: CatalogTrack] = [:]
    for track in try LocalLibraryRows.tracks(ids: trackIDs, db: db) { byPath[track.id] = track }
    return shown.compactMap { hit in
      guard let path = paths[hit.rowid / linesPerTrack], let track = byPath[path] else {
        return nil
      }
      return LyricMatch(
        track: track, lineIndex: Int(hit.rowid % linesPerTrack), ms: hit.ms, text: hit.text)
    }
  }

  /// Replaces the indexed lines of the track at row `id` (for tools that build a library
  /// without files).
  static func replace(track id: Int64, lines: [LyricLine], synced: Bool, db: Database) throws {
    try remove(track: id, db: db)
    for (index, line) in lines.prefix(Int(linesPerTrack)).enumerated() where !line.text.isEmpty {
      try db.execute(
        sql: "INSERT INTO local_lyric_grams (rowid, text, ms) VALUES (?, ?, ?)",
        arguments: [id * linesPerTrack + Int64(index), line.text, synced ? line.ms : nil])
    }
  }

  /// Removes a track's lines from the index.
  private static func remove(track id: Int64, db: Database) throws {
    try db.execute(
      sql: "DELETE FROM local_lyric_grams WHERE rowid BETWEEN ? AND ?",
      arguments: [id * linesPerTrack, id * linesPerTrack + linesPerTrack - 1])
  }

  /// Text compared without case, accents or surrounding space.
  static func fold(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
      .trimmingCharacters(in: .whitespaces)
  }
}
