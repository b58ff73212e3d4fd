import Foundation
import GRDB
import RefrainCore

/// The user's radio stations (`refrain radio add|list|remove`, the Library pane's Radio).
///
/// Names are unique whatever their case: saving a station under a name already kept
/// replaces its URL, in one transaction.
public struct RadioStations: Sendable {
  /// The library whose connection it shares.
  let store: LibraryStore

  /// Keeps `station`; a station of the same name (whatever its case) gets the new URL.
  /// Returns whether it was new.
  @discardableResult
  public func saveStation(_ station: RadioStation) throws -> Bool {
    try store.write { db in
      let existed =
        try Int.fetchOne(
          db, sql: "SELECT count(*) FROM radio_stations WHERE name = ?", arguments: [station.name])
        ?? 0 > 0
      try db.execute(
        sql: """
          INSERT INTO radio_stations (name, url, added_at) VALUES (?, ?, ?)
          ON CONFLICT(name) DO UPDATE SET url = excluded.url, name = excluded.name
          """,
        arguments: [station.name, station.url, Date().timeIntervalSince1970])
      return !existed
    }
  }

  /// Every station, by name.
  public func stations() throws -> [RadioStation] {
    try store.read { db in
      try Row.fetchAll(db, sql: "SELECT name, url FROM radio_stations ORDER BY name COLLATE NOCASE")
        .map { RadioStation(name: $0["name"], url: $0["url"]) }
    }
  }

  /// Removes the station named `name` (whatever its case); returns whether there was one.
  @discardableResult
  public func removeStation(named name: String) throws -> Bool {
    try store.write { db in
      try db.execute(sql: "DELETE FROM radio_stations WHERE name = ?", arguments: [name])
      return db.changesCount > 0
    }
  }
}
