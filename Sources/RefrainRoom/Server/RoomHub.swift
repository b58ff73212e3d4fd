import Foundation
import RefrainCore

/// Every room of one server: members, the shared queue, playback on the room clock, chat.
///
/// The hub never waits for a member: what it sends goes into each member's outbox, which
/// that member's connection writes on its own. Times come from the clocks it is given, read
/// only through them: `monotonic` (seconds, never jumps) makes the room clock, `wallClock`
/// (Unix seconds) stamps chat for display and ties a saved position to a time that outlives
/// the process.
///
/// Each change to a room's queue or playback is saved in the ``RoomStore`` as it is made. A
/// room that is not in memory (the server restarted, or its last member left) comes back
/// from what was saved when a member joins it, as it would be had it kept playing
/// (``SavedRoom/resumed(at:)``); a saved state that cannot be read is one log line and an
/// empty room.
public actor RoomHub {
  /// What the server was started with.
  public struct Options: Sendable {
    /// Whether only the host may control playback and the queue.
    public var hostOnly: Bool
    /// Seconds between heartbeats; a member silent for two is dropped.
    public var heartbeat: Double

    public init(hostOnly: Bool = false, heartbeat: Double = RoomProtocol.defaultHeartbeat) {
      self.hostOnly = hostOnly
      self.heartbeat = heartbeat
    }
  }

  /// What a connection is told to do.
  public enum Outgoing: Sendable, Equatable {
    /// Send one text frame.
    case text(String)
    /// Close with a WebSocket close code and a reason.
    case close(code: UInt16, reason: String)
  }

  /// One connected member.
  struct Member {
    let id: String
    var name: String
    let outbox: AsyncStream<Outgoing>.Continuation
    var lastSeen: Double
    var chat = RateWindow(limit: RoomProtocol.chatBurst, window: RoomProtocol.chatWindow)

    /// Puts `text` in the member's outbox; false when the outbox was full (the member has
    /// stopped reading) and the oldest message was lost.
    func deliver(_ text: String) -> Bool {
      if case .dropped = outbox.yield(.text(text)) { return false }
      return true
    }
  }

  /// One room.
  struct Room {
    let name: String
    /// Members in the order they joined; the first is the host.
    var members: [Member] = []
    var queue: [RoomQueueEntry] = []
    var nextEntry = 1
    var playback: RoomPlayback
    var endTimer: Task<Void, Never>?
    var heartbeatTimer: Task<Void, Never>?
    /// What was last saved of the queue and playback, so an unchanged room is not written.
    var saved: Saved?

    /// The parts of a room that are saved.
    struct Saved: Equatable {
      var queue: [RoomQueueEntry]
      var nextEntry: Int
      var playback: RoomPlayback
    }

    var host: Member? { members.first }
  }

  private let library: SharedLibrary
  private let store: RoomStore
  private let options: Options
  private let monotonic: @Sendable () -> Double
  private let wallClock: @Sendable () -> Double
  private let started: Double
  private let log: @Sendable (String) -> Void
  private var rooms: [String: Room] = [:]
  private var memberCount = 0
  /// Which room each member is in.
  private var roomOf: [String: String] = [:]

  public init(
    library: SharedLibrary, store: RoomStore, options: Options,
    monotonic: @escaping @Sendable () -> Double, wallClock: @escaping @Sendable () -> Double,
    log: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.library = library
    self.store = store
    self.options = options
    self.monotonic = monotonic
    self.wallClock = wallClock
    self.log = log
    started = monotonic()
  }

  /// The room clock: ms since the server started.
  public func roomClock() -> Double { (monotonic() - started) * 1000 }

  /// The shared library, as the `library` message.
  public nonisolated var libraryMessage: String { RoomEvent.library(library.tracks).json }

  // MARK: - Joining and leaving

  /// Adds a member who said hello with `name` (in `protocolVersion`) to `roomName`, which
  /// comes back from what was saved when it is not in memory; returns the member's id.
  public func join(
    roomName: String, name: String, protocolVersion: Int = RoomProtocol.version,
    outbox: AsyncStream<Outgoing>.Continuation
  ) -> String {
    memberCount += 1
    let id = "m\(memberCount)"
    if rooms[roomName] == nil { restore(roomName) }
    let now = roomClock()
    var room = rooms[roomName] ?? Room(name: roomName, playback: .stopped(at: now))
    room.members.append(Member(id: id, name: name, outbox: outbox, lastSeen: monotonic()))
    rooms[roomName] = room
    roomOf[id] = roomName
    if room.heartbeatTimer == nil { startHeartbeats(roomName) }
    let welcome = RoomWelcome(
      room: roomName, member: id, hostOnly: options.hostOnly, host: room.host?.id,
      heartbeatSeconds: options.heartbeat, clock: now,
      protocolVersion: min(protocolVersion, RoomProtocol.version))
    outbox.yield(.text(RoomEvent.welcome(welcome).json))
    broadcastMembers(roomName)
    outbox.yield(.text(queueEvent(room).json))
    outbox.yield(.text(RoomEvent.state(room.playback).json))
    outbox.yield(.text(historyEvent(roomName, track: room.playback.path).json))
    log("\(name) (\(id)) joined \(roomName)")
    return id
  }

  /// Removes a member whose connection ended.
  public func leave(_ id: String) {
    guard let roomName = roomOf.removeValue(forKey: id), var room = rooms[roomName] else { return }
    let name = room.members.first { $0.id == id }?.name ?? id
    room.members.removeAll { $0.id == id }
    if room.members.isEmpty {
      room.endTimer?.cancel()
      room.heartbeatTimer?.cancel()
      rooms[roomName] = nil
    } else {
      rooms[roomName] = room
      broadcastMembers(roomName)
    }
    log("\(name) (\(id)) left \(roomName)")
  }

  // MARK: - Requests

  /// Carries out a request from member `id` (after hello).
  public func handle(_ request: RoomRequest, from id: String) {
    guard let roomName = roomOf[id], var room = rooms[roomName],
      let index = room.members.firstIndex(where: { $0.id == id })
    else { return }
    room.members[index].lastSeen = monotonic()
    rooms[roomName] = room
    let member = room.members[index]
    if request.isControl, options.hostOnly, room.host?.id != id {
      return send(
        .error(
          code: .notAllowed,
          message: "only the host (\(room.host?.name ?? "?")) controls this room",
          retryAfter: nil), to: member)
    }
    switch request {
    case .hello:
      send(.error(code: .protocol, message: "hello was already said", retryAfter: nil), to: member)
    case .time(let probe, let t0):
      send(.time(id: probe, t0: t0, server: roomClock()), to: member)
    case .alive:
      break
    case .library:
      if !member.deliver(libraryMessage) { dropSlow(member) }
    case .chat(let text):
      say(text, from: member, in: roomName)
    case .queueAdd(let path):
      guard let item = library.item(path) else {
        return send(
          .error(
            code: .notFound, message: "no track \(shown(path)) in the library", retryAfter: nil),
          to: member)
      }
      let entry = RoomQueueEntry(entry: room.nextEntry, track: item.track, addedBy: member.name)
      room.nextEntry += 1
      room.queue.append(entry)
      rooms[roomName] = room
      broadcast(queueEvent(room), in: roomName)
      broadcast(.notice("\(member.name) added \(entry.title)"), in: roomName)
    case .queueRemove(let entry):
      guard let position = room.queue.firstIndex(where: { $0.entry == entry }) else {
        return send(
          .error(code: .notFound, message: "no entry \(entry) in the queue", retryAfter: nil),
          to: member)
      }
      let removed = room.queue.remove(at: position)
      rooms[roomName] = room
      broadcast(.notice("\(member.name) removed \(removed.title)"), in: roomName)
      if room.playback.entry == entry {
        start(roomName, at: position, from: 0)
      } else {
        broadcast(queueEvent(room), in: roomName)
      }
    case .queueMove(let entry, let target):
      guard let from = room.queue.firstIndex(where: { $0.entry == entry }) else {
        return send(
          .error(code: .notFound, message: "no entry \(entry) in the queue", retryAfter: nil),
          to: member)
      }
      let moved = room.queue.remove(at: from)
      let to = min(max(0, target), room.queue.count)
      room.queue.insert(moved, at: to)
      rooms[roomName] = room
      broadcast(queueEvent(room), in: roomName)
      broadcast(.notice("\(member.name) moved \(moved.title) to place \(to + 1)"), in: roomName)
    case .play(let entry):
      if let entry {
        guard let position = room.queue.firstIndex(where: { $0.entry == entry }) else {
          return send(
            .error(code: .notFound, message: "no entry \(entry) in the queue", retryAfter: nil),
            to: member)
        }
        start(roomName, at: position, from: 0)
        broadcast(.notice("\(member.name) played \(room.queue[position].title)"), in: roomName)
      } else if room.playback.entry != nil {
        if !room.playback.playing {
          room.playback = RoomPlayback(
            entry: room.playback.entry, path: room.playback.path, duration: room.playback.duration,
            playing: true, position: room.playback.position, at: roomClock())
          rooms[roomName] = room
          scheduleEnd(roomName)
          broadcast(.notice("\(member.name) resumed"), in: roomName)
        }
        broadcast(.state(room.playback), in: roomName)
      } else if !room.queue.isEmpty {
        start(roomName, at: 0, from: 0)
        broadcast(.notice("\(member.name) played \(room.queue[0].title)"), in: roomName)
      } else {
        send(.error(code: .notFound, message: "the queue is empty", retryAfter: nil), to: member)
      }
    case .pause:
      if room.playback.playing {
        let now = roomClock()
        room.playback = RoomPlayback(
          entry: room.playback.entry, path: room.playback.path, duration: room.playback.duration,
          playing: false, position: room.playback.position(atRoomClock: now), at: now)
        room.endTimer?.cancel()
        room.endTimer = nil
        rooms[roomName] = room
        broadcast(.notice("\(member.name) paused"), in: roomName)
      }
      broadcast(.state(room.playback), in: roomName)
    case .seek(let seconds):
      guard room.playback.entry != nil else {
        return send(
          .error(code: .notFound, message: "nothing is playing", retryAfter: nil), to: member)
      }
      var target = max(0, seconds)
      if let duration = room.playback.duration { target = min(target, duration) }
      room.playback = RoomPlayback(
        entry: room.playback.entry, path: room.playback.path, duration: room.playback.duration,
        playing: room.playback.playing, position: target, at: roomClock())
      rooms[roomName] = room
      scheduleEnd(roomName)
      broadcast(.state(room.playback), in: roomName)
      broadcast(
        .notice("\(member.name) moved to \(ClockText.minutesSeconds(target))"), in: roomName)
    case .next:
      let following = room.queue.firstIndex { $0.entry == room.playback.entry }.map { $0 + 1 } ?? 0
      start(roomName, at: following, from: 0)
      let now = rooms[roomName]?.playback
      let title = room.queue.first { $0.entry == now?.entry }?.title
      broadcast(
        .notice(
          title.map { "\(member.name) skipped to \($0)" }
            ?? "\(member.name) skipped; the queue is done"),
        in: roomName)
    }
  }

  /// Tells member `id` about a frame that is not a request.
  public func reject(_ error: RoomRequest.ParseError, from id: String) {
    guard let member = member(id) else { return }
    switch error {
    case .malformed(let reason):
      send(.error(code: .malformed, message: reason, retryAfter: nil), to: member)
    case .unknownType(let reason):
      send(.error(code: .unknownType, message: reason, retryAfter: nil), to: member)
    }
  }

  // MARK: - Chat

  private func say(_ text: String, from member: Member, in roomName: String) {
    guard var room = rooms[roomName],
      let index = room.members.firstIndex(where: { $0.id == member.id })
    else { return }
    let cleaned = TerminalSanitizer.clean(text).trimmingCharacters(in: .whitespaces)
    guard !cleaned.isEmpty else {
      return send(
        .error(
          code: .empty, message: "nothing to send after removing control characters",
          retryAfter: nil), to: member)
    }
    guard cleaned.count <= RoomProtocol.chatMaxCharacters else {
      return send(
        .error(
          code: .tooLong,
          message:
            "a message is \(RoomProtocol.chatMaxCharacters) characters at most (this one has \(cleaned.count))",
          retryAfter: nil), to: member)
    }
    if let wait = room.members[index].chat.admit(at: monotonic()) {
      let seconds = max(1, Int(wait.rounded(.up)))
      return send(
        .error(
          code: .rateLimited,
          message:
            "\(RoomProtocol.chatBurst) messages in \(Int(RoomProtocol.chatWindow)) s at most; wait \(seconds) s",
          retryAfter: Double(seconds)), to: member)
    }
    rooms[roomName] = room
    // A track whose end is due but whose timer has not fired yet is over: the message is
    // about what plays now.
    if let endsAt = room.playback.endsAt, let entry = room.playback.entry, endsAt <= roomClock() {
      trackEnded(roomName, entry: entry)
    }
    let track = rooms[roomName]?.playback.path
    do {
      let message = try store.append(
        room: roomName, track: track, member: member.id, sender: member.name,
        text: cleaned, sentAt: Int64(wallClock()))
      broadcast(.chat(message), in: roomName)
    } catch {
      log("chat not stored: \(error)")
      send(
        .error(
          code: .malformed, message: "the server could not store the message", retryAfter: nil),
        to: member)
    }
  }

  // MARK: - Playback

  /// Starts the queue entry at `position` (or stops when there is none), skipping entries
  /// whose file is gone, and tells everyone.
  private func start(_ roomName: String, at position: Int, from seconds: Double) {
    guard var room = rooms[roomName] else { return }
    room.endTimer?.cancel()
    room.endTimer = nil
    var index = position
    let now = roomClock()
    room.playback = .stopped(at: now)
    while index >= 0, index < room.queue.count {
      let entry = room.queue[index]
      if let item = library.item(entry.path), FileManager.default.fileExists(atPath: item.file) {
        room.playback = RoomPlayback(
          entry: entry.entry, path: entry.path, duration: entry.duration, playing: true,
          position: seconds, at: now)
        break
      }
      broadcast(.notice("\(entry.title) is gone from the library; skipped"), in: roomName)
      index += 1
    }
    rooms[roomName] = room
    scheduleEnd(roomName)
    broadcast(queueEvent(room), in: roomName)
    broadcast(.state(room.playback), in: roomName)
    broadcast(historyEvent(roomName, track: room.playback.path), in: roomName)
  }

  /// Arms the timer that moves a playing room to the next entry when its track ends.
  private func scheduleEnd(_ roomName: String) {
    guard var room = rooms[roomName] else { return }
    room.endTimer?.cancel()
    room.endTimer = nil
    if let endsAt = room.playback.endsAt, let entry = room.playback.entry {
      let delay = max(0, endsAt - roomClock()) / 1000
      room.endTimer = Task { [weak self] in
        try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
        guard !Task.isCancelled else { return }
        await self?.trackEnded(roomName, entry: entry)
      }
    }
    rooms[roomName] = room
  }

  private func trackEnded(_ roomName: String, entry: Int) {
    guard let room = rooms[roomName], room.playback.entry == entry, room.playback.playing else {
      return
    }
    if let endsAt = room.playback.endsAt, endsAt > roomClock() + 1 {
      return scheduleEnd(roomName)
    }
    let following = room.queue.firstIndex { $0.entry == entry }.map { $0 + 1 } ?? room.queue.count
    start(roomName, at: following, from: 0)
  }

  // MARK: - Saving

  /// Saves the queue and playback of `roomName` as they are now, unless they are as last
  /// saved; a failure is a log line. Called before every `queue` and `state` message goes
  /// out, so what members were told is on disk before they hear it.
  private func save(_ roomName: String) {
    guard let room = rooms[roomName] else { return }
    let parts = Room.Saved(queue: room.queue, nextEntry: room.nextEntry, playback: room.playback)
    guard parts != room.saved else { return }
    let saved = SavedRoom(
      queue: room.queue, nextEntry: room.nextEntry, entry: room.playback.entry,
      playing: room.playback.playing, position: room.playback.position(atRoomClock: roomClock()),
      savedAt: wallClock())
    do {
      try store.save(saved, room: roomName)
      rooms[roomName]?.saved = parts
    } catch {
      log("room \(roomName) not saved: \(error)")
    }
  }

  /// Brings `roomName` back from what was saved, as it would be now, without members;
  /// nothing saved leaves it absent, and a state that cannot be read is a log line.
  private func restore(_ roomName: String) {
    let saved: SavedRoom
    do {
      guard let found = try store.load(room: roomName) else { return }
      saved = found.resumed(at: wallClock())
    } catch {
      return log("\(error)")
    }
    let now = roomClock()
    var room = Room(name: roomName, playback: .stopped(at: now))
    room.queue = saved.queue
    room.nextEntry = max(saved.nextEntry, (saved.queue.map(\.entry).max() ?? 0) + 1)
    if let index = saved.queue.firstIndex(where: { $0.entry == saved.entry }) {
      let entry = saved.queue[index]
      room.playback = RoomPlayback(
        entry: entry.entry, path: entry.path, duration: entry.duration, playing: saved.playing,
        position: saved.position, at: now)
    }
    rooms[roomName] = room
    if let path = room.playback.path, library.item(path) == nil,
      let index = room.queue.firstIndex(where: { $0.entry == room.playback.entry })
    {
      // Its file left the library while the server was down: on to the next one.
      start(roomName, at: index, from: 0)
    } else {
      scheduleEnd(roomName)
      save(roomName)
    }
    let state = saved.entry.map { "entry \($0) at \(ClockText.minutesSeconds(saved.position))" }
    log("room \(roomName) restored: \(saved.queue.count) queued, \(state ?? "stopped")")
  }

  // MARK: - Heartbeats

  private func startHeartbeats(_ roomName: String) {
    let interval = options.heartbeat
    rooms[roomName]?.heartbeatTimer = Task { [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
        guard !Task.isCancelled, let self else { return }
        await self.beat(roomName)
      }
    }
  }

  /// Sends a heartbeat to everyone in the room and drops who missed two.
  private func beat(_ roomName: String) {
    guard let room = rooms[roomName] else { return }
    let now = monotonic()
    let heartbeat = RoomEvent.heartbeat(clock: roomClock()).json
    for member in room.members {
      // Two heartbeats unanswered, with a little slack for the answer's trip.
      if now - member.lastSeen > options.heartbeat * 2 + 0.05 {
        member.outbox.yield(.close(code: 1001, reason: "no answer to two heartbeats"))
        member.outbox.finish()
        log("\(member.name) (\(member.id)) stopped answering")
        leave(member.id)
      } else if !member.deliver(heartbeat) {
        dropSlow(member)
      }
    }
  }

  // MARK: - Sending

  private func member(_ id: String) -> Member? {
    guard let roomName = roomOf[id] else { return nil }
    return rooms[roomName]?.members.first { $0.id == id }
  }

  private func send(_ event: RoomEvent, to member: Member) {
    if !member.deliver(event.json) { dropSlow(member) }
  }

  /// Sends `event` to everyone in the room; the room is saved first when it is news of the
  /// queue or of playback.
  private func broadcast(_ event: RoomEvent, in roomName: String) {
    switch event {
    case .queue, .state: save(roomName)
    default: break
    }
    guard let room = rooms[roomName] else { return }
    let text = event.json
    for member in room.members where !member.deliver(text) { dropSlow(member) }
  }

  /// Closes a member whose outbox filled (it stopped reading): what is buffered for one
  /// member stays bounded, and the others never wait for it.
  private func dropSlow(_ member: Member) {
    guard self.member(member.id) != nil else { return }
    member.outbox.yield(.close(code: 1008, reason: "too slow to read the room"))
    member.outbox.finish()
    log("\(member.name) (\(member.id)) stopped reading and was dropped")
    leave(member.id)
  }

  private func broadcastMembers(_ roomName: String) {
    guard let room = rooms[roomName] else { return }
    let hostID = room.host?.id
    broadcast(
      .members(room.members.map { RoomMember(id: $0.id, name: $0.name, host: $0.id == hostID) }),
      in: roomName)
  }

  private func queueEvent(_ room: Room) -> RoomEvent {
    .queue(entries: room.queue, current: room.playback.entry)
  }

  private func historyEvent(_ roomName: String, track: String?) -> RoomEvent {
    let messages = (try? store.history(room: roomName, track: track)) ?? []
    return .history(track: track, messages: messages)
  }

  private func shown(_ path: String) -> String {
    "\"\(TerminalSanitizer.clean(String(path.prefix(200))))\""
  }
}
