import ArgumentParser
import Foundation
import RefrainCore
import RefrainRoom
import RefrainTags

/// `refrain-room`: listening rooms, in a process of their own so that the WebSocket stack
/// (Hummingbird, SwiftNIO) never loads into the player. `refrain room serve` runs it, and
/// a player that joins a room runs `refrain-room link` beside itself.
@main
struct RefrainRoomTool: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "refrain-room",
    abstract: "Listening rooms for Refrain: the server, and a member's link to one.",
    subcommands: [Serve.self, Link.self])
}

/// `refrain-room serve` (what `refrain room serve` runs).
struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Serve listening rooms and share the audio files of the library folders.",
    discussion: """
      Prints one JSON line when it listens: {"event":"listening","url":…,"token":…}. Every \
      connection needs the token (kept in $XDG_DATA_HOME/refrain/room-token, mode 0600).
      """)

  @OptionGroup var options: ServeOptions

  /// The line printed once the server listens.
  private struct Listening: Encodable {
    var event = "listening"
    var url: String
    var token: String
  }

  func run() async throws {
    let environment = ProcessInfo.processInfo.environment
    let (host, port) = options.address
    let data = RoomToken.dataDirectory(environment: environment)
    let log: @Sendable (String) -> Void = { line in
      Console.error("refrain-room: \(line)")
    }
    let token: String
    let store: RoomStore
    do {
      token = try RoomToken.loadOrCreate(at: RoomToken.fileURL(environment: environment))
      store = try RoomStore.open(url: data.appendingPathComponent("rooms.sqlite"), log: log)
    } catch {
      Self.fail("\(error)")
    }
    let reader = AudioTagReader()
    let shared = SharedLibrary(folders: options.library.map { URL(fileURLWithPath: $0) }) { path in
      let info = try? reader.readTags(atPath: path)
      return (info?.title, info?.artist, info?.album, info?.duration)
    }
    log("sharing \(shared.tracks.count) tracks from \(options.library.count) folder(s)")
    let descriptors = ConnectionLimits.raiseDescriptorLimit()
    let fitted = options.limits.fitted(toDescriptors: descriptors)
    log(
      "holding up to \(fitted.maxConnections) connections (descriptor limit \(descriptors), "
        + "\(fitted.reservedDescriptors) kept for the chat and the library); "
        + "at most \(fitted.maxPending) waiting for their token, "
        + "\(fitted.maxPendingPerAddress) per address, "
        + "\(Self.seconds(fitted.headerTimeout)) each")
    let server = RoomServer(
      options: .init(
        host: host, port: port,
        hub: .init(hostOnly: options.hostOnly, heartbeat: options.heartbeat),
        limits: fitted),
      library: shared, store: store, token: token, monotonic: Self.monotonic,
      wallClock: { Date().timeIntervalSince1970 }, log: log)
    do {
      try await server.run { bound in
        let shownHost = host.contains(":") ? "[\(host)]" : host
        Console.line(JSONOutput.line(Listening(url: "ws://\(shownHost):\(bound)", token: token)))
      }
    } catch {
      Self.fail("cannot serve on \(options.listen): \(error)")
    }
  }

  /// "10 s", "0.5 s".
  static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
  }

  static func fail(_ message: String) -> Never {
    Console.error("refrain room serve: \(message)")
    Foundation.exit(1)
  }

  /// Seconds on CLOCK_MONOTONIC.
  @Sendable static func monotonic() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
  }
}

/// `refrain-room link`: what a Refrain player runs to join a room. The token comes from the
/// environment, never the command line, which every user of the machine can read (`ps`).
struct Link: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Join a room for a player: JSON lines in on stdin, out on stdout.",
    discussion: "The server's token is read from REFRAIN_ROOM_TOKEN.")

  @Argument(help: "The room: ws://HOST:PORT/rooms/NAME or wss://….")
  var url: String

  @Option(name: .long, help: "The name the others see.")
  var name: String

  func validate() throws {
    if let problem = RoomProtocol.problem(withRoomURL: url) { throw ValidationError(problem) }
  }

  func run() async throws {
    guard let token = ProcessInfo.processInfo.environment["REFRAIN_ROOM_TOKEN"], !token.isEmpty
    else { throw ValidationError("the room's token goes in REFRAIN_ROOM_TOKEN") }
    let status = await RoomLink(options: .init(url: url, token: token, name: name)).run()
    if status != 0 { throw ExitCode(status) }
  }
}
