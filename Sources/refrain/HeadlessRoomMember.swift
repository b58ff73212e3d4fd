import Foundation
import RefrainAudio
import RefrainCore
import RefrainSession

/// `refrain room join`: a room member without the full-screen player, a front end of its
/// session on a ``SessionHost`` (whose loop also reads the room's link, `refrain-room link`,
/// a child process speaking JSON lines), adding stdin; the session follows the room
/// (``Session/room``), so its commands, from stdin, `refrain ctl` or MPRIS, act on the room.
final class HeadlessRoomMember: SessionFrontEnd {
  private let engine: PlayerEngine
  private let session: Session
  private let link: RoomLinkProcess
  private var follower: RoomFollower { link.follower }
  private let events: Bool
  private let host: SessionHost
  private let input: HeadlessInput
  private var done = false
  private var status: Int32 = 0
  private var nextPositionEvent = 0.0
  /// Which start still owes its `end`.
  private var ends = TrackEnds()
  /// The room's playback as last reported, so a `state` event is printed once per change.
  private var lastState: RoomPlayback?
  private static let positionInterval = 0.2

  /// Joins the room at `url` (the link starts here); `socket`, when given, answers
  /// `refrain ctl --socket`.
  init(
    helper: String, url: String, token: String, name: String, output: any AudioOutput,
    events: Bool, socket: String?, replayGain: ReplayGainPolicy = .off, mpris: Bool = false
  ) throws {
    self.events = events
    input = HeadlessInput(open: events)
    engine = PlayerEngine(output: output, replayGain: replayGain)
    let sources = LyricsLoading.makeLoader()
    session = Session(player: engine, lyricsLoader: { await sources($0) })
    session.describe = TrackDescription.fromTags
    // Joined with the same command as `:room join URL`, so with the same checks.
    var joined: RoomLinkProcess?
    session.roomJoiner = { [unowned session] url in
      let link = try RoomLinkProcess(
        helper: helper, url: url, token: token, name: name, session: session)
      joined = link
      return link
    }
    let outcome = session.execute(.room(.join(url: url)))
    guard let joined else {
      let reason = if case .failed(let reason) = outcome { reason } else { "\(outcome)" }
      throw HeadlessFailure("cannot start refrain-room: \(reason)")
    }
    link = joined
    host = SessionHost(session: session, engine: engine)
    if let socket {
      try host.serveControl(
        path: socket,
        frontEnd: { [unowned self] command, reply in
          guard command == .quit else { return false }
          done = true
          reply(.success("ok"))
          return true
        }, elsewhere: "works in the full-screen player, not in `refrain room join`")
    }
    host.startMPRIS(
      enabled: mpris, notifies: false, environment: ProcessInfo.processInfo.environment,
      onQuit: { [unowned self] in done = true })
  }

  /// Runs until `quit`, stdin closing, leaving the room, or the server refusing the member;
  /// the exit status.
  func run() -> Int32 {
    session.subscribe { [unowned self] event in report(event) }
    host.run(self)
    if let end = ends.end(.quit) { emit(end) }
    link.stop()
    engine.shutdown()
    return status
  }

  // MARK: - The host's front end

  func begin(on loop: PollLoop) {
    loop.watch(
      { [unowned self] in input.pollDescriptors },
      handler: { [unowned self] _ in readCommands() })
  }

  func afterWake() {
    tick()
    if !link.isOpen {
      if let exit = link.exitStatus, exit != 0, status == 0 { status = exit }
      done = true
    }
  }

  var isDone: Bool { done }

  func end() {}

  /// Seconds until a position event or a lyric line is due (the host adds the room's check).
  func nextWake() -> Double? {
    switch session.snapshot.state {
    case .playing:
      var due = max(0, nextPositionEvent - MonotonicClock.now)
      if let change = session.nextLyricChange, let delay = engine.delay(untilPosition: change) {
        due = min(due, delay)
      }
      return due
    case .loading: return 0.1
    default: return nil
    }
  }

  private func tick() {
    guard session.snapshot.state == .playing else { return }
    let position = engine.position
    if let line = session.lyricLineChange() {
      emit(PlayEvent.line(index: line.index, t: position, text: line.text))
    }
    if MonotonicClock.now >= nextPositionEvent {
      emit(PlayEvent.position(position))
      nextPositionEvent = MonotonicClock.now + Self.positionInterval
    }
  }

  // MARK: - What the member sees

  func show(_ updates: [RoomFollower.Update]) {
    for update in updates { show(update) }
  }

  private func show(_ update: RoomFollower.Update) {
    switch update {
    case .joined(let welcome): emit(.joined(welcome))
    case .members(let members): emit(.members(members))
    case .queue: emit(.queue(current: follower.current, entries: follower.queue))
    case .state(let state):
      // Whoever changed it; a repeat of the same state (a resync) is not news.
      guard
        state.entry != lastState?.entry || state.playing != lastState?.playing
          || state.position != lastState?.position || state.path != lastState?.path
      else { return }
      lastState = state
      emit(.state(state))
    case .history(let track, let messages): emit(.history(track: track, messages: messages))
    case .chat(let message): emit(.chat(message))
    case .notice(let text): emit(.notice(text))
    case .error(let code, let message):
      emit(.error(code: code.rawValue, message: message))
      warn(message)
    case .link(.lost, let reason):
      emit(.lost(reason: reason ?? "the connection ended"))
      warn("room lost: \(reason ?? "the connection ended"); playing on and reconnecting")
    case .link(.refused, let reason):
      let message = reason ?? "the room server refused the member"
      emit(.error(code: "refused", message: message))
      warn(message)
      status = 2
    case .link(.connected, _):
      emit(.connected)
    case .corrected(let error, let action):
      emit(.sync(errorMs: error * 1000, offsetMs: follower.offset, action: action))
    }
  }

  private func report(_ event: SessionEvent) {
    switch event {
    case .player(.started(let track, let duration)):
      nextPositionEvent = 0
      if let end = ends.started() { emit(end) }
      emit(PlayEvent.start(file: track.title, duration: duration))
    case .player(.trackEnded):
      if let end = ends.end(.finished) { emit(end) }
    case .player(.failed(_, let message)):
      if let end = ends.end(.error) { emit(end) }
      emit(PlayEvent.error(message))
      warn(message)
    case .player(.warning(let message)):
      warn(message)
    case .player(.stream):
      break  // a room plays the room's files, never a live stream
    case .notice(let text, _):
      warn(text)
    case .lyricsChanged, .libraryChanged, .progress, .browsingChanged, .roomChanged:
      break
    }
  }

  // MARK: - Commands on stdin

  private func readCommands() {
    for command in input.readCommands(warn: warn) { apply(command) }
    if !input.isOpen { done = true }
  }

  /// One command, in the language of `refrain ctl`; problems go to stderr.
  private func apply(_ command: Command) {
    // `stop` is the room's pause, as from every door; only `quit` (or stdin closing) ends
    // the member.
    if command == .quit {
      done = true
      return
    }
    let outcome = session.execute(command)
    if let message = HeadlessInput.message(
      of: outcome, for: command, in: "refrain room join", warn: warn)
    {
      warn(message)
    }
    if command == .room(.leave), case .done = outcome { done = true }
  }

  // MARK: - Output

  private func emit(_ event: PlayEvent) {
    guard events else { return }
    event.write()
  }

  private func emit(_ event: RoomJoinEvent) {
    guard events else { return }
    event.write()
  }

  private func warn(_ message: String) {
    Console.error("refrain: \(message)")
  }
}

/// Why a headless front end could not start, in one line.
struct HeadlessFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
