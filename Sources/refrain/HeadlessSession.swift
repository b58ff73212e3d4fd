import Foundation
import RefrainAudio
import RefrainCore
import RefrainDesktop
import RefrainSession

/// Runs `refrain play`: a front end of one ``Session`` on a ``SessionHost``, which adds stdin
/// to the host's loop and one timer set to the next moment something is due (a position
/// event, a lyric line). The engine ends each track at the `--duration` limit, to the frame.
///
/// Commands on stdin are the language of `refrain ctl` and the `:` prompt (``CommandParser``);
/// `resume` and `line N` are kept as aliases of `play` and `lyrics line N`.
final class HeadlessSession: SessionFrontEnd {
  /// What `refrain play` was asked to do.
  struct Options {
    var start: Double
    var duration: Double?
    var volume: Int
    var events: Bool
    var lyricsPath: String?
    /// A control socket answering `refrain ctl --socket PATH`, if any.
    var socket: String?
    /// Whether to offer playback over MPRIS (`desktop.mpris`).
    var mpris = false
    /// Whether a desktop notification shows on each track change (`desktop.notify`).
    var notify = false
    /// Which ReplayGain each track plays with (`[playback]`).
    var replayGain = ReplayGainPolicy.off
  }

  private static let positionInterval = 0.2

  private let tracks: [Track]
  private let options: Options
  private let engine: PlayerEngine
  private let session: Session
  private var failures = 0
  private var nextPositionEvent = 0.0
  private var lyricsProblem: String?
  private let input: HeadlessInput
  private var done = false
  private let host: SessionHost

  /// Playback now.
  private var playback: PlaybackSnapshot { session.snapshot }

  /// The track whose `start` event went out last.
  private var startedTrack: Track?
  /// Which start still owes its `end`.
  private var ends = TrackEnds()

  /// Plays `tracks`; `scrobble`, when given, attaches scrobbling to the session.
  init(
    tracks: [Track], output: any AudioOutput, options: Options,
    scrobble: ((Session) -> ScrobbleAttachment?)? = nil
  ) throws {
    // Files are described by their tags, as scanned ones are (no screen waits on this).
    let tracks = tracks.map(TrackDescription.fromTags)
    self.tracks = tracks
    self.options = options
    engine = PlayerEngine(
      output: output, replayGain: options.replayGain, playLimit: options.duration)
    // --lyrics answers for the first track; the usual sources for the others.
    var explicit: LyricsDocument?
    if let path = options.lyricsPath {
      do {
        explicit = try LyricsDocument.load(from: URL(fileURLWithPath: path))
      } catch {
        lyricsProblem = "\(error)"
      }
    }
    let sources = LyricsLoading.makeLoader()
    let first = tracks.first
    let loader: @Sendable (Track) async -> LyricsResult = { [explicit] track in
      if track == first, let explicit { return .found(explicit, source: .sidecar) }
      return await sources(track)
    }
    session = Session(player: engine, lyricsLoader: loader, volume: options.volume)
    session.describe = TrackDescription.fromTags
    input = HeadlessInput(open: options.events)
    host = SessionHost(session: session, engine: engine)
    host.scrobbling = scrobble?(session)
    session.subscribe { [unowned self] event in self.report(event) }
    if let socket = options.socket {
      try host.serveControl(
        path: socket,
        frontEnd: { [unowned self] command, reply in
          guard command == .quit else { return false }
          _ = session.execute(.stop)
          done = true
          reply(.success("ok"))
          return true
        }, elsewhere: "works in the full-screen player, not in `refrain play`")
    }
    host.startMPRIS(
      enabled: options.mpris, notifies: options.notify,
      environment: ProcessInfo.processInfo.environment,
      onQuit: { [unowned self] in
        _ = session.execute(.stop)
        done = true
      })
  }

  /// Plays everything and returns how many tracks could not be played.
  func run() -> Int {
    if let lyricsProblem { report(lyricsProblem) }
    _ = session.execute(.playTracks(Command.TrackList(tracks, position: options.start)))
    host.run(self)
    endTrack(.quit)
    engine.shutdown()
    host.scrobbling?.finish()
    return failures
  }

  // MARK: - The host's front end

  func begin(on loop: PollLoop) {
    loop.watch(
      { [unowned self] in input.pollDescriptors },
      handler: { [unowned self] _ in
        for command in input.readCommands(warn: warn) { apply(command) }
      })
  }

  func afterWake() {
    tick()
    // `refrain play` exists to play its arguments: once playback has stopped (`stop` from
    // any door, or the queue's end), it ends.
    if playback.state == .stopped {
      endTrack(.stopped)
      done = true
    }
  }

  var isDone: Bool { done }

  func show(_ updates: [RoomFollower.Update]) {}  // `refrain play` joins no room

  func end() {}

  /// Seconds until a position event or a lyric line is due.
  func nextWake() -> Double? {
    guard playback.state == .playing else {
      // Paused or stopped, only stdin, ctl or MPRIS can move it on: sleep until they speak.
      return input.isOpen || host.mpris?.isRunning == true || host.control != nil
        || playback.state == .loading ? nil : 0.2
    }
    var wait = max(0, nextPositionEvent - MonotonicClock.now)
    if let change = session.nextLyricChange, let delay = engine.delay(untilPosition: change) {
      wait = min(wait, delay)
    }
    return wait
  }

  private func tick() {
    guard playback.state == .playing || playback.state == .paused else { return }
    let position = engine.position
    if let line = session.lyricLineChange() {
      emit(.line(index: line.index, t: position, text: line.text))
    }
    if playback.state == .playing, MonotonicClock.now >= nextPositionEvent {
      emit(.position(position))
      nextPositionEvent = MonotonicClock.now + Self.positionInterval
    }
  }

  // MARK: - Session events

  private func report(_ event: SessionEvent) {
    switch event {
    case .player(.started(let track, let duration)):
      nextPositionEvent = 0
      if let end = ends.started() { emit(end) }
      emit(.start(file: track.displayName, duration: duration))
      startedTrack = track
      // A live stream's title that came before its start goes out right after it.
      if let title = playback.streamTitle { emit(.metadata(title)) }
    case .player(.trackEnded):
      endTrack(.finished)
    case .player(.failed(let track, let message)):
      if startedTrack.map(track.isSameEntry(as:)) == true { endTrack(.error) }
      failures += 1
      report(message)
    case .player(.warning(let message)):
      Console.error("refrain: \(message)")
    case .player(.stream(let track, let news)):
      report(news, of: track)
    case .notice(let text, _):
      warn(text)
    case .lyricsChanged, .libraryChanged, .progress, .browsingChanged, .roomChanged:
      break
    }
  }

  /// A live stream's title and reconnections: events, and a line on stderr for a drop.
  private func report(_ news: StreamNews, of track: Track) {
    guard track.isSameEntry(as: playback.track) else { return }
    let started = startedTrack.map { track.isSameEntry(as: $0) } ?? false
    switch news {
    case .live:
      break
    case .title(let title):
      if started { emit(.metadata(title)) }
    case .reconnecting(let reason, let delay):
      emit(.reconnecting(reason: reason, retryIn: delay))
      warn(playback.streamNotice ?? "stream lost (\(reason))")
    case .reconnected:
      emit(.reconnected)
      warn("stream is back")
    case .stalled(let reason):
      emit(.stalled(reason: reason))
    case .flowing:
      emit(.flowing)
    case .notice(let text):
      warn(text)
    }
  }

  // MARK: - Commands on stdin

  /// Carries out one command; problems go to stderr, never to the event stream.
  private func apply(_ command: Command) {
    if command == .quit {
      endTrack(.quit)
      _ = session.execute(.stop)
      done = true
      return
    }
    let outcome = session.execute(command)
    if let message = HeadlessInput.message(
      of: outcome, for: command, in: "refrain play", warn: warn)
    {
      // What a listener asked to know; volume and the like stay quiet.
      switch command {
      case .nudge, .status, .lyricsSync: warn(message)
      default: break
      }
    }
    switch command {
    case .seek, .lyricLine, .next, .previous: nextPositionEvent = 0
    default: break
    }
  }

  // MARK: - Output

  /// Emits the `end` of the track that started last, once.
  private func endTrack(_ reason: PlayEvent.EndReason) {
    if let end = ends.end(reason) { emit(end) }
  }

  private func emit(_ event: PlayEvent) {
    guard options.events else { return }
    event.write()
  }

  private func warn(_ message: String) {
    Console.error("refrain: \(message)")
  }

  private func report(_ message: String) {
    PlayCommand.fail(message, events: options.events)
  }
}
