import Foundation
import RefrainCore

/// The playback and queue commands: transport, remove, move, play an entry, enqueue picked
/// tracks, add a file by its path (described by its tags), play a list (QueueCommands+Catalog
/// for catalog tracks), and the list `refrain ctl queue` prints.
///
/// It guarantees true answers: `.done` only when the command took effect. In a listening
/// room the queue commands act on the room's queue, for everyone (``RoomPart`` decides);
/// positions count from 1, as ``QueueView`` lists them, in both. Adds are applied in the
/// order asked, their files checked and described off the session's thread.
final class QueueCommands {
  /// The session it serves; set once by the session's init.
  unowned var session: Session!
  /// The last tag read asked for; the next one is applied after it, so adds keep their order.
  private var describeTail: Task<Void, Never>?

  init() {}

  private var playback: PlaybackPresenter { session.playback }
  private var rooms: RoomPart { session.roomPart }
  private var room: (any RoomChannel)? { session.roomPart.channel }

  /// Carries out a transport command (play, pause, skip, seek, volume, shuffle, repeat);
  /// ``Outcome/notForSession`` for any other.
  func transport(_ command: Command) -> Outcome {
    switch command {
    case .togglePlay: playback.togglePlay()
    case .play:
      if playback.state != .playing && playback.state != .loading { playback.togglePlay() }
    case .pause: playback.pause()
    case .stop: playback.stop()
    case .next:
      guard playback.next() else {
        return .failed(
          playback.queue.isEmpty ? "the queue is empty" : "this is the last track in the queue")
      }
    case .previous: playback.previous()
    case .seek where playback.state == .playing && playback.stall != nil:
      // A seek would start a request the stalled server does not answer either.
      return .failed("the stream has stalled (\(playback.stall ?? "")); cannot seek now")
    case .seek(.relative(let delta)): playback.seek(by: delta)
    case .seek(.absolute(let seconds)): playback.seek(to: seconds)
    case .volume(.relative(let delta)):
      playback.adjustVolume(by: delta)
      return .done(message: "volume \(playback.volume)%")
    case .volume(.absolute(let percent)):
      playback.setVolume(percent)
      return .done(message: "volume \(playback.volume)%")
    case .shuffle:
      playback.toggleShuffle()
      return .done(message: "shuffle \(playback.queue.isShuffled ? "on" : "off")")
    case .setShuffle(let on):
      if on != playback.queue.isShuffled { playback.toggleShuffle() }
      return .done(message: "shuffle \(on ? "on" : "off")")
    case .repeat:
      playback.cycleRepeat()
      return .done(message: "repeat \(playback.queue.repeatMode.rawValue)")
    case .setRepeat(let mode):
      playback.setRepeat(mode)
      return .done(message: "repeat \(mode.rawValue)")
    default: return .notForSession
    }
    return .done(message: nil)
  }

  /// Carries out a queue command (clear, add, list, remove, move, play an entry, play a
  /// list, enqueue); ``Outcome/notForSession`` for any other.
  func execute(_ command: Command) -> Outcome {
    switch command {
    case .queueClear: return clear()
    case .queueAdd(let item), .playItem(let item):
      return add(item, playing: command == .playItem(item)) { [weak self] outcome in
        self?.session.announceFailure(of: outcome)
      }
    case .playCatalog(let list):
      playCatalog(list) { [weak self] outcome in self?.session.announceFailure(of: outcome) }
      return .done(message: nil)
    case .queueList: return .done(message: countLine)
    case .queueRemove(let position): return removeFromQueue(at: position)
    case .queueMove(let from, let to): return moveInQueue(from: from, to: to)
    case .queuePlay(let position): return playFromQueue(at: position)
    case .playTracks(let list):
      return play(list.tracks, startAt: list.start, position: list.position, paused: list.paused)
    case .enqueue(let tracks): return enqueue(tracks)
    default: return .notForSession
    }
  }

  /// One line on what is playing: `playing: Title 0:12 / 3:04`.
  var summary: String {
    let snapshot = playback.snapshot
    guard let track = snapshot.track else { return "nothing is playing" }
    let position = ClockText.minutesSeconds(snapshot.position)
    return "\(snapshot.state.rawValue): \(track.title) \(position.isEmpty ? "0:00" : position) / "
      + ClockText.minutesSeconds(snapshot.duration)
  }

  /// Empties the queue (not the room's: that is edited entry by entry).
  func clear() -> Outcome {
    if room != nil { return .failed("the room's queue is edited entry by entry: queue remove N") }
    playback.clearQueue()
    return .done(message: nil)
  }

  /// How many entries the queue every front end shows has: `3 in the queue`.
  var countLine: String {
    let view = session.queue
    return "\(view.count) in \(view.room == nil ? "the queue" : "the room's queue")"
  }

  /// Removes the entry at `position` (from 1).
  func removeFromQueue(at position: Int) -> Outcome {
    let view = session.queue
    guard let entry = entry(at: position, in: view) else { return .failed(outside(position, view)) }
    if let room, let number = entry.roomEntry {
      room.send(.queueRemove(entry: number))
      return .done(message: "removed \(entry.track.title) from the room's queue")
    }
    playback.removeFromQueue(at: position - 1)
    return .done(message: "removed \(entry.track.title)")
  }

  /// Moves the entry at `from` to `to` (both from 1; `to` is its place afterwards).
  func moveInQueue(from: Int, to: Int) -> Outcome {
    let view = session.queue
    guard let entry = entry(at: from, in: view) else { return .failed(outside(from, view)) }
    let whose = view.room == nil ? "the queue" : "the room's queue"
    if to < 1 { return .failed("\(entry.track.title) is already first in \(whose)") }
    if to > view.count { return .failed("\(entry.track.title) is already last in \(whose)") }
    guard from != to else { return .done(message: nil) }
    if let room, let number = entry.roomEntry {
      room.send(.queueMove(entry: number, to: to - 1))
      return .done(message: nil)
    }
    playback.moveInQueue(from: from - 1, to: to - 1)
    return .done(message: nil)
  }

  /// Plays the entry at `position` (from 1) now.
  func playFromQueue(at position: Int) -> Outcome {
    let view = session.queue
    guard let entry = entry(at: position, in: view) else { return .failed(outside(position, view)) }
    if let room, let number = entry.roomEntry {
      room.send(.play(entry: number))
      return .done(message: nil)
    }
    playback.jump(to: position - 1)
    return .done(message: nil)
  }

  /// Adds picked tracks to the end of the queue; an empty queue starts playing them. In a
  /// room each goes to the room's queue, which refuses what it cannot play.
  func enqueue(_ tracks: [Track]) -> Outcome {
    guard !tracks.isEmpty else { return .failed("nothing playable to add") }
    if room != nil {
      var last = Outcome.done(message: nil)
      for track in tracks {
        let item = track.location.isFileURL ? track.location.path : track.location.absoluteString
        last = add(item, playing: false)
        if case .failed = last { return last }
      }
      return last
    }
    if playback.queue.isEmpty {
      playback.playAll(tracks, startAt: 0)
    } else {
      playback.enqueue(tracks)
    }
    return .done(message: "added \(tracks.count) track\(tracks.count == 1 ? "" : "s") to the queue")
  }

  /// Plays `tracks` from `index`: alone, as a queue; in a room, the chosen track is queued in
  /// the room and played for everyone, or refused with the reason.
  func play(
    _ tracks: [Track], startAt index: Int, position: Double = 0, paused: Bool = false
  ) -> Outcome {
    guard !tracks.isEmpty else { return .failed("nothing playable") }
    let chosen = tracks[min(max(0, index), tracks.count - 1)]
    guard room != nil else {
      if paused {
        playback.restore(tracks, startAt: index, position: position)
      } else {
        playback.playAll(tracks, startAt: index, position: position)
      }
      return .done(message: nil)
    }
    guard let path = rooms.roomPath(for: chosen) else { return .failed(rooms.notInRoom(chosen)) }
    return rooms.playInRoom(path, title: chosen.title)
  }

  /// Adds a file or URL to the queue, described by its tags, then calls `then` on the
  /// session's thread once it is queued (or why not). With `playing`, it plays at once.
  ///
  /// The tags are read off the session's thread; adds are applied in the order asked. In a
  /// room, the room queues it for everyone, or refuses with the reason.
  @discardableResult
  func add(_ item: String, playing: Bool, then: @escaping (Outcome) -> Void = { _ in }) -> Outcome {
    var track = Track(argument: Session.expandingHome(item))
    if track.location.isFileURL {
      track.location = track.location.standardizedFileURL
      track.id = track.location.path
    }
    if let room {
      let outcome: Outcome
      let named = room.follower.library.contains { $0.path == item } ? item : nil
      if let path = named ?? rooms.roomPath(for: track) {
        if playing {
          outcome = rooms.playInRoom(path, title: track.title)
        } else {
          room.send(.queueAdd(path: path))
          outcome = .done(message: "added \(track.title) to the room's queue")
        }
      } else if room.follower.library.isEmpty && track.location.isFileURL {
        // The room has not listed its library yet: the server decides.
        room.send(.queueAdd(path: item))
        outcome = .done(message: "asked the room to add \(track.title)")
      } else {
        outcome = .failed(rooms.notInRoom(track))
      }
      then(outcome)
      return outcome
    }
    let describe = session.describe
    let previous = describeTail
    let inbox = session.inbox
    let reply = SessionOnly(then)
    let queued = track
    describeTail = Task.detached(executorPreference: BackgroundExecutor.shared) {
      await previous?.value
      // A missing or unreadable file is refused now, not when its turn comes.
      let problem = fileProblem(queued.location)
      let described = problem == nil ? (describe?(queued) ?? queued) : queued
      inbox.post { session in
        if let problem { return reply.value(.failed(problem)) }
        session.playback.enqueue([described])
        if playing { session.playback.jump(to: session.playback.queue.count - 1) }
        reply.value(.done(message: "added \(described.title) to the queue"))
      }
    }
    return .done(message: "adding \(queued.title) to the queue")
  }

  /// The queue as one JSON array, for `refrain ctl queue`: each entry's `position` (from 1),
  /// `title`, `artist`, `duration`, whether it is `current`, and in a room its `entry`.
  var queueSummary: String {
    let view = session.queue
    let rows = view.entries.enumerated().map { index, entry in
      QueueRow(
        position: index + 1, title: entry.track.title, artist: entry.track.artist,
        duration: entry.track.duration, current: index == view.currentIndex,
        unplayable: entry.unplayable, entry: entry.roomEntry, addedBy: entry.addedBy)
    }
    return SessionJSON.line(rows)
  }

  private func entry(at position: Int, in view: QueueView) -> QueueView.Entry? {
    view.entries.indices.contains(position - 1) ? view.entries[position - 1] : nil
  }

  /// Why `position` names no entry, in one line.
  private func outside(_ position: Int, _ view: QueueView) -> String {
    let whose = view.room == nil ? "the queue" : "the room's queue"
    if view.isEmpty { return "\(whose) is empty" }
    return "no entry \(position) in \(whose) (it has \(view.count))"
  }
}

/// One entry of `refrain ctl queue`'s list.
private struct QueueRow: Encodable {
  var position: Int
  var title: String
  var artist: String?
  var duration: Double?
  var current: Bool
  var unplayable: String?
  var entry: Int?
  var addedBy: String?

  enum CodingKeys: String, CodingKey {
    case position, title, artist, duration, current, unplayable, entry
    case addedBy = "added_by"
  }
}

/// Why the file at `location` cannot be queued (missing, a folder, unreadable), or `nil` for
/// a readable file and for anything that is not a file. It reads the disk: call it off the
/// session's thread.
func fileProblem(_ location: URL) -> String? {
  guard location.isFileURL else { return nil }
  let path = location.path
  var isFolder: ObjCBool = false
  let shown = TerminalSanitizer.clean(path)
  guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
    return "no such file: \(shown)"
  }
  if isFolder.boolValue { return "\(shown) is a folder, not an audio file" }
  guard FileManager.default.isReadableFile(atPath: path) else {
    return "cannot read \(shown): permission denied"
  }
  return nil
}
