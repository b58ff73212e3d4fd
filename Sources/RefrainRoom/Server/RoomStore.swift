import Foundation
import GRDB
import RefrainCore

/// Each room's chat, per track, in SQLite (`$XDG_DATA_HOME/refrain/rooms.sqlite`).
///
/// Every message is committed before it is sent to anyone, so what members saw survives a
/// crash of the server.
public final class ChatStore: Sendable {
  private let queue: DatabaseQueue

  /// Opens (or creates) the store at `url`.
  public init(url: URL) throws {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    var configuration = Configuration()
    configuration.busyMode = .timeout(5)
    queue = try DatabaseQueue(path: url.path, configuration: configuration)
    try Self.migrator.migrate(queue)
  }

  /// An in-memory store, for tests.
  public init() throws {
    queue = try DatabaseQueue()
    try Self.migrator.migrate(queue)
  }

  private static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.execute(
        sql: """
          CREATE TABLE chat (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            room TEXT NOT NULL,
            track TEXT,
            member TEXT NOT NULL,
            sender TEXT NOT NULL,
            text TEXT NOT NULL,
            sent_at INTEGER NOT NULL
          );
          CREATE INDEX chat_by_track ON chat (room, track, id);
          """)
    }
    return migrator
  }

  /// Stores a message and returns it with its number.
  public func append(
    room: String, track: String?, member: String, sender: String, text: String, sentAt: Int64
  ) throws -> RoomChat {
    let id = try queue.write { db -> Int64 in
      try db.execute(
        sql:
          "INSERT INTO chat (room, track, member, sender, text, sent_at) VALUES (?, ?, ?, ?, ?, ?)",
        arguments: [room, track, member, sender, text, sentAt])
      return db.lastInsertedRowID
    }
    return RoomChat(id: id, track: track, from: sender, member: member, text: text, sentAt: sentAt)
  }

  /// The last `limit` messages of `room` about `track`, oldest first.
  public func history(room: String, track: String?, limit: Int = RoomProtocol.historyLimit) throws
    -> [RoomChat]
  {
    try queue.read { db in
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT id, track, member, sender, text, sent_at FROM chat
          WHERE room = ? AND track IS ? ORDER BY id DESC LIMIT ?
          """, arguments: [room, track, limit])
      return rows.reversed().map { row in
        RoomChat(
          id: row["id"], track: row["track"], from: row["sender"], member: row["member"],
          text: row["text"], sentAt: row["sent_at"])
      }
    }
  }
}
