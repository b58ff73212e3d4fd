import Foundation

/// A listen waiting in the library's offline queue for one service.
public struct QueuedListen: Sendable, Hashable, Codable {
  /// The row's identifier, for ``LibraryPort``-side `markSent` / `markFailed`.
  public var id: Int64
  /// The service it is for.
  public var service: ScrobbleService
  /// The artist's name; `""` when unknown.
  public var artist: String
  /// The track's title.
  public var title: String
  /// The album's title; `""` when unknown.
  public var album: String
  /// The track's length in seconds.
  public var duration: Double
  /// The track's key in Refrain (`Track.id`).
  public var trackKey: String
  /// When the play began, in whole seconds since 1970 (the services' timestamp).
  public var listenedAt: Int64
  /// How many sends failed so far.
  public var attempts: Int
  /// Why the last send failed, if one did.
  public var lastError: String?

  /// Creates a queued listen; the library is the usual source.
  public init(
    id: Int64, service: ScrobbleService, artist: String, title: String, album: String,
    duration: Double, trackKey: String, listenedAt: Int64, attempts: Int, lastError: String?
  ) {
    self.id = id
    self.service = service
    self.artist = artist
    self.title = title
    self.album = album
    self.duration = duration
    self.trackKey = trackKey
    self.listenedAt = listenedAt
    self.attempts = attempts
    self.lastError = lastError
  }
}

/// What the offline queue holds for one service, for `refrain` to report.
public struct ScrobbleQueueSummary: Sendable, Hashable, Codable {
  /// The service.
  public var service: ScrobbleService
  /// Listens not sent yet.
  public var pending: Int
  /// Listens sent (kept so the same listen is never queued again).
  public var sent: Int
  /// The most recent failure's message among pending listens, if any.
  public var lastError: String?

  /// Creates a summary.
  public init(service: ScrobbleService, pending: Int, sent: Int, lastError: String?) {
    self.service = service
    self.pending = pending
    self.sent = sent
    self.lastError = lastError
  }
}

/// How long to wait before sending a failed listen again: exponential, with a cap.
public enum ScrobbleBackoff {
  /// The wait after the first failure, in seconds.
  public static let initialDelay: Double = 30
  /// The longest wait, in seconds (6 hours).
  public static let maximumDelay: Double = 6 * 3600

  /// The wait after `attempts` failed sends: ``initialDelay`` × 2^(attempts − 1), never more
  /// than ``maximumDelay``; 0 when nothing failed yet.
  public static func delay(afterAttempts attempts: Int) -> Double {
    guard attempts > 0 else { return 0 }
    // 2^20 × 30 s is far past the cap: stop doubling there, so no overflow.
    let doublings = min(attempts - 1, 20)
    return min(initialDelay * Double(1 << doublings), maximumDelay)
  }
}
