import ArgumentParser
import Foundation
import Logging
import RefrainAudio
import RefrainCatalog
import RefrainConfig
import RefrainCore
import RefrainSession

/// `refrain play`: plays files or URLs without the full-screen UI.
struct PlayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "play",
    abstract:
      "Play audio files (MP3, FLAC, Ogg Vorbis, Opus, M4A, WAV), URLs or internet radio without the full-screen player.",
    discussion: """
      Several files play as a queue. A URL of an Icecast or SHOUTcast stream, or a .pls, .m3u \
      or .m3u8 playlist, plays internet radio: its titles are shown and it reconnects when it \
      drops. With --events, stdout carries one JSON object per line (start, position, line, \
      end, error; for radio metadata, reconnecting, reconnected; for a server that stops \
      sending stalled, flowing), and stdin accepts commands, \
      one per line:
      pause, resume, toggle, seek SEC, seek +SEC, seek -SEC, volume N, line N (seek to lyric \
      line N), nudge ±MS (shift the lyrics), next, stop.
      """)

  @Argument(help: "Audio files, http(s) URLs, or radio playlists (.pls, .m3u, .m3u8).")
  var items: [String]

  @Option(
    help: "Audio output: pulse, null (a silent real-time clock) or wav:PATH (wav:- for stdout).")
  var output: PlayOutput = .pulse

  @Option(help: "Start the first track at this many seconds.")
  var start: Double = 0

  @Option(help: "Play at most this many seconds of each track (to the frame).")
  var duration: Double?

  @Option(help: "Volume in percent, 0 to 100.")
  var volume: Int = 100

  @Option(help: "A lyrics file (LRC or FLO song JSON) for the first track.")
  var lyrics: String?

  @Flag(help: "Print JSON events on stdout and read commands from stdin.")
  var events = false

  @Option(
    help:
      "A control socket that answers `refrain ctl --socket PATH` (status, transport, queue, lyrics)."
  )
  var socket: String?

  func validate() throws {
    guard (0...100).contains(volume) else { throw ValidationError("--volume takes 0 to 100") }
    guard start >= 0 else { throw ValidationError("--start takes a position of 0 or more") }
    if let duration, duration <= 0 { throw ValidationError("--duration takes a positive length") }
    if events, output == .wav("-") {
      throw ValidationError("--events and --output wav:- would both write to standard output")
    }
  }

  func run() throws {
    let environment = ProcessInfo.processInfo.environment
    let audioOutput = try output.make(events: events, environment: environment)
    RefrainLogging.bootstrap(environment: environment)
    let loaded = RefrainConfiguration.load(environment: environment)
    let logger = Logger(label: "refrain.play")
    for problem in loaded.problems { logger.warning("\(problem.description)") }
    let tracks = items.map(Track.init(argument:))
    let scrobble = scrobbling(configuration: loaded.configuration)
    let session: HeadlessSession
    do {
      session = try HeadlessSession(
        tracks: tracks, output: audioOutput,
        options: .init(
          start: start, duration: duration, volume: volume, events: events,
          lyricsPath: lyrics, socket: socket, mpris: loaded.configuration.mpris,
          notify: loaded.configuration.notify,
          replayGain: ReplayGainSetup.policy(loaded.configuration)),
        scrobble: scrobble)
    } catch {
      Self.fail("\(error)", events: events)
      throw ExitCode(1)
    }
    let failures = session.run()
    if failures > 0 { throw ExitCode(1) }
  }

  /// Scrobbling for this run, when config.toml turns a service on: the library opened for
  /// its queue and the log set up. `nil` when no service is on.
  private func scrobbling(configuration: RefrainConfiguration) -> (
    (Session) -> ScrobbleAttachment?
  )? {
    let environment = ProcessInfo.processInfo.environment
    let setup = ScrobbleSetup(configuration: configuration, environment: environment)
    guard !setup.clients.isEmpty else { return nil }
    let store: LibraryStore
    do {
      store = try LibraryStore.openDefault(environment: environment)
    } catch {
      Console.error("refrain: scrobbling is off for this run: the library: \(error)")
      return nil
    }
    return { session in setup.attach(to: session, store: store, environment: environment) }
  }

  /// Reports an error as one line on stderr, and as an `error` event with `--events`.
  static func fail(_ message: String, events: Bool) {
    Console.error("refrain: \(message)")
    if events {
      PlayEvent.error(message).write()
    }
  }
}

/// Where `refrain play` sends its audio: `pulse`, `null` or `wav:PATH`.
enum PlayOutput: ExpressibleByArgument, Equatable {
  case pulse
  case null
  case wav(String)

  init?(argument: String) {
    switch argument {
    case "pulse": self = .pulse
    case "null": self = .null
    default:
      guard argument.hasPrefix("wav:"), argument.count > 4 else { return nil }
      self = .wav(String(argument.dropFirst(4)))
    }
  }

  static var allValueStrings: [String] { ["pulse", "null", "wav:PATH"] }

  /// The output, once PulseAudio answers (else one line on stderr, an `error` event with
  /// `events`, and exit status 3).
  func make(events: Bool, environment: [String: String]) throws -> any AudioOutput {
    switch self {
    case .pulse:
      do {
        try PulseOutput.probe()
      } catch {
        PlayCommand.fail("\(error)", events: events)
        throw ExitCode(3)
      }
      return PulseOutput(
        bufferTarget: RefrainConfiguration().bufferTarget(environment: environment))
    case .null:
      return NullOutput()
    case .wav(let path):
      return WavOutput(path: path)
    }
  }
}
