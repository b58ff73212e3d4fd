import Foundation
import RefrainCore

/// One line of `refrain play --events`: `start`, `position`, `line`, `end`, `error`, and for
/// internet radio `metadata`, `reconnecting` and `reconnected`.
///
/// Times are seconds to the millisecond; a start's `duration` is `null` when unknown. A
/// `metadata` event's `artist` is `null` when the station's title has no " - ".
enum PlayEvent: Encodable, Equatable {
  case start(file: String, duration: Double?)
  case position(Double)
  case line(index: Int, t: Double, text: String)
  case end
  case error(String)
  /// A live stream's title changed (or came again after a reconnection).
  case metadata(StreamTitle)
  /// A live stream dropped; the next attempt is in `retryIn` seconds.
  case reconnecting(reason: String, retryIn: Double)
  /// A live stream is back.
  case reconnected

  private enum Key: String, CodingKey {
    case event, file, duration, t, index, text, message, title, artist, raw
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
    case .end:
      try container.encode("end", forKey: .event)
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
    }
  }

  /// Writes the event and a newline to stdout at once (unbuffered, for live event streams).
  func write() {
    Console.line(JSONOutput.line(self))
  }
}
