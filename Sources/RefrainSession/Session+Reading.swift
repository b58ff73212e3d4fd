import Foundation
import RefrainCore

/// What front ends read from the session: values, never the parts that own the state.
///
/// A front end draws from these and changes things only through ``Session/execute(_:)``
/// (and the answered variants), so every door sees the same queue and the same answers.
extension Session {
  /// Playback now, with the audible position.
  public var snapshot: PlaybackSnapshot { playback.snapshot }

  /// The queue every front end shows: in a listening room, the room's; otherwise the
  /// session's own.
  public var queue: QueueView {
    if let room = roomPart.channel { return QueueView(room: room.name, follower: room.follower) }
    return QueueView(
      playback.queue, canRestart: playback.state == .playing || playback.state == .paused)
  }

  /// The current track's lyrics as a timeline, once they arrived.
  public var lyricsTimeline: LyricTimeline? { playback.lyrics?.timeline }

  /// The current track's lyrics as they were read, once they arrived.
  public var lyricsDocument: LyricsDocument? { playback.lyrics?.document }

  /// The user's lyric offset for the current track, in ms (positive shows lines earlier).
  public var lyricOffsetMs: Int { playback.lyricOffsetMs }

  /// How many seeks were asked of the player so far, from any door: front ends compare it
  /// to announce seeks (MPRIS `Seeked`).
  public var seekCount: Int { playback.seekCount }

  /// The lyric line that became current at the audible position since the last call, or
  /// `nil` when nothing changed; after a seek, a new track or a nudge it is reported again.
  ///
  /// It is for the one front end that prints line events (`--events`).
  public func lyricLineChange() -> LyricFollower.Change? { playback.lyricChange() }

  /// The audible position at which the highlighted line changes next, if any.
  public var nextLyricChange: Double? { playback.nextLyricChange() }
}
