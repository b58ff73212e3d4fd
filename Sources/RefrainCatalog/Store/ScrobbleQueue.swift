import Foundation
import GRDB
import RefrainCore

/// The offline queue of listens for the scrobbling services (issue 16).
///
/// A listen is written here before anything is sent, one row per service, in one
/// transaction, so it survives the process being killed. The UNIQUE key (service, time,
/// title, artist) makes queuing the same listen again a no-op, and a row sent stays as
/// `sent`, so it is never queued or handed out again.
public struct ScrobbleQueue: Sendable {
  /// The library whose connection it shares.
  let store: LibraryStore

  /// Queues `listen` for each of `services` in one transaction; returns how many rows were
  /// new (a listen already queued for a service is left as it is).
  @discardableResult
  public func enqueueListen(_ listen: Listen, services: [ScrobbleService]) throws -> Int {
    let track = listen.track
    let listenedAt = Int64(listen.listenedAt.timeIntervalSince1970.rounded(.down))
    return try store.write { db in
      var inserted = 0
      for service in Set(services).sorted(by: { $0.rawValue < $1.rawValue }) {
        try db.execute(
          sql: """
            INSERT OR IGNORE INTO scrobble_queue
              (service, artist, title, album, duration, track_key, listened_at, state,
               attempts, next_attempt_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, 0)
            """,
          arguments: [
            service.rawValue, track.artist ?? "", track.title, track.album ?? "",
            listen.duration, track.id, listenedAt,
          ])
        inserted += db.changesCount
      }
      return inserted
    }
  }

  /// Up to `limit` pending listens for `service` that are due at `now`, oldest first.
  public func pendingListens(service: ScrobbleService, limit: Int, now: Date) throws
    -> [QueuedListen]
  {
    try store.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT id, service, artist, title, album, duration, track_key, listened_at, attempts,
                 last_error
          FROM scrobble_queue
          WHERE service = ? AND state = 'pending' AND next_attempt_at <= ?
          ORDER BY listened_at, id
          LIMIT ?
          """,
        arguments: [service.rawValue, now.timeIntervalSince1970, max(0, limit)]
      ).compactMap(Self.queuedListen(from:))
    }
  }

  /// Marks the listens `ids` as sent, in one transaction; they are never handed out again.
  public func markSent(ids: [Int64]) throws {
    guard !ids.isEmpty else { return }
    try store.write { db in
      for id in ids {
        try db.execute(
          sql: "UPDATE scrobble_queue SET state = 'sent', last_error = NULL WHERE id = ?",
          arguments: [id])
      }
    }
  }

  /// Records a failed send of the listens `ids`, which are not due again before `retryAt`.
  ///
  /// Each gets one more attempt and keeps `error`; compute `retryAt` with
  /// ``ScrobbleBackoff``. Sent listens are left as they are.
  public func markFailed(ids: [Int64], error: String, retryAt: Date) throws {
    guard !ids.isEmpty else { return }
    try store.write { db in
      for id in ids {
        try db.execute(
          sql: """
            UPDATE scrobble_queue
            SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?
            WHERE id = ? AND state = 'pending'
            """,
          arguments: [error, retryAt.timeIntervalSince1970, id])
      }
    }
  }

  /// When the earliest pending listen for one of `services` is due (it may be now or past),
  /// or `nil` when none is pending: when a sender's retry timer should fire.
  public func nextListenDue(services: [ScrobbleService]) throws -> Date? {
    guard !services.isEmpty else { return nil }
    let marks = Array(repeating: "?", count: services.count).joined(separator: ", ")
    return try store.read { db in
      try Double.fetchOne(
        db,
        sql: """
          SELECT min(next_attempt_at) FROM scrobble_queue
          WHERE state = 'pending' AND service IN (\(marks))
          """,
        arguments: StatementArguments(services.map(\.rawValue))
      ).map { Date(timeIntervalSince1970: $0) }
    }
  }

  /// Pending and sent counts per service that has any row, with the latest failure among its
  /// pending listens; services in name order.
  public func scrobbleQueueSummary() throws -> [ScrobbleQueueSummary] {
    try store.read { db in
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT service,
                 sum(state = 'pending') AS pending,
                 sum(state = 'sent') AS sent,
                 (SELECT last_error FROM scrobble_queue AS failed
                  WHERE failed.service = q.service AND failed.state = 'pending'
                    AND failed.last_error IS NOT NULL
                  ORDER BY failed.next_attempt_at DESC, failed.id DESC LIMIT 1) AS last_error
          FROM scrobble_queue AS q
          GROUP BY service
          ORDER BY service
          """)
      return rows.compactMap { row in
        guard let service = ScrobbleService(rawValue: row["service"]) else { return nil }
        return ScrobbleQueueSummary(
          service: service, pending: row["pending"], sent: row["sent"],
          lastError: row["last_error"])
      }
    }
  }

  private static func queuedListen(from row: Row) -> QueuedListen? {
    guard let service = ScrobbleService(rawValue: row["service"]) else { return nil }
    return QueuedListen(
      id: row["id"], service: service, artist: row["artist"], title: row["title"],
      album: row["album"], duration: row["duration"], trackKey: row["track_key"],
      listenedAt: row["listened_at"], attempts: row["attempts"], lastError: row["last_error"])
  }
}
