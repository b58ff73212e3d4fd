import Foundation
import RefrainCore

/// The room policy: while the session is in a listening room, the room decides what plays,
/// whichever front end asked. It owns the room's link (``channel``) and the track a member
/// asked the room to play; ``RoomFollower`` (in the link) keeps what the room said.
///
/// It guarantees that nothing is asked of a room whose link is down, and nothing is kept to
/// be sent later.
///
/// Transport (play, pause, seek, skip, a lyric line) becomes a request to the room, so every
/// member hears the result. A track the room can play (one in its server's shared library,
/// or an entry of its queue) is queued in the room and played for everyone; any other track
/// is refused with the reason, and the member keeps hearing the room.
final class RoomPart {
  /// The session it serves; set once by the session's init.
  unowned var session: Session!
  /// The listening room the session is in, or `nil`: while it is set, the room decides what
  /// plays.
  var channel: (any RoomChannel)?
  /// A track a member asked the room to play, until the room's queue shows it.
  var pendingPlay: PendingRoomPlay?

  init() {}

  private var playback: PlaybackPresenter { session.playback }

  /// The room request a transport command asks for, in a room; `nil` for the others.
  func roomRequest(for command: Command) -> RoomRequest? {
    guard let room = channel else { return nil }
    let state = room.follower.state
    switch command {
    case .togglePlay: return state?.playing == true ? .pause : .play(entry: nil)
    case .play: return .play(entry: nil)
    case .pause, .stop: return .pause
    case .next: return .next
    case .previous: return .seek(position: 0)
    case .seek(.absolute(let seconds)): return .seek(position: seconds)
    case .seek(.relative(let delta)):
      return .seek(position: max(0, playback.snapshot.position + delta))
    case .lyricLine(let index):
      guard let timeline = playback.lyrics?.timeline, timeline.isSynced, index < timeline.count
      else { return nil }
      return .seek(position: timeline.seekTarget(forLine: index))
    case .room(.play(let entry)): return .play(entry: entry)
    default: return nil
    }
  }

  /// Why a command cannot be carried out in the room now, or `nil` when it can (or is not
  /// the room's): while the link is down nothing is asked of the room, and nothing is kept
  /// to be sent later.
  func roomRefusal(of command: Command) -> String? {
    guard let room = channel else { return nil }
    let needsRoom: Bool
    switch command {
    case .chat, .queueAdd, .playItem, .queueRemove, .queueMove, .queuePlay, .playTracks,
      .playCatalog, .enqueue, .lyricLine:
      needsRoom = true
    default:
      needsRoom = roomRequest(for: command) != nil
    }
    guard needsRoom else { return nil }
    guard room.follower.connected else { return roomUnreachable }
    let queue = session.queue
    if command == .next, !queue.hasNext {
      return queue.isEmpty
        ? "the room's queue is empty" : "this is the last entry in the room's queue"
    }
    return nil
  }

  /// What a command needing the room is told while the room cannot be reached.
  var roomUnreachable: String {
    guard let wait = channel?.follower.reconnectIn else {
      return "the room is unreachable: reconnecting; nothing was sent"
    }
    return "the room is unreachable: reconnecting in \(max(1, Int(wait.rounded(.up)))) s; "
      + "nothing was sent"
  }

  /// Enters the room at `url` from a running player; the front end's ``Session/roomJoiner`` starts
  /// the link with the token the player was started with.
  func joinRoom(_ url: String) -> Outcome {
    if let room = channel { return .failed("already in room \(room.name): room leave first") }
    guard let roomJoiner = session.roomJoiner else {
      return .failed("joining a room works in the full-screen player and `refrain room join`")
    }
    if let problem = RoomProtocol.problem(withRoomURL: url) { return .failed(problem) }
    do {
      let channel = try roomJoiner(url)
      self.channel = channel
      pendingPlay = nil
      session.notify(.roomChanged)
      return .done(message: "joining room \(channel.name)…")
    } catch {
      return .failed("cannot join the room: \(error)")
    }
  }

  /// Reads what the room's link wrote, keeps the session on the room, and returns the news
  /// for the front end to show. Once joined, the session asks for the room's library, so it
  /// knows which tracks the room can play.
  func readRoom() -> [RoomFollower.Update] {
    guard let room = channel else { return [] }
    var updates: [RoomFollower.Update] = []
    for line in room.readLines() {
      for update in room.follower.receive(line: line) {
        switch update {
        case .joined: room.send(.library)
        case .queue: playPendingRoomEntry()
        default: break
        }
        updates.append(update)
      }
    }
    return updates
  }

  /// Compares what is heard with the room when a check is due; the news, if any.
  func checkRoom() -> [RoomFollower.Update] { channel?.follower.check() ?? [] }

  /// The room's path of `track`, when the room can play it: a track streamed from the room
  /// itself, or a local file whose path ends with a path the room's library shares.
  func roomPath(for track: Track) -> String? {
    guard let follower = channel?.follower else { return nil }
    if let entry = follower.queue.first(where: { follower.url(forPath: $0.path) == track.location })
    {
      return entry.path
    }
    guard track.location.isFileURL else { return nil }
    let path = track.location.standardizedFileURL.path
    return follower.library.first { path == $0.path || path.hasSuffix("/" + $0.path) }?.path
  }

  /// Why the room will not play `track`, in one short line that says how to leave: the room
  /// plays on.
  func notInRoom(_ track: Track) -> String {
    let kind: String
    if track.location.isFileURL && (track.provider == nil || track.provider == "local") {
      kind = "not shared by the room"
    } else if let provider = track.provider {
      kind = "a \(provider) track"
    } else {
      kind = "a stream"
    }
    return "\(track.title): \(kind); the room plays only its library (:room leave)"
  }

  /// Plays the room's track at `path` for everyone: its queue entry if it has one, else it is
  /// queued first and played once the room's queue shows it.
  func playInRoom(_ path: String, title: String) -> Outcome {
    guard let room = channel else { return .failed("not in a listening room") }
    let follower = room.follower
    if let entry = follower.queue.last(where: { $0.path == path }) {
      room.send(.play(entry: entry.entry))
      return .done(message: "playing \(title) in the room")
    }
    pendingPlay = PendingRoomPlay(path: path, known: Set(follower.queue.map(\.entry)))
    room.send(.queueAdd(path: path))
    return .done(message: "added \(title) to the room's queue; playing it for everyone")
  }

  /// Plays the entry a row asked for once the room's queue shows it was added.
  private func playPendingRoomEntry() {
    guard let pending = pendingPlay, let room = channel else { return }
    guard
      let added = room.follower.queue.first(where: {
        $0.path == pending.path && !pending.known.contains($0.entry)
      })
    else { return }
    pendingPlay = nil
    room.send(.play(entry: added.entry))
  }

  /// Leaves the room: the link ends, what the room played stops, and the player is the
  /// member's own again.
  func leaveRoom() -> Outcome {
    guard let room = channel else { return .failed("not in a listening room") }
    room.stop()
    self.channel = nil
    pendingPlay = nil
    playback.stop()
    session.notify(.roomChanged)
    return .done(message: "left room \(room.name)")
  }

  /// Carries out a room command (chat, join, leave; play is the room's only in a room);
  /// ``Outcome/notForSession`` for any other.
  func execute(_ command: Command) -> Outcome {
    switch command {
    case .chat(let text): return chat(text)
    case .room(.leave): return leaveRoom()
    case .room(.join(let url)): return joinRoom(url)
    case .room(.play): return .failed("not in a listening room")
    default: return .notForSession
    }
  }

  /// Sends a chat line to the room.
  func chat(_ text: String) -> Outcome {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard let room = channel else { return .failed("not in a listening room") }
    guard !trimmed.isEmpty else { return .failed("expected 'chat TEXT'") }
    room.send(.chat(text: trimmed))
    return .done(message: nil)
  }

  /// The room as `ctl status` reports it.
  var roomStatus: RoomStatus? {
    guard let room = channel else { return nil }
    let follower = room.follower
    return RoomStatus(
      name: room.name, members: follower.members.map(\.name), offsetMs: follower.offset,
      syncErrorMs: follower.isFollowing ? follower.lastError.map { $0 * 1000 } : nil,
      connected: follower.connected)
  }
}

/// A track a member asked the room to play, waiting for the room's queue to show it.
struct PendingRoomPlay {
  /// Its path in the room's library.
  var path: String
  /// The queue's entries when it was asked for: the new one is not among them.
  var known: Set<Int>
}
