import Foundation
import GRDB
import RefrainCore

/// The last session, saved on the way out and restored at start-up.
extension LibraryStore {
  /// Saves the session, replacing the previous one.
  public func saveSession(_ session: SavedSession) throws {
    try write { db in
      try db.execute(
        sql: """
          INSERT OR REPLACE INTO last_session
            (id, queue_json, current_index, position, volume, shuffle, repeat_mode, open_pane,
             saved_at)
          VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          Self.encodeJSON(session.queue.map(\.withoutCredentials)), session.currentIndex,
          session.position, session.volume,
          session.shuffle, session.repeatMode.rawValue, session.openPane,
          session.savedAt.timeIntervalSince1970,
        ])
    }
  }

  /// The saved session, or `nil` when there is none (or its queue cannot be read back).
  public func lastSession() throws -> SavedSession? {
    try read { db in
      guard let row = try Row.fetchOne(db, sql: "SELECT * FROM last_session WHERE id = 1") else {
        return nil
      }
      let json: String = row["queue_json"]
      guard
        let queue = try? JSONDecoder().decode([CatalogTrack].self, from: Data(json.utf8))
      else { return nil }
      var index: Int? = row["current_index"]
      if let current = index, !queue.indices.contains(current) { index = nil }
      let repeatName: String = row["repeat_mode"]
      return SavedSession(
        queue: queue, currentIndex: index, position: max(0, row["position"]),
        volume: min(100, max(0, row["volume"])), shuffle: row["shuffle"],
        repeatMode: RepeatMode(rawValue: repeatName) ?? .off, openPane: row["open_pane"],
        savedAt: Date(timeIntervalSince1970: row["saved_at"]))
    }
  }

  /// Forgets the saved session.
  public func clearSession() throws {
    try write { db in try db.execute(sql: "DELETE FROM last_session") }
  }
}
