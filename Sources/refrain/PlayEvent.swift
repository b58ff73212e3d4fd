import Foundation
import RefrainCore

/// One line of `refrain play --events`: `start`, `position`, `line`, `end` or `error`.
///
/// Times are seconds to the millisecond; a start's `duration` is `null` when unknown.
enum PlayEvent: Encodable, Equatable {
  case start(file: String, duration: Double?)
  case position(Double)
  case line(index: Int, t: Double, text: String)
  case end
  case error(String)

  private enum Key: String, CodingKey {
    case event, file, duration, t, index, text, message
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
    }
  }

  /// Writes the event and a newline to stdout at once (unbuffered, for live event streams).
  func write() {
    FileHandle.standardOutput.write(Data((JSONOutput.line(self) + "\n").utf8))
  }
}
