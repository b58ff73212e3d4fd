import ArgumentParser
import Foundation
import RefrainAudio
import RefrainConfig
import RefrainCore

/// `refrain room`: listening rooms. The server and the WebSocket link run in
/// `refrain-room`, installed beside `refrain`, so the player never loads them.
struct RoomCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "room",
    abstract: "Listen together: serve a room, or join one without the full-screen player.",
    subcommands: [RoomServeCommand.self, RoomJoinCommand.self])

  /// `refrain-room` beside this binary, or in ../lib/refrain (an installed Refrain).
  static func helper() throws -> String {
    if let found = helperPath() { return found }
    let places = helperPlaces
    // One line, without the usage text a ValidationError adds: nothing was typed wrong.
    Console.error(
      "refrain: listening rooms need refrain-room beside refrain (looked in "
        + places.joined(separator: " and ")
        + "): build it with `make rooms` (about 5 minutes), or `make install`")
    throw ExitCode(1)
  }

  /// Where `refrain-room` may be: beside this binary, or in `../lib/refrain`.
  static var helperPlaces: [String] {
    let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let folder = binary.deletingLastPathComponent()
    return [
      folder.appendingPathComponent("refrain-room").path,
      folder.appendingPathComponent("../lib/refrain/refrain-room").standardizedFileURL.path,
    ]
  }

  /// The `refrain-room` binary, or `nil` when none is installed.
  static func helperPath() -> String? {
    helperPlaces.first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}

/// `refrain room serve`: runs `refrain-room serve` in this process's place, with the
/// arguments as they were typed. The options are declared once, in `refrain-room`
/// (`ServeOptions`), which also answers `--help`.
struct RoomServeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve listening rooms and share the music of library folders.",
    discussion: """
      Prints one JSON line when it listens: {"event":"listening","url":"ws://…","token":"…"}. \
      Members join ws://HOST:PORT/rooms/NAME with the token (docs/rooms.md). The options \
      (--listen, --library, --host-only, …) are refrain-room serve's: `refrain room serve \
      --help` lists them.
      """,
    // --help goes to refrain-room serve, which knows the options.
    helpNames: [])

  @Argument(parsing: .allUnrecognized, help: "The options of refrain-room serve.")
  var arguments: [String] = []

  func run() throws {
    let helper = try RoomCommand.helper()
    let argv = ([helper, "serve"] + arguments).map { strdup($0) } + [nil]
    execv(helper, argv)
    throw ValidationError("cannot run \(helper): \(String(cString: strerror(errno)))")
  }
}

/// `refrain room join`: a headless room member.
struct RoomJoinCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "join",
    abstract: "Join a listening room without the full-screen player.",
    discussion: """
      With --events, stdout carries one JSON object per line (joined, member, chat, start, \
      position, line, end, sync, notice, room_lost, error) and stdin takes commands: \
      chat TEXT, queue add TRACK, queue remove N, play, play N, pause, seek SEC, next, quit.
      """)

  @Argument(help: "The room: ws://HOST:PORT/rooms/NAME (or wss://…).")
  var url: String

  @Option(help: "The server's token (or REFRAIN_ROOM_TOKEN).")
  var token: String?

  @Option(help: "The name the others see (default: $USER).")
  var name: String?

  @Option(help: "Audio output: pulse, null or wav:PATH.")
  var output: PlayOutput = .pulse

  @Flag(help: "Print JSON events on stdout and read commands from stdin.")
  var events = false

  @Option(
    help: "A control socket that answers `refrain ctl --socket PATH` (status, transport, chat).")
  var socket: String?

  func validate() throws {
    if let problem = RoomProtocol.problem(withRoomURL: url) { throw ValidationError(problem) }
  }

  func run() throws {
    let environment = ProcessInfo.processInfo.environment
    guard let token = token ?? environment["REFRAIN_ROOM_TOKEN"], !token.isEmpty else {
      throw ValidationError("a room needs its token: --token T or REFRAIN_ROOM_TOKEN")
    }
    let helper = try RoomCommand.helper()
    let audioOutput = try output.make(events: events, environment: environment)
    RefrainLogging.bootstrap(environment: environment)
    let member: HeadlessRoomMember
    let config = RefrainConfiguration.load(environment: environment).configuration
    do {
      member = try HeadlessRoomMember(
        helper: helper, url: url, token: token,
        name: name ?? environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "guest",
        output: audioOutput, events: events, socket: socket,
        replayGain: ReplayGainSetup.policy(config), mpris: config.mpris)
    } catch {
      PlayCommand.fail("\(error)", events: events)
      throw ExitCode(1)
    }
    let status = member.run()
    if status != 0 { throw ExitCode(status) }
  }
}
