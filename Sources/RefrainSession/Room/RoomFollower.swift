import Foundation
import RefrainCore

/// Where a member's link to its room stands, as `refrain-room link` reports it.
public enum RoomLinkState: String, Sendable, Codable {
  /// Joined: the room's messages arrive.
  case connected
  /// The connection ended; the link retries, and the member plays on meanwhile.
  case lost
  /// The server turned the member away (a wrong token, a full room); the link has ended.
  case refused
}

/// Keeps a session on a listening room: it reads the room's messages (relayed by
/// `refrain-room link`), plays what the room plays, and keeps what the listener *hears*
/// (the audible clock) on the room's position.
///
/// The room state says: at room-clock time `at`, track T was at position P. With the
/// offset between the room clock and this process's monotonic clock (estimated by the link
/// from `time` probes), the follower knows where the room is now; every check compares that
/// with the audible position and corrects with ``RoomSync``. Everything runs on the
/// session's thread; `now` is injected (seconds on the monotonic clock).
public final class RoomFollower {
  /// Something the front end may show.
  public enum Update: Equatable, Sendable {
    case joined(RoomWelcome)
    case members([RoomMember])
    case queue
    case state(RoomPlayback)
    case history(track: String?, messages: [RoomChat])
    case chat(RoomChat)
    case notice(String)
    case error(code: RoomErrorCode, message: String)
    /// The link connected, lost the room (with why and when it retries), or was refused.
    case link(state: RoomLinkState, reason: String?)
    /// A correction was made: the error (s, audible minus room) and what was done.
    case corrected(error: Double, action: RoomSync.Correction)
  }

  public private(set) var welcome: RoomWelcome?
  public private(set) var members: [RoomMember] = []
  public private(set) var queue: [RoomQueueEntry] = []
  public private(set) var current: Int?
  public private(set) var state: RoomPlayback?
  /// The chat about the current track: its history, then what arrived since.
  public private(set) var chat: [RoomChat] = []
  /// Room clock minus this process's monotonic clock, ms.
  public private(set) var offset: Double?
  /// The smallest round trip of the clock probes, ms.
  public private(set) var roundTrip: Double?
  /// The last measured error, s: audible position minus the room's.
  public private(set) var lastError: Double?
  /// Whether the link is connected.
  public private(set) var connected = false
  /// When (on `now`'s clock, s) the link tries to reconnect, while the room is lost.
  private var reconnectAt: Double?
  /// Seconds until the link tries to reach the room again, while it is lost; `nil` while
  /// connected (or before the link said).
  public var reconnectIn: Double? { reconnectAt.map { max(0, $0 - now()) } }
  /// The tracks the room's server shares, once it has listed them (asked for at joining).
  public private(set) var library: [RoomLibraryTrack] = []

  private let session: Session
  private let trackURL: (String) -> URL?
  private let now: () -> Double
  private let sync: RoomSync
  private var loadedEntry: Int?
  private var settleUntil = -Double.infinity
  /// What the last action was, so the next check can learn from the error left after it.
  private enum Pending { case none, seek, start }
  private var pending = Pending.none

  /// How long after a seek its new position is heard (s): seeks aim that far ahead. It
  /// starts at the engine's usual figure, then is the median of what the last seeks took
  /// (the lead used minus the error left), so one noisy measure does not swing it.
  public private(set) var seekLead = 0.015
  /// How long after a start the first audio is heard (s), learnt the same way.
  public private(set) var startLead = 0.05
  private var seekTimes: [Double] = []
  private var startTimes: [Double] = []
  /// The most a lead may grow to (s).
  private static let leadLimit = 0.5
  /// How many measures a lead is the median of.
  private static let leadWindow = 5

  /// Adds what a seek or start took to `times` and returns their median.
  private static func learn(_ took: Double, into times: inout [Double]) -> Double {
    times.append(min(leadLimit, max(0, took)))
    if times.count > leadWindow { times.removeFirst(times.count - leadWindow) }
    let sorted = times.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// How often the audible position is checked while playing, s.
  public static let checkInterval = 0.25
  /// How long a correction is left to settle before the next check, s.
  public static let settleTime = 0.6

  /// Follows the room for `session`; `trackURL` turns a library path into the URL the
  /// player streams it from.
  public init(
    session: Session, trackURL: @escaping (String) -> URL?, now: @escaping () -> Double,
    sync: RoomSync = RoomSync()
  ) {
    self.session = session
    self.trackURL = trackURL
    self.now = now
    self.sync = sync
  }

  /// The URL this member streams a room track from, by its path in the room's library.
  public func url(forPath path: String) -> URL? { trackURL(path) }

  /// Whether what this member hears is the room's track: joined, and the session is on the
  /// entry the room plays. Only then does a sync figure mean anything.
  public var isFollowing: Bool {
    guard connected, let path = state?.path, let url = trackURL(path),
      let current = session.playback.queue.current
    else { return false }
    return current.location == url
  }

  /// The room clock now (ms), once the offset is known.
  public var roomNow: Double? { offset.map { now() * 1000 + $0 } }

  /// Reads one line from the link and acts on it.
  public func receive(line: String) -> [Update] {
    if let link = Self.linkLine(line) { return receiveLink(link) }
    guard let event = RoomEvent.parse(line) else { return [] }
    switch event {
    case .welcome(let welcome):
      self.welcome = welcome
      return [.joined(welcome)]
    case .members(let members):
      self.members = members
      return [.members(members)]
    case .queue(let entries, let current):
      queue = entries
      self.current = current
      return [.queue]
    case .state(let playback):
      state = playback
      var updates: [Update] = [.state(playback)]
      updates += follow()
      return updates
    case .history(let track, let messages):
      chat = messages
      return [.history(track: track, messages: messages)]
    case .chat(let message):
      if message.track == state?.path {
        chat.append(message)
        if chat.count > RoomProtocol.historyLimit * 4 {
          chat.removeFirst(chat.count - RoomProtocol.historyLimit)
        }
      }
      return [.chat(message)]
    case .notice(let text):
      return [.notice(text)]
    case .error(.unknownType, let message, _):
      // An older server that does not have a request this member sent.
      return [
        .error(
          code: .unknownType,
          message: "the room server does not know that request (an older server?): \(message)")
      ]
    case .error(let code, let message, _):
      return [.error(code: code, message: message)]
    case .library(let tracks):
      library = tracks
      return []
    case .time, .heartbeat:
      return []
    }
  }

  /// Seconds until ``check()`` is due; `nil` when nothing plays.
  public func nextCheck() -> Double? {
    guard let state, state.entry != nil, offset != nil else { return nil }
    guard state.playing || session.player.state == .playing else { return nil }
    return max(0.01, max(settleUntil - now(), 0) + (settleUntil > now() ? 0 : Self.checkInterval))
  }

  /// Compares what is heard with the room and corrects it; the correction is reported.
  public func check() -> [Update] { correct(reporting: true) }

  private func correct(reporting: Bool) -> [Update] {
    guard let state, let roomNow, state.entry == loadedEntry, state.entry != nil else {
      return follow()
    }
    if now() < settleUntil { return [] }
    let player = session.player
    if !state.playing {
      if player.state == .playing { session.playback.pause() }
      return []
    }
    if player.state == .paused { session.playback.resume() }
    // The audible clock has not started yet (the start, a seek): look again soon.
    guard player.state == .playing, player.delay(untilPosition: 0) != nil else { return [] }
    let expected = state.position(atRoomClock: roomNow)
    let audible = player.position
    let error = audible - expected
    lastError = error
    // What is left after our own seek or start says how late it was heard: aim further.
    if abs(error) <= sync.stepLimit {
      switch pending {
      case .seek: seekLead = Self.learn(seekLead - error, into: &seekTimes)
      case .start: startLead = Self.learn(startLead - error, into: &startTimes)
      case .none: break
      }
    }
    pending = .none
    if let duration = state.duration, expected >= duration - 0.05 { return [] }
    let correction = sync.correction(audible: audible, expected: expected)
    switch correction {
    case .none:
      return []
    case .step, .seek:
      // Where the room will be when the new position is heard.
      session.playback.seek(to: max(0, expected + seekLead))
      pending = .seek
    }
    settleUntil = now() + Self.settleTime
    return reporting ? [.corrected(error: error, action: correction)] : []
  }

  /// Plays, pauses or stops to match the room state (the track and whether it plays).
  private func follow() -> [Update] {
    guard let state, let roomNow else { return [] }
    guard let entry = state.entry, let path = state.path else {
      if loadedEntry != nil {
        loadedEntry = nil
        session.playback.stop()
      }
      return []
    }
    if entry != loadedEntry {
      guard let url = trackURL(path) else { return [] }
      let info = queue.first { $0.entry == entry }
      var track = Track(
        id: "room:\(entry)", location: url, title: info?.title ?? path, artist: info?.artist,
        album: info?.album, duration: info?.duration ?? state.duration)
      track.replayGain = info?.replayGain
      loadedEntry = entry
      let position = state.position(atRoomClock: roomNow)
      if state.playing {
        session.playback.playAll([track], startAt: 0, position: position + startLead)
        pending = .start
      } else {
        session.playback.restore([track], startAt: 0, position: position)
      }
      settleUntil = now() + Self.settleTime
      return []
    }
    if !state.playing {
      if session.player.state == .playing || session.player.state == .loading {
        session.playback.pause()
      }
      if abs(session.player.position - state.position) > sync.tolerance {
        session.playback.seek(to: state.position)
      }
      return []
    }
    if session.player.state == .paused { session.playback.resume() }
    settleUntil = -Double.infinity
    // A seek or a resume by the room, not drift: done without a `corrected` report.
    return correct(reporting: false)
  }

  /// The link's own lines: `{"type":"link",…}` and `{"type":"offset",…}`.
  private func receiveLink(_ line: LinkLine) -> [Update] {
    switch line.type {
    case "offset":
      let first = offset == nil
      offset = line.offsetMs
      roundTrip = line.rttMs
      return first ? follow() : []
    case "link":
      guard let state = line.state.flatMap(RoomLinkState.init(rawValue:)) else { return [] }
      connected = state == .connected
      reconnectAt = state == .lost ? line.retryIn.map { now() + $0 } : nil
      if state != .connected { offset = nil }
      return [.link(state: state, reason: line.reason)]
    default:
      return []
    }
  }

  /// A line the link adds to the room's messages: its state, or a clock offset.
  struct LinkLine: Decodable {
    var type: String
    var state: String?
    var reason: String?
    var retryIn: Double?
    var offsetMs: Double?
    var rttMs: Double?

    enum CodingKeys: String, CodingKey {
      case type, state, reason
      case retryIn = "retry_in"
      case offsetMs = "offset_ms"
      case rttMs = "rtt_ms"
    }
  }

  private static func linkLine(_ line: String) -> LinkLine? {
    guard line.contains("\"type\":\"offset\"") || line.contains("\"type\":\"link\""),
      let decoded = try? JSONDecoder().decode(LinkLine.self, from: Data(line.utf8)),
      decoded.type == "link" || decoded.type == "offset"
    else { return nil }
    return decoded
  }
}

extension RoomFollower.Update {
  /// What a status line says about this news, cleaned for the terminal; `nil` for news a
  /// front end shows elsewhere (members, the queue, playback, corrections).
  public var statusLine: (text: String, isError: Bool)? {
    let clean = TerminalSanitizer.clean
    switch self {
    case .notice(let text): return (clean(text), false)
    case .error(_, let message): return (clean(message), true)
    case .joined(let welcome): return ("joined room \(clean(welcome.room))", false)
    case .link(.lost, let reason):
      let why = clean(reason ?? "the connection ended")
      return ("room lost (\(why)): playing on, reconnecting", true)
    case .link(.refused, let reason):
      return (clean(reason ?? "the room refused this member"), true)
    case .chat(let message): return ("\(clean(message.from)): \(clean(message.text))", false)
    case .link(.connected, _), .members, .queue, .state, .history, .corrected: return nil
    }
  }
}
