import Foundation

/// A message from a member to the room server (docs/room-protocol.md).
public enum RoomRequest: Equatable, Sendable {
  /// The first message: the protocol version and the display name.
  case hello(protocolVersion: Int, name: String)
  /// A clock probe: `t0` is the member's clock in ms, echoed back with the room clock.
  case time(id: Int, t0: Double)
  /// The answer to a heartbeat.
  case alive
  /// Asks for the shared library.
  case library
  /// Appends a library track to the queue.
  case queueAdd(path: String)
  /// Removes a queue entry.
  case queueRemove(entry: Int)
  /// Moves queue entry `entry` to index `to` of the queue (0 is the first; an index past
  /// the end moves it last). Protocol 2.
  case queueMove(entry: Int, to: Int)
  /// Resumes, or starts `entry` (or the current one) from the beginning.
  case play(entry: Int?)
  /// Pauses.
  case pause
  /// Moves the current track to `position` seconds.
  case seek(position: Double)
  /// Starts the next entry.
  case next
  /// A chat message about the track that is playing.
  case chat(text: String)

  /// Why a frame is not a request.
  public enum ParseError: Error, Equatable, Sendable {
    /// Not JSON, not an object, or a field missing or of the wrong type.
    case malformed(String)
    /// A `type` this version does not have.
    case unknownType(String)
  }

  /// Whether the request changes playback or the queue (what `--host-only` keeps to the
  /// host).
  public var isControl: Bool {
    switch self {
    case .queueAdd, .queueRemove, .queueMove, .play, .pause, .seek, .next: return true
    case .hello, .time, .alive, .library, .chat: return false
    }
  }

  /// Reads one text frame.
  public static func parse(_ text: String) throws(ParseError) -> RoomRequest {
    let data = Data(text.utf8)
    let decoder = JSONDecoder()
    let type: String
    do {
      type = try decoder.decode(Envelope.self, from: data).type
    } catch {
      throw ParseError.malformed(
        "a message is a JSON object with a \"type\" string")
    }
    do {
      switch type {
      case "hello":
        let hello = try decoder.decode(Hello.self, from: data)
        return .hello(protocolVersion: hello.protocol, name: hello.name)
      case "time":
        let time = try decoder.decode(Time.self, from: data)
        return .time(id: time.id, t0: time.t0)
      case "alive": return .alive
      case "library": return .library
      case "queue_add": return .queueAdd(path: try decoder.decode(Path.self, from: data).path)
      case "queue_remove":
        return .queueRemove(entry: try decoder.decode(Entry.self, from: data).entry)
      case "queue_move":
        let move = try decoder.decode(Wire.self, from: data)
        guard let entry = move.entry, let index = move.to else {
          throw ParseError.malformed("\"queue_move\" needs \"entry\" and \"to\"")
        }
        guard index >= 0 else { throw ParseError.malformed("\"to\" is an index from 0") }
        return .queueMove(entry: entry, to: index)
      case "play": return .play(entry: try decoder.decode(OptionalEntry.self, from: data).entry)
      case "pause": return .pause
      case "seek":
        let seek = try decoder.decode(Seek.self, from: data)
        guard seek.position.isFinite else { throw ParseError.malformed("a position is finite") }
        return .seek(position: seek.position)
      case "next": return .next
      case "chat": return .chat(text: try decoder.decode(Chat.self, from: data).text)
      default:
        let shown = TerminalSanitizer.clean(String(type.prefix(40)))
        throw ParseError.unknownType("no message of type \"\(shown)\"")
      }
    } catch let error as ParseError {
      throw error
    } catch let DecodingError.keyNotFound(key, _) {
      throw ParseError.malformed("\"\(type)\" needs \"\(key.stringValue)\"")
    } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context)
    {
      let key = context.codingPath.last?.stringValue ?? "a field"
      throw ParseError.malformed("\"\(type)\": \"\(key)\" has the wrong type")
    } catch {
      throw ParseError.malformed("\"\(type)\" is not as the protocol describes")
    }
  }

  private struct Envelope: Decodable { let type: String }
  private struct Hello: Decodable {
    let `protocol`: Int
    let name: String
  }
  private struct Time: Decodable {
    let id: Int
    let t0: Double
  }
  private struct Path: Decodable { let path: String }
  private struct Entry: Decodable { let entry: Int }
  private struct OptionalEntry: Decodable { let entry: Int? }
  private struct Seek: Decodable { let position: Double }
  private struct Chat: Decodable { let text: String }

  /// Every request's fields, flat beside its `type`; a field a request does not have is
  /// left out of its JSON.
  private struct Wire: Codable {
    var type: String
    var `protocol`: Int?
    var name: String?
    var id: Int?
    var t0: Double?
    var path: String?
    var entry: Int?
    var to: Int?
    var position: Double?
    var text: String?

    init(
      _ type: String, protocol version: Int? = nil, name: String? = nil, id: Int? = nil,
      t0: Double? = nil, path: String? = nil, entry: Int? = nil, to: Int? = nil,
      position: Double? = nil, text: String? = nil
    ) {
      self.type = type
      self.protocol = version
      self.name = name
      self.id = id
      self.t0 = t0
      self.path = path
      self.entry = entry
      self.to = to
      self.position = position
      self.text = text
    }
  }

  /// The request's fields on the wire.
  private var wire: Wire {
    switch self {
    case .hello(let version, let name): return Wire("hello", protocol: version, name: name)
    case .time(let id, let t0): return Wire("time", id: id, t0: t0)
    case .alive: return Wire("alive")
    case .library: return Wire("library")
    case .queueAdd(let path): return Wire("queue_add", path: path)
    case .queueRemove(let entry): return Wire("queue_remove", entry: entry)
    case .queueMove(let entry, let index): return Wire("queue_move", entry: entry, to: index)
    case .play(let entry): return Wire("play", entry: entry)
    case .pause: return Wire("pause")
    case .seek(let position): return Wire("seek", position: position)
    case .next: return Wire("next")
    case .chat(let text): return Wire("chat", text: text)
    }
  }

  private static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  /// The request as one JSON text frame (keys sorted).
  public var json: String {
    let data = (try? Self.encoder.encode(wire)) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
  }
}
