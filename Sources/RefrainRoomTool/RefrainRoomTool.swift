import ArgumentParser
import Foundation
import RefrainCatalog
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

  @Option(name: .long, help: "HOST:PORT to listen on (port 0: any free port).")
  var listen = "127.0.0.1:7700"

  @Option(
    name: .long, help: "A folder of music to share (repeatable): every format the scan indexes.")
  var library: [String] = []

  @Flag(name: .long, help: "Only the first member (the host) controls playback and the queue.")
  var hostOnly = false

  @Option(name: .long, help: "Seconds between heartbeats; a member silent for two is dropped.")
  var heartbeat = RoomProtocol.defaultHeartbeat

  @Option(
    name: .long,
    help: "Seconds a new connection has to send its first request, token included.")
  var headerTimeout = ConnectionLimits().headerTimeout

  @Option(name: .long, help: "Connections waiting to send their token, from every address.")
  var maxPending = ConnectionLimits().maxPending

  @Option(name: .long, help: "Connections waiting to send their token, from one address.")
  var maxPendingPerAddress = ConnectionLimits().maxPendingPerAddress

  @Option(name: .long, help: "Seconds an HTTP connection may sit idle between requests.")
  var idleTimeout = ConnectionLimits().idleTimeout

  /// The connection limits the options ask for, before they are fitted to the process's
  /// descriptor limit.
  var limits: ConnectionLimits {
    var limits = ConnectionLimits()
    limits.headerTimeout = headerTimeout
    limits.maxPending = maxPending
    limits.maxPendingPerAddress = maxPendingPerAddress
    limits.idleTimeout = idleTimeout
    return limits
  }

  func validate() throws {
    guard headerTimeout >= 0.1, headerTimeout <= 600 else {
      throw ValidationError("--header-timeout is between 0.1 and 600 seconds, not \(headerTimeout)")
    }
    guard idleTimeout >= 0.1, idleTimeout <= 3600 else {
      throw ValidationError("--idle-timeout is between 0.1 and 3600 seconds, not \(idleTimeout)")
    }
    guard maxPending >= 1, maxPendingPerAddress >= 1 else {
      throw ValidationError("--max-pending and --max-pending-per-address are at least 1")
    }
    guard heartbeat >= 0.1, heartbeat <= 300 else {
      throw ValidationError("--heartbeat is between 0.1 and 300 seconds, not \(heartbeat)")
    }
    guard Self.address(listen) != nil else {
      throw ValidationError("--listen is HOST:PORT (for example 127.0.0.1:7700), not '\(listen)'")
    }
    for folder in library {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder),
        isFolder.boolValue
      else { throw ValidationError("--library \(folder): no such folder") }
    }
  }

  static func address(_ text: String) -> (host: String, port: Int)? {
    guard let colon = text.lastIndex(of: ":") else { return nil }
    var host = String(text[..<colon])
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard !host.isEmpty, let port = Int(text[text.index(after: colon)...]),
      (0...65535).contains(port)
    else { return nil }
    return (host, port)
  }

  func run() async throws {
    let environment = ProcessInfo.processInfo.environment
    let (host, port) = Self.address(listen)!
    let data = RoomToken.dataDirectory(environment: environment)
    let token: String
    let chat: ChatStore
    do {
      token = try RoomToken.loadOrCreate(at: RoomToken.fileURL(environment: environment))
      chat = try ChatStore(url: data.appendingPathComponent("rooms.sqlite"))
    } catch {
      Self.fail("\(error)")
    }
    let reader = AudioTagReader()
    let shared = SharedLibrary(folders: library.map { URL(fileURLWithPath: $0) }) { path in
      let info = try? reader.readTags(atPath: path)
      return (info?.title, info?.artist, info?.album, info?.duration)
    }
    let log: @Sendable (String) -> Void = { line in
      FileHandle.standardError.write(Data("refrain-room: \(line)\n".utf8))
    }
    log("sharing \(shared.tracks.count) tracks from \(library.count) folder(s)")
    let descriptors = ConnectionLimits.raiseDescriptorLimit()
    let fitted = limits.fitted(toDescriptors: descriptors)
    log(
      "holding up to \(fitted.maxConnections) connections (descriptor limit \(descriptors), "
        + "\(fitted.reservedDescriptors) kept for the chat and the library); "
        + "at most \(fitted.maxPending) waiting for their token, "
        + "\(fitted.maxPendingPerAddress) per address, "
        + "\(Self.seconds(fitted.headerTimeout)) each")
    let server = RoomServer(
      options: .init(
        host: host, port: port, hub: .init(hostOnly: hostOnly, heartbeat: heartbeat),
        limits: fitted),
      library: shared, chat: chat, token: token, monotonic: Self.monotonic,
      wallClock: { Int64(Date().timeIntervalSince1970) }, log: log)
    do {
      try await server.run { bound in
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let line: [String: String] = [
          "event": "listening", "url": "ws://\(shownHost):\(bound)", "token": token,
        ]
        let data =
          (try? JSONSerialization.data(
            withJSONObject: line, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        FileHandle.standardOutput.write(data + Data("\n".utf8))
      }
    } catch {
      Self.fail("cannot serve on \(listen): \(error)")
    }
  }

  /// "10 s", "0.5 s".
  static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
  }

  static func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("refrain room serve: \(message)\n".utf8))
    Foundation.exit(1)
  }

  /// Seconds on CLOCK_MONOTONIC.
  @Sendable static func monotonic() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
  }
}

/// `refrain-room link`: what a Refrain player runs to join a room.
struct Link: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Join a room for a player: JSON lines in on stdin, out on stdout.")

  @Argument(help: "The room: ws://HOST:PORT/rooms/NAME or wss://….")
  var url: String

  @Option(name: .long, help: "The server's token.")
  var token: String

  @Option(name: .long, help: "The name the others see.")
  var name: String

  func validate() throws {
    if let problem = RoomProtocol.problem(withRoomURL: url) { throw ValidationError(problem) }
  }

  func run() async throws {
    let status = await RoomLink(options: .init(url: url, token: token, name: name)).run()
    if status != 0 { throw ExitCode(status) }
  }
}
