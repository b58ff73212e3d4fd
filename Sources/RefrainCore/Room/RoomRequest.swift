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
  /// Moves a queue entry to index `to` (from 0) of the queue.
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
        let move = try decoder.decode(Move.self, from: data)
        return .queueMove(entry: move.entry, to: move.to)
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
  private struct Move: Decodable {
    let entry: Int
    let to: Int
  }
  private struct OptionalEntry: Decodable { let entry: Int? }
  private struct Seek: Decodable { let position: Double }
  private struct Chat: Decodable { let text: String }

  /// The request as one JSON text frame.
  public var json: String {
    var object: [String: Any]
    switch self {
    case .hello(let version, let name):
      object = ["type": "hello", "protocol": version, "name": name]
    case .time(let id, let t0): object = ["type": "time", "id": id, "t0": t0]
    case .alive: object = ["type": "alive"]
    case .library: object = ["type": "library"]
    case .queueAdd(let path): object = ["type": "queue_add", "path": path]
    case .queueRemove(let entry): object = ["type": "queue_remove", "entry": entry]
    case .queueMove(let entry, let to): object = ["type": "queue_move", "entry": entry, "to": to]
    case .play(let entry):
      object = ["type": "play"]
      if let entry { object["entry"] = entry }
    case .pause: object = ["type": "pause"]
    case .seek(let position): object = ["type": "seek", "position": position]
    case .next: object = ["type": "next"]
    case .chat(let text): object = ["type": "chat", "text": text]
    }
    let data =
      (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }
}
