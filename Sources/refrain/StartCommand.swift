import ArgumentParser
import Foundation
import Logging
import RefrainAudio
import RefrainCatalog
import RefrainConfig
import RefrainCore
import RefrainDesktop
import RefrainJapanese
import RefrainLRCLIB
import RefrainSession
import RefrainTUI

/// `refrain` with no subcommand: the full-screen player.
struct StartCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "start", abstract: "Start the full-screen player (the default).",
    shouldDisplay: false)

  @Option(
    help:
      "The catalog to open: demo, local, deezer, spotify or subsonic (default: config.toml's, else demo)."
  )
  var provider: RefrainConfiguration.Provider?

  @Option(help: "Audio output: pulse, or null (silent, real-time clock) (default: config.toml's).")
  var output: RefrainConfiguration.Output?

  @Option(help: "The control socket for `refrain ctl` (default: $XDG_RUNTIME_DIR/refrain/socket).")
  var socket: String?

  @Option(help: "Join a listening room: ws://HOST:PORT/rooms/NAME (docs/rooms.md).")
  var room: String?

  @Option(help: "The room server's token (or REFRAIN_ROOM_TOKEN).")
  var token: String?

  @Option(help: "The name others see in the room (default: $USER).")
  var name: String?

  /// The full-screen player's options as `refrain --help` shows them first, above the
  /// subcommands, with an example: read from this command's own help, so the two agree.
  static var playerHelp: String {
    // 78 columns: `refrain --help` wraps its discussion at 80, and a wider line would break.
    let own = helpMessage(columns: 78)
    let options =
      own.range(of: "OPTIONS:").map { String(own[$0.lowerBound...]) }?
      .split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.contains("-h, --help") && !$0.contains("Show help information") }
      .joined(separator: "\n") ?? ""
    return """
      With no subcommand, refrain opens the full-screen player.

      Examples:
        refrain                                   the demo catalog, or config.toml's
        refrain --provider local                  your scanned music
        refrain --room ws://HOST:7700/rooms/NAME --token T   join a listening room

      PLAYER \(options.trimmingCharacters(in: .whitespacesAndNewlines))
      """
  }

  func validate() throws {
    if let room {
      if let problem = RoomProtocol.problem(withRoomURL: room) {
        throw ValidationError("--room: \(problem)")
      }
    }
  }

  func run() throws {
    let environment = ProcessInfo.processInfo.environment
    RefrainLogging.bootstrap(environment: environment)
    let logger = Logger(label: "refrain.start")
    let loaded = RefrainConfiguration.load(environment: environment)
    for problem in loaded.problems { logger.warning("\(problem.description)") }
    let config = loaded.configuration
    // libpulse reads PULSE_SERVER; the variable, when set, wins over the file.
    if let server = config.pulseServer(environment: environment) {
      setenv("PULSE_SERVER", server, 0)
    }
    let socketPath = socket ?? UnixSocket.defaultPath()
    do {
      try ControlServer.checkFree(socketPath)
    } catch {
      Console.error("refrain: \(error)")
      throw ExitCode(1)
    }
    // A room is checked before the screen is taken: what is missing is said on the terminal.
    let token = self.token ?? environment["REFRAIN_ROOM_TOKEN"]
    if room != nil {
      guard let token, !token.isEmpty else {
        throw ValidationError("a room needs its token: --token T or REFRAIN_ROOM_TOKEN")
      }
      _ = try RoomCommand.helper()
    }
    guard isatty(STDOUT_FILENO) != 0 else {
      throw ValidationError("the full-screen player needs a terminal; try `refrain play FILE`")
    }
    let catalog: any CatalogProvider
    do {
      catalog = try makeProvider(
        provider ?? config.provider, configuration: config, environment: environment)
    } catch {
      Console.error("refrain: \(error)")
      throw ExitCode(1)
    }
    var notice: String? = loaded.notice
    let audio: any AudioOutput
    if (output ?? config.output) == .pulse {
      do {
        try PulseOutput.probe()
        audio = PulseOutput(
          bufferTarget: config.bufferTarget(environment: environment),
          sink: config.pulseSink)
      } catch {
        notice = "no audio server: set PULSE_SERVER — playing silently"
        logger.warning("no audio server", metadata: ["error": "\(error)"])
        audio = NullOutput()
      }
    } else {
      audio = NullOutput()
    }
    let library: LibraryStore?
    do {
      library = try LibraryStore.openDefault()
    } catch {
      library = nil
      notice = notice ?? "library unavailable: \(error)"
    }
    let engine = PlayerEngine(output: audio, replayGain: ReplayGainSetup.policy(config))
    let session = Session(
      player: engine, library: library, storage: library,
      lyricsLoader: LyricsLoading.makeLoader(
        environment: environment, configuration: config, library: library))
    session.lyricsCache = LyricsLoading.cache(environment: environment, library: library)
    session.describe = TrackDescription.fromTags
    session.catalog = catalog
    // Scrobbling: a front end of the session, on when a service's credentials are complete.
    let scrobbling = library.flatMap {
      ScrobbleSetup(configuration: config, environment: environment)
        .attach(to: session, store: $0, environment: environment)
    }
    var dependencies = AppDependencies(
      session: session, provider: catalog, keyMap: config.keyMap(),
      startupNotice: notice, lyricHighlight: config.lyricHighlight,
      colors: config.usesColors && environment["NO_COLOR"] == nil,
      covers: CoverFetching.covers(mode: config.coverArt, environment: environment),
      log: { Logger(label: "refrain.covers").info("\($0)") })
    dependencies.romanize = config.romanize
    Romanizer.useJapaneseDictionary(MeCabDictionary())  // opened when a line is first romanized
    let app = App(dependencies)
    // Nothing may write to the terminal while curses owns it.
    let log = ProcessInfo.processInfo.environment["REFRAIN_STDERR_LOG"] ?? "/dev/null"
    if !FileManager.default.fileExists(atPath: log) {
      FileManager.default.createFile(atPath: log, contents: nil)
    }
    if let handle = FileHandle(forWritingAtPath: log) {
      handle.seekToEndOfFile()
      dup2(handle.fileDescriptor, STDERR_FILENO)
    }
    let memberName = name ?? environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "guest"
    // `:room join URL` and `refrain ctl room join URL`, with the token the player was started
    // with: a token is never typed into a command.
    session.roomJoiner = { [unowned session] url in
      guard let token, !token.isEmpty else {
        throw RoomJoinProblem(
          "a room needs its token: start refrain with REFRAIN_ROOM_TOKEN set (or --token)")
      }
      guard let helper = RoomCommand.helperPath() else {
        throw RoomJoinProblem("listening rooms need refrain-room beside refrain (`make rooms`)")
      }
      return try RoomLinkProcess(
        helper: helper, url: url, token: token, name: memberName, session: session)
    }
    if let room {
      // The same command as `:room join URL`, so the same checks and the same answer.
      if case .failed(let reason) = session.execute(.room(.join(url: room))) {
        throw ValidationError("cannot join the room: \(reason)")
      }
      app.handle(.show(.room))
    }
    session.libraryImport = { progress in
      let importer = try SpotifyCommand.makeImporter(
        configuration: config, environment: environment, rematch: false)
      let summary = try await importer.run { step in
        progress(
          LibraryImportProgress(
            stage: step.notice ?? step.stage, done: step.done, total: step.total))
      }
      return "Spotify: \(summary.tracks) tracks, \(summary.unmatched) unplayable, "
        + "\(summary.matchedLocal) from your files, "
        + (summary.matchedSubsonic > 0 ? "\(summary.matchedSubsonic) from your server, " : "")
        + "\(summary.matchedPreview) previews "
        + "(\(summary.playlists) playlists, \(summary.albums) albums)"
    }
    session.publishingUnavailable =
      "publishing needs an LRCLIB service, and online.lrclib_url is empty (see docs/config.md)"
    if let base = config.lrclibURL(environment: environment) {
      session.lyricsPublisher = LyricsPublishing(
        describe: { track in try LyricsPublishCommand.submission(for: track, to: base).1 },
        publish: { track, progress in
          let (submission, _) = try LyricsPublishCommand.submission(for: track, to: base)
          try await LRCLIBPublisher(baseURL: base).publish(submission, progress: progress)
        })
    }
    let host = SessionHost(session: session, engine: engine)
    let screen = MainLoop(
      app: app, colors: config.usesColors && environment["NO_COLOR"] == nil,
      mouse: config.mouse, covers: config.coverArt, environment: environment)
    // In a room, the room decides what plays; alone, the last session comes back.
    if session.room == nil { host.restoreSession(into: screen) }
    do {
      try host.serveControl(
        path: socketPath, frontEnd: { app.answerOwn($0, reply: $1) },
        status: { app.sessionStatus })
    } catch {
      Console.error("refrain: \(error)")
      throw ExitCode(1)
    }
    host.startMPRIS(
      enabled: config.mpris, notifies: config.notify, environment: environment,
      onQuit: { app.handle(remote: .quit) })
    host.scrobbling = scrobbling
    host.savesSession = true
    host.run(screen)
    // The screen is gone: waiting here for the edits still being stored, then the save, is
    // what keeps them.
    host.saveSessionAndWait(screen)
    // What could not be stored (the session on a full disk) is said on stderr: the status
    // line is gone.
    var unsaved: [String] = []
    session.subscribe { event in
      if case .notice(let text, isError: true) = event { unsaved.append(text) }
    }
    session.drainInbox()
    for line in unsaved { Console.error("refrain: \(line)") }
    session.close()
    // A listen just counted is written before the process ends; sending can wait for the
    // next run (the queue is in the library).
    scrobbling?.finish()
    engine.shutdown()
  }
}

/// Why a running player could not join a room, in one line.
struct RoomJoinProblem: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
