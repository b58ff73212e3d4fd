import Foundation
import GRDB
import RefrainCore

/// What the room server keeps in SQLite (`$XDG_DATA_HOME/refrain/rooms.sqlite`): each room's
/// chat, per track, and each room's queue and playback (``SavedRoom``).
///
/// Every chat message is committed before it is sent to anyone, and every change to a
/// room's queue or playback is committed before it is broadcast, so what members saw
/// survives a crash of the server.
public final class RoomStore: Sendable {
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

  /// Opens the store at `url`; a file that is not SQLite or is damaged is set aside as `NAME.broken-UNIXTIME`, said in one `log` line, and a new
  /// empty store takes its place: the server comes up with empty rooms rather than not at
  /// all, and nothing is deleted. Throws only when the new store cannot be made either.
  public static func open(url: URL, log: (String) -> Void) throws -> RoomStore {
    do {
      return try RoomStore(url: url)
    } catch {
      let aside = url.appendingPathExtension("broken-\(Int(Date().timeIntervalSince1970))")
      let fileManager = FileManager.default
      // Only a damaged file is set aside; a busy or unreadable one is the caller's to hear.
      guard let failure = error as? DatabaseError,
        failure.resultCode == .SQLITE_NOTADB || failure.resultCode == .SQLITE_CORRUPT,
        fileManager.fileExists(atPath: url.path)
      else { throw error }
      try fileManager.moveItem(at: url, to: aside)
      for suffix in ["-wal", "-shm", "-journal"] {
        try? fileManager.removeItem(atPath: url.path + suffix)
      }
      log(
        "\(url.path) cannot be opened (\(error)); set aside as \(aside.lastPathComponent), "
          + "starting with empty rooms and chat")
      return try RoomStore(url: url)
    }
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
    migrator.registerMigration("v2 room state") { db in
      try db.execute(
        sql: """
          CREATE TABLE room_state (
            room TEXT PRIMARY KEY NOT NULL,
            state TEXT NOT NULL
          );
          """)
    }
    return migrator
  }

  // MARK: - Chat

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

  // MARK: - Queue and playback

  /// Why a room's saved state could not be read.
  public enum LoadError: Error, CustomStringConvertible {
    /// The row is there but is not a ``SavedRoom``: the room starts empty.
    case corrupt(room: String, reason: String)

    public var description: String {
      switch self {
      case .corrupt(let room, let reason):
        return "the saved state of room \(room) cannot be read (\(reason)); it starts empty"
      }
    }
  }

  /// Replaces what is saved of `room` with `state`.
  public func save(_ state: SavedRoom, room: String) throws {
    let json = String(decoding: try SavedRoom.encoder.encode(state), as: UTF8.self)
    try queue.write { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO room_state (room, state) VALUES (?, ?)",
        arguments: [room, json])
    }
  }

  /// What is saved of `room`; `nil` when nothing is. Throws ``LoadError/corrupt(room:reason:)``
  /// for a row that cannot be read, or the database's error.
  public func load(room: String) throws -> SavedRoom? {
    let text = try queue.read { db in
      try String.fetchOne(db, sql: "SELECT state FROM room_state WHERE room = ?", arguments: [room])
    }
    guard let text else { return nil }
    do {
      return try JSONDecoder().decode(SavedRoom.self, from: Data(text.utf8))
    } catch {
      throw LoadError.corrupt(room: room, reason: Self.reason(error))
    }
  }

  private static func reason(_ error: any Error) -> String {
    switch error {
    case DecodingError.dataCorrupted: return "not JSON"
    case DecodingError.keyNotFound(let key, _): return "no \"\(key.stringValue)\""
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      return "\"\(context.codingPath.last?.stringValue ?? "a field")\" has the wrong type"
    default: return "\(error)"
    }
  }
}
