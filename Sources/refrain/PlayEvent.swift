import Foundation
import RefrainCore

/// One line of `refrain play --events`: `start`, `position`, `line`, `end`, `error`, and for
/// internet radio `metadata`, `reconnecting` and `reconnected`; for any stream `stalled`
/// (with the reason as `message`) and `flowing`.
///
/// Times are seconds to the millisecond; a start's `duration` is `null` when unknown. A
/// `metadata` event's `artist` is `null` when the station's title has no " - ".
enum PlayEvent: Encodable, Equatable {
  case start(file: String, duration: Double?)
  case position(Double)
  case line(index: Int, t: Double, text: String)
  /// The track that started last is over: exactly one per `start`.
  case end(EndReason)
  case error(String)
  /// A live stream's title changed (or came again after a reconnection).
  case metadata(StreamTitle)
  /// A live stream dropped; the next attempt is in `retryIn` seconds.
  case reconnecting(reason: String, retryIn: Double)
  /// A live stream is back.
  case reconnected
  /// A stream sent nothing for about a second while the player waited; `reason` says why.
  case stalled(reason: String)
  /// Bytes flow again after a stall.
  case flowing

  /// Why a track's `end` came.
  enum EndReason: String, Encodable {
    /// It played to its end (or to the `--duration` limit).
    case finished
    /// `next`, `prev` or another entry was played before it finished.
    case skipped
    /// Playback was stopped.
    case stopped
    /// `refrain play` was told to quit, or its input closed.
    case quit
    /// It could not be played on.
    case error
  }

  private enum Key: String, CodingKey {
    case event, file, duration, t, index, text, message, title, artist, raw, reason
    case retryIn = "retry_in"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    switch self {
    case .start(let file, let duration):
      try container.encode("start", forKey: .event)
      try container.encode(file, forKey: .file)
      try container.encode(duration.map(JSONOutput.milliseconds), forKey: .duration)
    case .position(let t):
      try container.encode("position", forKey: .event)
      try container.encode(JSONOutput.milliseconds(t), forKey: .t)
    case .line(let index, let t, let text):
      try container.encode("line", forKey: .event)
      try container.encode(index, forKey: .index)
      try container.encode(JSONOutput.milliseconds(t), forKey: .t)
      try container.encode(text, forKey: .text)
    case .end(let reason):
      try container.encode("end", forKey: .event)
      try container.encode(reason, forKey: .reason)
    case .error(let message):
      try container.encode("error", forKey: .event)
      try container.encode(message, forKey: .message)
    case .metadata(let title):
      try container.encode("metadata", forKey: .event)
      try container.encode(title.title, forKey: .title)
      try container.encode(title.artist, forKey: .artist)
      try container.encode(title.raw, forKey: .raw)
    case .reconnecting(let reason, let delay):
      try container.encode("reconnecting", forKey: .event)
      try container.encode(reason, forKey: .message)
      try container.encode(JSONOutput.milliseconds(delay), forKey: .retryIn)
    case .reconnected:
      try container.encode("reconnected", forKey: .event)
    case .stalled(let reason):
      try container.encode("stalled", forKey: .event)
      try container.encode(reason, forKey: .message)
    case .flowing:
      try container.encode("flowing", forKey: .event)
    }
  }

  /// Writes the event and a newline to stdout at once (unbuffered, for live event streams).
  func write() {
    Console.line(JSONOutput.line(self))
  }
}

/// Which `start` still owes its `end`: each track that started gets exactly one, with the
/// first reason that applies (a new start before it finished is a skip).
struct TrackEnds {
  private var open = false

  /// A track started: the `end` the one before still owed, if any.
  mutating func started() -> PlayEvent? {
    defer { open = true }
    return open ? .end(.skipped) : nil
  }

  /// The open track is over for `reason`: its `end`, unless it already had one.
  mutating func end(_ reason: PlayEvent.EndReason) -> PlayEvent? {
    guard open else { return nil }
    open = false
    return .end(reason)
  }
}
