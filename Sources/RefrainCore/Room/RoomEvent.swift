import Foundation

/// A member of a room as the others see it.
public struct RoomMember: Codable, Equatable, Sendable {
  /// The server's name for the connection ("m3"); unique in the server's run.
  public var id: String
  /// The display name, cleaned.
  public var name: String
  /// Whether this is the room's host (the first member still there).
  public var host: Bool

  public init(id: String, name: String, host: Bool) {
    self.id = id
    self.name = name
    self.host = host
  }
}

/// A track of the server's shared library.
public struct RoomLibraryTrack: Codable, Equatable, Sendable {
  /// The path relative to its library folder: the track's name in the room.
  public var path: String
  public var title: String
  public var artist: String?
  public var album: String?
  /// Seconds, when known.
  public var duration: Double?
  /// The ReplayGain values in the file's tags, when it has any.
  public var replayGain: ReplayGain?

  public init(
    path: String, title: String, artist: String?, album: String?, duration: Double?,
    replayGain: ReplayGain? = nil
  ) {
    self.path = path
    self.title = title
    self.artist = artist
    self.album = album
    self.duration = duration
    self.replayGain = replayGain
  }

  enum CodingKeys: String, CodingKey {
    case path, title, artist, album, duration
    case replayGain = "replaygain"
  }
}

/// One entry of a room's shared queue.
public struct RoomQueueEntry: Codable, Equatable, Sendable {
  /// The entry's number, unique in the room.
  public var entry: Int
  public var path: String
  public var title: String
  public var artist: String?
  public var album: String?
  public var duration: Double?
  /// The display name of the member who added it.
  public var addedBy: String
  /// The ReplayGain values in the file's tags, when it has any.
  public var replayGain: ReplayGain?

  public init(entry: Int, track: RoomLibraryTrack, addedBy: String) {
    self.entry = entry
    path = track.path
    title = track.title
    artist = track.artist
    album = track.album
    duration = track.duration
    self.addedBy = addedBy
    replayGain = track.replayGain
  }

  enum CodingKeys: String, CodingKey {
    case entry, path, title, artist, album, duration
    case addedBy = "added_by"
    case replayGain = "replaygain"
  }
}

/// What a room is playing: at room-clock time ``at`` (ms) entry ``entry`` was at
/// ``position`` (s), advancing in real time while ``playing``.
public struct RoomPlayback: Codable, Equatable, Sendable {
  public var entry: Int?
  public var path: String?
  public var duration: Double?
  public var playing: Bool
  public var position: Double
  public var at: Double

  public init(
    entry: Int?, path: String?, duration: Double?, playing: Bool, position: Double, at: Double
  ) {
    self.entry = entry
    self.path = path
    self.duration = duration
    self.playing = playing
    self.position = position
    self.at = at
  }

  /// Nothing to play, at room-clock time `at`.
  public static func stopped(at: Double) -> RoomPlayback {
    RoomPlayback(entry: nil, path: nil, duration: nil, playing: false, position: 0, at: at)
  }

  /// The track position (s) at room-clock time `now` (ms), never before 0 nor past the end.
  public func position(atRoomClock now: Double) -> Double {
    var position = self.position
    if playing { position += (now - at) / 1000 }
    if let duration { position = min(position, duration) }
    return max(0, position)
  }

  /// The room-clock time (ms) at which a playing track reaches its end; `nil` when paused or
  /// of unknown length.
  public var endsAt: Double? {
    guard playing, entry != nil, let duration else { return nil }
    return at + max(0, duration - position) * 1000
  }

  enum CodingKeys: String, CodingKey { case entry, path, duration, playing, position, at }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    // entry and path are written as null when nothing plays, as the protocol says.
    try container.encode(entry, forKey: .entry)
    try container.encode(path, forKey: .path)
    try container.encode(duration, forKey: .duration)
    try container.encode(playing, forKey: .playing)
    try container.encode(position, forKey: .position)
    try container.encode(at, forKey: .at)
  }
}

/// One chat message about a track.
public struct RoomChat: Codable, Equatable, Sendable {
  /// The server's number for the message, increasing.
  public var id: Int64
  /// The library path of the track playing when it arrived, or `nil`.
  public var track: String?
  /// The sender's display name.
  public var from: String
  /// The sender's member id.
  public var member: String
  /// The text, cleaned of every control character and escape sequence.
  public var text: String
  /// The server's wall clock, Unix seconds (for display only).
  public var sentAt: Int64

  public init(
    id: Int64, track: String?, from: String, member: String, text: String, sentAt: Int64
  ) {
    self.id = id
    self.track = track
    self.from = from
    self.member = member
    self.text = text
    self.sentAt = sentAt
  }

  enum CodingKeys: String, CodingKey {
    case id, track, from, member, text
    case sentAt = "sent_at"
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(track, forKey: .track)
    try container.encode(from, forKey: .from)
    try container.encode(member, forKey: .member)
    try container.encode(text, forKey: .text)
    try container.encode(sentAt, forKey: .sentAt)
  }
}

/// What the server sends when joining succeeds.
public struct RoomWelcome: Codable, Equatable, Sendable {
  public var `protocol`: Int
  public var room: String
  public var member: String
  public var hostOnly: Bool
  public var host: String?
  public var heartbeatSeconds: Double
  public var clock: Double

  /// A welcome in `protocolVersion` (the version both sides speak; this side's own by
  /// default).
  public init(
    room: String, member: String, hostOnly: Bool, host: String?, heartbeatSeconds: Double,
    clock: Double, protocolVersion: Int = RoomProtocol.version
  ) {
    self.protocol = protocolVersion
    self.room = room
    self.member = member
    self.hostOnly = hostOnly
    self.host = host
    self.heartbeatSeconds = heartbeatSeconds
    self.clock = clock
  }

  enum CodingKeys: String, CodingKey {
    case `protocol`, room, member, host, clock
    case hostOnly = "host_only"
    case heartbeatSeconds = "heartbeat_s"
  }
}

/// The error codes of the protocol.
public enum RoomErrorCode: String, Codable, Sendable {
  /// Not JSON, not an object, or a field of the wrong type.
  case malformed
  /// A `type` the server's version does not have (an older server, a newer request).
  case unknownType = "unknown_type"
  /// A binary frame.
  case binary
  /// `hello` missing, repeated, or of a version the server does not speak.
  case `protocol`
  /// Control by a member who is not the host, with `--host-only`.
  case notAllowed = "not_allowed"
  /// A path or entry that does not exist.
  case notFound = "not_found"
  /// Too many chat messages; `retry_after` says when to try again.
  case rateLimited = "rate_limited"
  /// A chat message over the limit.
  case tooLong = "too_long"
  /// A chat message with nothing left after cleaning.
  case empty
  /// Never from the server: the member's link dropped a request because the server could
  /// not be reached (nothing is kept to be sent later).
  case unreachable
}

/// A message from the room server to a member (docs/room-protocol.md).
public enum RoomEvent: Equatable, Sendable {
  case welcome(RoomWelcome)
  case members([RoomMember])
  case queue(entries: [RoomQueueEntry], current: Int?)
  case state(RoomPlayback)
  case history(track: String?, messages: [RoomChat])
  case chat(RoomChat)
  case notice(String)
  case error(code: RoomErrorCode, message: String, retryAfter: Double?)
  case library([RoomLibraryTrack])
  case time(id: Int, t0: Double, server: Double)
  case heartbeat(clock: Double)

  /// The message as one JSON text frame.
  public var json: String {
    let data = (try? Self.encoder.encode(Wire(self))) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
  }

  /// Reads one text frame from the server; `nil` for a type this version does not know
  /// (later versions may add some) or a frame that is not a message.
  public static func parse(_ text: String) -> RoomEvent? {
    (try? JSONDecoder().decode(Wire.self, from: Data(text.utf8)))?.event
  }

  private static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  /// The wire form: a `type` and the fields of that type, flat.
  private struct Wire: Codable {
    let event: RoomEvent?

    init(_ event: RoomEvent) { self.event = event }

    enum Keys: String, CodingKey {
      case type, members, entries, current, track, messages, text, code, message, tracks, id
      case t0, server, clock
      case retryAfter = "retry_after"
    }

    init(from decoder: any Decoder) throws {
      let keys = try decoder.container(keyedBy: Keys.self)
      let single = try decoder.singleValueContainer()
      switch try keys.decode(String.self, forKey: .type) {
      case "welcome": event = .welcome(try single.decode(RoomWelcome.self))
      case "members": event = .members(try keys.decode([RoomMember].self, forKey: .members))
      case "queue":
        event = .queue(
          entries: try keys.decode([RoomQueueEntry].self, forKey: .entries),
          current: try keys.decodeIfPresent(Int.self, forKey: .current))
      case "state": event = .state(try single.decode(RoomPlayback.self))
      case "history":
        event = .history(
          track: try keys.decodeIfPresent(String.self, forKey: .track),
          messages: try keys.decode([RoomChat].self, forKey: .messages))
      case "chat": event = .chat(try single.decode(RoomChat.self))
      case "notice": event = .notice(try keys.decode(String.self, forKey: .text))
      case "error":
        event = .error(
          code: (try? keys.decode(RoomErrorCode.self, forKey: .code)) ?? .malformed,
          message: try keys.decode(String.self, forKey: .message),
          retryAfter: try keys.decodeIfPresent(Double.self, forKey: .retryAfter))
      case "library": event = .library(try keys.decode([RoomLibraryTrack].self, forKey: .tracks))
      case "time":
        event = .time(
          id: try keys.decode(Int.self, forKey: .id), t0: try keys.decode(Double.self, forKey: .t0),
          server: try keys.decode(Double.self, forKey: .server))
      case "heartbeat": event = .heartbeat(clock: try keys.decode(Double.self, forKey: .clock))
      default: event = nil
      }
    }

    func encode(to encoder: any Encoder) throws {
      guard let event else { return }
      var keys = encoder.container(keyedBy: Keys.self)
      switch event {
      case .welcome(let welcome):
        try keys.encode("welcome", forKey: .type)
        try welcome.encode(to: encoder)
      case .members(let members):
        try keys.encode("members", forKey: .type)
        try keys.encode(members, forKey: .members)
      case .queue(let entries, let current):
        try keys.encode("queue", forKey: .type)
        try keys.encode(entries, forKey: .entries)
        try keys.encode(current, forKey: .current)
      case .state(let playback):
        try keys.encode("state", forKey: .type)
        try playback.encode(to: encoder)
      case .history(let track, let messages):
        try keys.encode("history", forKey: .type)
        try keys.encode(track, forKey: .track)
        try keys.encode(messages, forKey: .messages)
      case .chat(let chat):
        try keys.encode("chat", forKey: .type)
        try chat.encode(to: encoder)
      case .notice(let text):
        try keys.encode("notice", forKey: .type)
        try keys.encode(text, forKey: .text)
      case .error(let code, let message, let retryAfter):
        try keys.encode("error", forKey: .type)
        try keys.encode(code, forKey: .code)
        try keys.encode(message, forKey: .message)
        try keys.encodeIfPresent(retryAfter, forKey: .retryAfter)
      case .library(let tracks):
        try keys.encode("library", forKey: .type)
        try keys.encode(tracks, forKey: .tracks)
      case .time(let id, let t0, let server):
        try keys.encode("time", forKey: .type)
        try keys.encode(id, forKey: .id)
        try keys.encode(t0, forKey: .t0)
        try keys.encode(server, forKey: .server)
      case .heartbeat(let clock):
        try keys.encode("heartbeat", forKey: .type)
        try keys.encode(clock, forKey: .clock)
      }
    }
  }
}
