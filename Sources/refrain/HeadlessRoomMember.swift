import Foundation
import RefrainAudio
import RefrainCore
import RefrainSession

/// `refrain room join`: a room member without the full-screen player. One `poll()` loop over
/// the player, the session, the link (`refrain-room link`, a child process speaking JSON
/// lines) and stdin; a ``RoomFollower`` keeps the session on the room.
final class HeadlessRoomMember {
  private let engine: PlayerEngine
  private let session: Session
  private let helper: String
  private let url: String
  private let token: String
  private let name: String
  private var link: RoomLinkProcess!
  private var follower: RoomFollower { link.follower }
  private let events: Bool
  private let loop = PollLoop()
  private var stdinBuffer = [UInt8]()
  private var stdinOpen: Bool
  private var done = false
  private var status: Int32 = 0
  private var nextPositionEvent = 0.0
  private static let positionInterval = 0.2

  init(
    helper: String, url: String, token: String, name: String, output: any AudioOutput, events: Bool
  ) {
    self.events = events
    stdinOpen = events
    engine = PlayerEngine(output: output)
    let sources = LyricsLoading.makeLoader()
    session = Session(player: engine, lyricsLoader: { await sources($0) })
    self.helper = helper
    self.url = url
    self.token = token
    self.name = name
  }

  /// Runs until `quit`, stdin closing, or the server refusing the member; the exit status.
  func run() -> Int32 {
    do {
      link = try RoomLinkProcess(
        helper: helper, url: url, token: token, name: name, session: session)
    } catch {
      fail("cannot start refrain-room: \(error)")
      return 1
    }
    session.subscribe { [unowned self] event in report(event) }
    loop.watch(engine.wakeFileDescriptor) { [unowned self] in
      session.handlePlayerEvents(engine.drainEvents())
    }
    loop.watch(session.wakeFileDescriptor) { [unowned self] in session.drainInbox() }
    loop.watch(
      { [unowned self] in
        link.isOpen ? [pollfd(fd: link.wakeFileDescriptor, events: Int16(POLLIN), revents: 0)] : []
      }, handler: { [unowned self] _ in readLink() })
    loop.watch(
      { [unowned self] in
        stdinOpen ? [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)] : []
      }, handler: { [unowned self] _ in readCommands() })
    while !done {
      guard loop.runOnce(timeout: timeoutMilliseconds()) else { break }
      tick()
    }
    link.stop()
    engine.shutdown()
    return status
  }

  // MARK: - Timer

  private func timeoutMilliseconds() -> Int32 {
    var wait: Double? = follower.nextCheck()
    if session.playback.state == .playing {
      var due = max(0, nextPositionEvent - MonotonicClock.now)
      if let change = session.playback.nextLyricChange(),
        let delay = engine.delay(untilPosition: change)
      {
        due = min(due, delay)
      }
      wait = min(wait ?? due, due)
    } else if session.playback.state == .loading {
      wait = min(wait ?? 0.1, 0.1)
    }
    guard let wait else { return -1 }
    return Int32((wait * 1000).rounded(.up))
  }

  private func tick() {
    for update in follower.check() { show(update) }
    guard session.playback.state == .playing else { return }
    let position = engine.position
    if let line = session.playback.lyricChange() {
      emit(PlayEvent.line(index: line.index, t: position, text: line.text))
    }
    if MonotonicClock.now >= nextPositionEvent {
      emit(PlayEvent.position(position))
      nextPositionEvent = MonotonicClock.now + Self.positionInterval
    }
  }

  // MARK: - The link

  private func readLink() {
    for line in link.readLines() {
      for update in follower.receive(line: line) { show(update) }
    }
    if !link.isOpen {
      if let exit = link.exitStatus, exit != 0, status == 0 { status = exit }
      done = true
    }
  }

  private func send(_ request: RoomRequest) {
    guard link.isOpen else { return warn("not connected to the room") }
    link.send(request)
  }

  // MARK: - What the member sees

  private func show(_ update: RoomFollower.Update) {
    switch update {
    case .joined(let welcome):
      emit([
        "event": "joined", "room": welcome.room, "member": welcome.member,
        "host_only": welcome.hostOnly,
      ])
    case .members(let members):
      emit([
        "event": "member",
        "members": members.map {
          ["id": $0.id, "name": $0.name, "host": $0.host] as [String: Any]
        },
      ])
    case .queue:
      emit([
        "event": "queue", "current": nullable(follower.current),
        "entries": follower.queue.map {
          ["entry": $0.entry, "path": $0.path, "title": $0.title] as [String: Any]
        },
      ])
    case .state(let state):
      emit([
        "event": "state", "entry": nullable(state.entry), "path": nullable(state.path),
        "playing": state.playing, "position": JSONOutput.milliseconds(state.position),
      ])
    case .history(let track, let messages):
      emit([
        "event": "history", "track": nullable(track),
        "messages": messages.map {
          ["from": $0.from, "text": $0.text, "id": $0.id] as [String: Any]
        },
      ])
    case .chat(let message):
      emit([
        "event": "chat", "from": message.from, "text": message.text,
        "track": nullable(message.track),
        "id": message.id,
      ])
    case .notice(let text):
      emit(["event": "notice", "text": text])
    case .error(let code, let message):
      emit(["event": "error", "code": code.rawValue, "message": message])
      warn(message)
    case .link(let state, let reason):
      switch state {
      case "lost":
        emit(["event": "room_lost", "reason": reason ?? "the connection ended"])
        warn("room lost: \(reason ?? "the connection ended"); playing on and reconnecting")
      case "refused":
        let message = reason ?? "the room server refused the member"
        emit(["event": "error", "code": "refused", "message": message])
        FileHandle.standardError.write(Data("refrain: \(message)\n".utf8))
        status = 2
      default:
        emit(["event": "connected"])
      }
    case .corrected(let error, let action):
      var object: [String: Any] = [
        "event": "sync", "error_ms": (error * 1000 * 10).rounded() / 10,
        "offset_ms": nullable(follower.offset.map { ($0 * 10).rounded() / 10 }),
      ]
      switch action {
      case .none: object["action"] = "none"
      case .step(let delta):
        object["action"] = "step"
        object["step_ms"] = (delta * 10_000).rounded() / 10
      case .seek(let target):
        object["action"] = "seek"
        object["to"] = JSONOutput.milliseconds(target)
      }
      emit(object)
    }
  }

  private func report(_ event: SessionEvent) {
    switch event {
    case .player(.started(let track, let duration)):
      nextPositionEvent = 0
      emit(PlayEvent.start(file: track.title, duration: duration))
    case .player(.trackEnded):
      emit(PlayEvent.end)
    case .player(.failed(_, let message)):
      emit(PlayEvent.error(message))
      warn(message)
    case .player(.warning(let message)):
      warn(message)
    case .lyricsChanged:
      break
    }
  }

  // MARK: - Commands on stdin

  private func readCommands() {
    var chunk = [UInt8](repeating: 0, count: 4096)
    let count = read(STDIN_FILENO, &chunk, chunk.count)
    guard count > 0 else {
      stdinOpen = false
      done = true
      return
    }
    stdinBuffer.append(contentsOf: chunk[0..<count])
    while let newline = stdinBuffer.firstIndex(of: UInt8(ascii: "\n")) {
      let line = String(decoding: stdinBuffer[..<newline], as: UTF8.self)
      stdinBuffer.removeSubrange(...newline)
      apply(line.trimmingCharacters(in: .whitespaces))
    }
    if stdinBuffer.count > 65_536 {
      stdinBuffer.removeAll()
      warn("a command line longer than 64 KiB was dropped")
    }
  }

  /// One command line; problems go to stderr.
  private func apply(_ line: String) {
    guard !line.isEmpty else { return }
    if let request = Self.request(line) {
      send(request)
    } else if line == "quit" || line == "stop" {
      done = true
    } else {
      warn(
        "unknown room command '\(line)': chat TEXT, queue add TRACK, queue remove N, play, pause, seek SEC, next, quit"
      )
    }
  }

  /// The room request a command line asks for.
  static func request(_ line: String) -> RoomRequest? {
    let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(
      String.init)
    guard let first = words.first?.lowercased() else { return nil }
    switch first {
    case "chat":
      let text = line.drop { $0 != " " }.dropFirst()
      return text.isEmpty ? nil : .chat(text: String(text))
    case "queue":
      guard words.count == 3 else { return nil }
      switch words[1].lowercased() {
      case "add": return .queueAdd(path: words[2])
      case "remove": return Int(words[2]).map { .queueRemove(entry: $0) }
      default: return nil
      }
    case "play":
      if words.count == 1 { return .play(entry: nil) }
      return Int(words[1]).map { .play(entry: $0) }
    case "pause": return words.count == 1 ? .pause : nil
    case "next": return words.count == 1 ? .next : nil
    case "seek":
      guard words.count == 2, let seconds = Double(words[1]), seconds.isFinite else { return nil }
      return .seek(position: seconds)
    default:
      return nil
    }
  }

  // MARK: - Output

  private func emit(_ event: PlayEvent) {
    guard events else { return }
    event.write()
  }

  private func emit(_ object: [String: Any]) {
    guard events,
      let data = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys])
    else { return }
    FileHandle.standardOutput.write(data + Data("\n".utf8))
  }

  /// A value for JSONSerialization: `nil` becomes JSON null.
  private func nullable<T>(_ value: T?) -> Any { value.map { $0 as Any } ?? NSNull() }

  private func warn(_ message: String) {
    FileHandle.standardError.write(Data("refrain: \(message)\n".utf8))
  }

  private func fail(_ message: String) {
    PlayCommand.fail(message, events: events)
  }
}
