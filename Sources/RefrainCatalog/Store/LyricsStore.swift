import Foundation
import GRDB
import RefrainCore

/// The lyrics cache, the user's per-track lyric offsets and the lyric search index's lines.
///
/// Each call is one transaction: a cached text is replaced whole, and an offset is kept
/// within ±`LRCParser.maxOffsetMs` (0 is stored as no row), even when nudged concurrently.
public struct LyricsStore: Sendable {
  /// The library whose connection it shares.
  let store: LibraryStore

  // MARK: - Lyrics cache

  /// The cached lyrics for `key`, if any.
  public func cachedLyrics(for key: String) throws -> CachedLyrics? {
    try store.read { db in
      try Row.fetchOne(
        db, sql: "SELECT key, text, source, fetched_at FROM lyrics_cache WHERE key = ?",
        arguments: [key]
      ).map { row in
        CachedLyrics(
          key: row["key"], text: row["text"], source: row["source"],
          fetchedAt: Date(timeIntervalSince1970: row["fetched_at"]))
      }
    }
  }

  /// Stores (or replaces) the lyrics for `key`.
  public func cacheLyrics(
    _ text: String, for key: String, source: String? = nil, fetchedAt: Date = Date()
  ) throws {
    try store.write { db in
      try db.execute(
        sql: """
          INSERT INTO lyrics_cache (key, text, source, fetched_at) VALUES (?, ?, ?, ?)
          ON CONFLICT (key) DO UPDATE SET
            text = excluded.text, source = excluded.source, fetched_at = excluded.fetched_at
          """,
        arguments: [key, text, source, fetchedAt.timeIntervalSince1970])
    }
  }

  /// Drops the cached lyrics for `key`; returns whether there were any.
  @discardableResult
  public func removeCachedLyrics(forKey key: String) throws -> Bool {
    try store.write { db in
      try db.execute(sql: "DELETE FROM lyrics_cache WHERE key = ?", arguments: [key])
      return db.changesCount > 0
    }
  }

  /// Drops cached lyrics fetched before `date`; returns how many were dropped.
  @discardableResult
  public func removeCachedLyrics(fetchedBefore date: Date) throws -> Int {
    try store.write { db in
      try db.execute(
        sql: "DELETE FROM lyrics_cache WHERE fetched_at < ?",
        arguments: [date.timeIntervalSince1970])
      return db.changesCount
    }
  }

  // MARK: - Lyric offsets

  /// A track's lyric offset in milliseconds (positive shows lines earlier); 0 when none is set.
  public func lyricOffset(for trackKey: String) throws -> Int {
    try store.read { db in
      try Int.fetchOne(
        db, sql: "SELECT offset_ms FROM lyric_offsets WHERE track_key = ?", arguments: [trackKey])
        ?? 0
    }
  }

  /// Sets a track's lyric offset (clamped to ±`LRCParser.maxOffsetMs`; 0 removes it) and
  /// returns the value kept.
  @discardableResult
  public func setLyricOffset(_ offsetMs: Int, for trackKey: String) throws -> Int {
    try store.write { db in try Self.saveOffset(offsetMs, for: trackKey, in: db) }
  }

  /// Adds `deltaMs` to a track's lyric offset in one transaction and returns the new offset.
  @discardableResult
  public func nudgeLyricOffset(for trackKey: String, by deltaMs: Int) throws -> Int {
    try store.write { db in
      let current =
        try Int.fetchOne(
          db, sql: "SELECT offset_ms FROM lyric_offsets WHERE track_key = ?",
          arguments: [trackKey]) ?? 0
      let (sum, overflow) = current.addingReportingOverflow(deltaMs)
      let target = overflow ? (deltaMs > 0 ? Int.max : Int.min) : sum
      return try Self.saveOffset(target, for: trackKey, in: db)
    }
  }

  // MARK: - Lyric search index

  /// Indexes `lines` as the lyrics of the scanned track at `path`, replacing any, in one
  /// transaction; `false` when no such track is indexed. For tools and benchmarks that
  /// build a library without files.
  @discardableResult
  public func indexLyrics(_ lines: [LyricLine], synced: Bool, forLocalTrack path: String) throws
    -> Bool
  {
    try store.write { db in
      guard
        let id = try Int64.fetchOne(
          db, sql: "SELECT id FROM local_tracks WHERE path = ?", arguments: [path])
      else { return false }
      try LyricSearchIndex.replace(track: id, lines: lines, synced: synced, db: db)
      return true
    }
  }

  private static func saveOffset(_ offsetMs: Int, for trackKey: String, in db: Database) throws
    -> Int
  {
    let value = min(LRCParser.maxOffsetMs, max(-LRCParser.maxOffsetMs, offsetMs))
    if value == 0 {
      try db.execute(sql: "DELETE FROM lyric_offsets WHERE track_key = ?", arguments: [trackKey])
    } else {
      try db.execute(
        sql: """
          INSERT INTO lyric_offsets (track_key, offset_ms, updated_at) VALUES (?, ?, ?)
          ON CONFLICT (track_key) DO UPDATE SET
            offset_ms = excluded.offset_ms, updated_at = excluded.updated_at
          """,
        arguments: [trackKey, value, LibraryStore.now()])
    }
    return value
  }
}
