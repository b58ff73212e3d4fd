import Foundation
import RefrainCore
import RefrainSession

/// One line of `refrain room join --events` beyond the playback events of ``PlayEvent``: who
/// joined, the queue, the room's playback state, chat, notices, errors and sync reports.
///
/// Keys are sorted, times are seconds to the millisecond, and an unknown value is `null`.
enum RoomJoinEvent: Encodable {
  case joined(RoomWelcome)
  case members([RoomMember])
  case queue(current: Int?, entries: [RoomQueueEntry])
  case state(RoomPlayback)
  case history(track: String?, messages: [RoomChat])
  case chat(RoomChat)
  case notice(String)
  case error(code: String, message: String)
  case connected
  case lost(reason: String)
  case sync(errorMs: Double, offsetMs: Double?, action: RoomSync.Correction)

  private enum Key: String, CodingKey {
    case event, room, member, members, hostOnly = "host_only", current, entries, entry, path
    case playing, position, track, messages, from, text, id, code, message, reason
    case errorMs = "error_ms", offsetMs = "offset_ms", action, stepMs = "step_ms", to
  }

  private struct Member: Encodable {
    var id: String
    var name: String
    var host: Bool
  }

  private struct Entry: Encodable {
    var entry: Int
    var path: String
    var title: String
  }

  private struct Message: Encodable {
    var from: String
    var text: String
    var id: Int64
  }

  /// Tenths of a millisecond, as sync reports print them.
  private static func tenths(_ value: Double) -> Double { (value * 10).rounded() / 10 }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    switch self {
    case .joined(let welcome):
      try container.encode("joined", forKey: .event)
      try container.encode(welcome.room, forKey: .room)
      try container.encode(welcome.member, forKey: .member)
      try container.encode(welcome.hostOnly, forKey: .hostOnly)
    case .members(let members):
      try container.encode("member", forKey: .event)
      try container.encode(
        members.map { Member(id: $0.id, name: $0.name, host: $0.host) }, forKey: .members)
    case .queue(let current, let entries):
      try container.encode("queue", forKey: .event)
      try container.encode(current, forKey: .current)
      try container.encode(
        entries.map { Entry(entry: $0.entry, path: $0.path, title: $0.title) }, forKey: .entries)
    case .state(let state):
      try container.encode("state", forKey: .event)
      try container.encode(state.entry, forKey: .entry)
      try container.encode(state.path, forKey: .path)
      try container.encode(state.playing, forKey: .playing)
      try container.encode(JSONOutput.milliseconds(state.position), forKey: .position)
    case .history(let track, let messages):
      try container.encode("history", forKey: .event)
      try container.encode(track, forKey: .track)
      try container.encode(
        messages.map { Message(from: $0.from, text: $0.text, id: $0.id) }, forKey: .messages)
    case .chat(let message):
      try container.encode("chat", forKey: .event)
      try container.encode(message.from, forKey: .from)
      try container.encode(message.text, forKey: .text)
      try container.encode(message.track, forKey: .track)
      try container.encode(message.id, forKey: .id)
    case .notice(let text):
      try container.encode("notice", forKey: .event)
      try container.encode(text, forKey: .text)
    case .error(let code, let message):
      try container.encode("error", forKey: .event)
      try container.encode(code, forKey: .code)
      try container.encode(message, forKey: .message)
    case .connected:
      try container.encode("connected", forKey: .event)
    case .lost(let reason):
      try container.encode("room_lost", forKey: .event)
      try container.encode(reason, forKey: .reason)
    case .sync(let errorMs, let offsetMs, let action):
      try container.encode("sync", forKey: .event)
      try container.encode(Self.tenths(errorMs), forKey: .errorMs)
      try container.encode(offsetMs.map(Self.tenths), forKey: .offsetMs)
      switch action {
      case .none: try container.encode("none", forKey: .action)
      case .step(let delta):
        try container.encode("step", forKey: .action)
        try container.encode((delta * 10_000).rounded() / 10, forKey: .stepMs)
      case .seek(let target):
        try container.encode("seek", forKey: .action)
        try container.encode(JSONOutput.milliseconds(target), forKey: .to)
      }
    }
  }

  /// Writes the event and a newline to stdout at once.
  func write() {
    Console.line(JSONOutput.line(self))
  }
}
