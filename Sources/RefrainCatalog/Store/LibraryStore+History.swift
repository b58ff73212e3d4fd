import Foundation
import GRDB
import RefrainCore

/// Recent searches and play history.
extension LibraryStore {
  /// How many recent searches are kept.
  public static let recentSearchLimit = 20
  /// How many plays the history keeps; older ones are dropped.
  public static let playHistoryLimit = 10_000

  // MARK: - Recent searches

  /// Remembers a search, most recent first.
  ///
  /// It replaces an earlier search that differs only in case or spacing, and only the last
  /// ``recentSearchLimit`` are kept. Blank queries are ignored.
  public func addRecentSearch(_ query: String) throws {
    let text = query.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    guard !text.isEmpty else { return }
    let normalized = text.lowercased()
    try write { db in
      try db.execute(
        sql: "DELETE FROM recent_searches WHERE normalized = ?", arguments: [normalized])
      try db.execute(
        sql: "INSERT INTO recent_searches (query, normalized, searched_at) VALUES (?, ?, ?)",
        arguments: [text, normalized, Self.now()])
      try db.execute(
        sql: """
          DELETE FROM recent_searches WHERE id NOT IN
            (SELECT id FROM recent_searches ORDER BY id DESC LIMIT ?)
          """,
        arguments: [Self.recentSearchLimit])
    }
  }

  /// The recent searches, most recent first.
  public func recentSearches() throws -> [String] {
    try read { db in
      try String.fetchAll(db, sql: "SELECT query FROM recent_searches ORDER BY id DESC")
    }
  }

  /// Forgets one recent search (any spelling that differs only in case or spacing).
  public func removeRecentSearch(_ query: String) throws {
    let normalized = query.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    try write { db in
      try db.execute(
        sql: "DELETE FROM recent_searches WHERE normalized = ?", arguments: [normalized])
    }
  }

  /// Forgets every recent search.
  public func clearRecentSearches() throws {
    try write { db in try db.execute(sql: "DELETE FROM recent_searches") }
  }

  // MARK: - Play history

  /// Records that a track played (at `date`, for `secondsPlayed` when known).
  public func recordPlay(
    _ track: CatalogTrack, at date: Date = Date(), secondsPlayed: Double? = nil
  )
    throws
  {
    try write { db in
      try Self.store(track, in: db)
      try db.execute(
        sql: """
          INSERT INTO play_history (provider, track_id, played_at, seconds_played)
          VALUES (?, ?, ?, ?)
          """,
        arguments: [track.provider, track.id, date.timeIntervalSince1970, secondsPlayed])
      let cutoff = db.lastInsertedRowID - Int64(Self.playHistoryLimit)
      if cutoff > 0 {
        try db.execute(sql: "DELETE FROM play_history WHERE id <= ?", arguments: [cutoff])
      }
    }
  }

  /// The most recent plays, newest first.
  public func playHistory(limit: Int = 100) throws -> [PlayRecord] {
    try read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT h.provider, h.track_id, h.played_at, h.seconds_played,
                 t.title, t.artist, t.album, t.duration, t.json
          FROM play_history h
          JOIN stored_tracks t ON t.provider = h.provider AND t.id = h.track_id
          ORDER BY h.id DESC
          LIMIT ?
          """,
        arguments: [limit]
      ).map { row in
        PlayRecord(
          track: Self.track(from: row), playedAt: Date(timeIntervalSince1970: row["played_at"]),
          secondsPlayed: row["seconds_played"])
      }
    }
  }

  /// Forgets the whole play history.
  public func clearPlayHistory() throws {
    try write { db in try db.execute(sql: "DELETE FROM play_history") }
  }
}
