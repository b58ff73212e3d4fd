import Foundation
import RefrainCore

/// The listening session as every front end reports it: `refrain ctl status`, `--watch`,
/// `refrain play --events`, and later MPRIS and the listening room.
///
/// Encoded with ``SessionJSON``; the keys are the `ctl status` contract. A track's `artist`,
/// `album` and `duration` are `null` when unknown; the track fields are absent when nothing
/// is loaded, and `line`/`line_index` when no synced line is being sung. `stream_title` is
/// present while a live stream (internet radio) plays: what the station says is on air, or
/// `null` before it has said. While a stream playing now has stalled (the player has waited
/// about a second for bytes that do not come), `state` is `"stalled"` and `stall_reason`
/// says why.
public struct SessionStatus: Sendable, Equatable, Encodable {
  /// loading, playing, paused, stopped or idle.
  public var state: PlayerState
  /// The audible position in seconds, to the millisecond.
  public var position: Double
  /// The volume, 0...100 percent.
  public var volume: Int
  /// Whether shuffle is on.
  public var shuffle: Bool
  /// The repeat mode.
  public var `repeat`: RepeatMode
  /// The pane a full-screen front end shows; `nil` for front ends without panes.
  public var pane: String?
  /// The current track's title.
  public var track: String?
  /// The current track's artist.
  public var artist: String?
  /// The current track's album.
  public var album: String?
  /// The current track's duration in seconds, when known.
  public var duration: Double?
  /// The ReplayGain applied to the current track in dB, to 0.01; `nil` when none is.
  public var replayGainDB: Double?
  /// The lyric line being sung.
  public var line: String?
  /// The index of the lyric line being sung.
  public var lineIndex: Int?
  /// Why the last track was skipped.
  public var lastError: String?
  /// The listening room the player is in, when it is in one.
  public var room: RoomStatus?
  /// Whether a live stream is playing (then `stream_title` is written).
  public var isLive = false
  /// What the live stream says is on air, as the station sent it.
  public var streamTitle: String?
  /// Why the live stream is reconnecting, while it is.
  public var streamNotice: String?
  /// Why the stream playing now has stalled, while it has (then `state` is written
  /// `"stalled"`).
  public var stall: String?

  /// Creates a status from a playback snapshot and the lyrics being followed.
  public init(snapshot: PlaybackSnapshot, lyrics: LyricTimeline?, pane: String? = nil) {
    state = snapshot.state
    position = JSONOutput.milliseconds(snapshot.position)
    volume = snapshot.volume
    shuffle = snapshot.isShuffled
    self.repeat = snapshot.repeatMode
    self.pane = pane
    if let current = snapshot.track {
      track = current.title
      artist = current.artist
      album = current.album
      duration = snapshot.duration
      replayGainDB = snapshot.replayGain.map { ($0 * 100).rounded() / 100 }
    }
    if let lyrics, let index = lyrics.index(at: snapshot.position) {
      line = lyrics.lines[index].text
      lineIndex = index
    }
    lastError = snapshot.lastError
    isLive = snapshot.isLive
    streamTitle = snapshot.streamTitle?.raw
    streamNotice = snapshot.streamNotice
    stall = snapshot.state == .playing ? snapshot.stall : nil
  }

  /// The same status with the position cut to whole seconds: what counts as a change for
  /// a watcher (a progress bar moves once a second).
  public var changeKey: SessionStatus {
    var key = self
    key.position = position.rounded(.down)
    return key
  }

  private enum CodingKeys: String, CodingKey {
    case state, position, volume, shuffle, `repeat`, pane, track, artist, album, duration, line
    case lineIndex = "line_index"
    case lastError = "last_error"
    case replayGainDB = "replaygain_db"
    case room
    case streamTitle = "stream_title"
    case streamNotice = "stream_notice"
    case stall = "stall_reason"
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    if let stall {
      try container.encode("stalled", forKey: .state)
      try container.encode(stall, forKey: .stall)
    } else {
      try container.encode(state, forKey: .state)
    }
    try container.encode(position, forKey: .position)
    try container.encode(volume, forKey: .volume)
    try container.encode(shuffle, forKey: .shuffle)
    try container.encode(self.repeat, forKey: .repeat)
    try container.encodeIfPresent(pane, forKey: .pane)
    if let track {
      try container.encode(track, forKey: .track)
      try container.encode(artist, forKey: .artist)
      try container.encode(album, forKey: .album)
      try container.encode(duration, forKey: .duration)
      try container.encode(replayGainDB, forKey: .replayGainDB)
    }
    try container.encodeIfPresent(line, forKey: .line)
    try container.encodeIfPresent(lineIndex, forKey: .lineIndex)
    try container.encodeIfPresent(lastError, forKey: .lastError)
    try container.encodeIfPresent(room, forKey: .room)
    if isLive {
      try container.encode(streamTitle, forKey: .streamTitle)
      try container.encodeIfPresent(streamNotice, forKey: .streamNotice)
    }
  }
}

/// A listening room in `ctl status`: its name, who is there, the room clock's offset and
/// the last sync error measured (audible position minus the room's, ms).
public struct RoomStatus: Sendable, Equatable, Encodable {
  public var name: String
  public var members: [String]
  public var offsetMs: Double?
  public var syncErrorMs: Double?
  public var connected: Bool

  public init(
    name: String, members: [String], offsetMs: Double?, syncErrorMs: Double?, connected: Bool
  ) {
    self.name = name
    self.members = members
    self.offsetMs = offsetMs
    self.syncErrorMs = syncErrorMs
    self.connected = connected
  }

  private enum CodingKeys: String, CodingKey {
    case name, members, connected
    case offsetMs = "offset_ms"
    case syncErrorMs = "sync_error_ms"
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(members, forKey: .members)
    try container.encode(offsetMs.map { ($0 * 10).rounded() / 10 }, forKey: .offsetMs)
    try container.encode(syncErrorMs.map { ($0 * 10).rounded() / 10 }, forKey: .syncErrorMs)
    try container.encode(connected, forKey: .connected)
  }
}

/// The session's JSON: the one encoder, ``JSONOutput``, under the name front ends use.
package typealias SessionJSON = JSONOutput
