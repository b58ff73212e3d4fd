import Foundation
import RefrainCore

/// The `org.mpris.MediaPlayer2.Player` properties Refrain publishes, other than `Metadata`
/// and `Position`: a pure value made from a playback snapshot, compared before publishing.
public struct MPRISPlayerState: Sendable, Equatable {
  /// `PlaybackStatus`.
  public enum PlaybackStatus: String, Sendable, CaseIterable {
    case playing = "Playing"
    case paused = "Paused"
    case stopped = "Stopped"

    /// The status of a player in `state`: a loading track counts as playing (it is about to
    /// be heard), nothing loaded as stopped.
    public init(_ state: PlayerState) {
      switch state {
      case .playing, .loading: self = .playing
      case .paused: self = .paused
      case .idle, .stopped: self = .stopped
      }
    }
  }

  /// `LoopStatus`, which is Refrain's repeat mode under MPRIS's names.
  public enum LoopStatus: String, Sendable, CaseIterable {
    /// Repeat off (`None`).
    case off = "None"
    /// Repeat one.
    case track = "Track"
    /// Repeat all.
    case playlist = "Playlist"

    /// The loop status that shows `mode`.
    public init(_ mode: RepeatMode) {
      switch mode {
      case .off: self = .off
      case .one: self = .track
      case .all: self = .playlist
      }
    }

    /// The repeat mode this loop status asks for.
    public var repeatMode: RepeatMode {
      switch self {
      case .off: return .off
      case .track: return .one
      case .playlist: return .all
      }
    }
  }

  public var playbackStatus: PlaybackStatus
  public var loopStatus: LoopStatus
  public var shuffle: Bool
  /// 0...1, Refrain's volume percentage divided by 100.
  public var volume: Double
  /// Whether `Next` reaches a track (the queue has one after the current one).
  public var canGoNext: Bool
  /// Whether `Previous` does something: go back, or restart the current track.
  public var canGoPrevious: Bool
  /// Whether `Play` has something to play.
  public var canPlay: Bool
  /// Whether `Pause` (and `PlayPause`) can act: a track is current.
  public var canPause: Bool
  /// Whether `Seek` and `SetPosition` work: a track is current, its length is known, and it
  /// does not refuse seeks (a stream its server transcodes with no way to start elsewhere).
  public var canSeek: Bool

  /// The properties for `snapshot`; `hasNext` says whether the queue has a track after the
  /// current one (``PlayQueue/peekNextIndex()``).
  public init(snapshot: PlaybackSnapshot, hasNext: Bool) {
    playbackStatus = PlaybackStatus(snapshot.state)
    loopStatus = LoopStatus(snapshot.repeatMode)
    shuffle = snapshot.isShuffled
    volume = Self.volume(percent: snapshot.volume)
    let hasTrack = snapshot.track != nil
    canGoNext = hasNext
    canGoPrevious = hasTrack
    canPlay = hasTrack || snapshot.queueCount > 0
    canPause = hasTrack
    canSeek =
      hasTrack && snapshot.duration != nil && snapshot.track?.seeking?.refusal == nil
  }

  /// MPRIS's volume (0...1) for a percentage.
  public static func volume(percent: Int) -> Double {
    Double(min(max(percent, 0), 100)) / 100
  }

  /// The percentage for MPRIS's volume, clamped to 0...100; `nil` for NaN.
  public static func percent(volume: Double) -> Int? {
    guard !volume.isNaN else { return nil }
    return Int((min(max(volume, 0), 1) * 100).rounded())
  }
}
