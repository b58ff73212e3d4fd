import Foundation

/// An immutable picture of playback, for Refrain's panes to draw from.
///
/// Panes never ask the player directly; they read a snapshot from
/// ``PlaybackPresenter/snapshot`` and draw from it.
public struct PlaybackSnapshot: Sendable, Equatable {
  /// Whether a track is loading, playing, paused or stopped.
  public let state: PlayerState
  /// The current track, if any.
  public let track: Track?
  /// The current track's index in the queue's album order, if any.
  public let index: Int?
  /// The number of tracks in the queue, playable or not.
  public let queueCount: Int
  /// The audible position in seconds at the moment the snapshot was taken.
  public let position: Double
  /// The current track's duration in seconds, when known.
  public let duration: Double?
  /// The volume, 0...100 percent.
  public let volume: Int
  /// Whether shuffle is on.
  public let isShuffled: Bool
  /// The repeat mode.
  public let repeatMode: RepeatMode
  /// Why the last track was skipped, for the status bar; `nil` when nothing failed.
  public let lastError: String?
  /// The player's last non-fatal warning (for example a silent output), if any.
  public let warning: String?
  /// Whether the queue played to its end and playback stopped on its own.
  public let isFinished: Bool
  /// The ReplayGain applied to the track being heard, in dB; `nil` when none is.
  public let replayGain: Double?
  /// What the live stream playing now says is on air; `nil` for other tracks.
  public let streamTitle: StreamTitle?
  /// Whether the current track is a live stream (internet radio).
  public let isLive: Bool
  /// Why the live stream is reconnecting, while it is.
  public let streamNotice: String?
  /// Why the stream playing now has stalled (the player waits for bytes that do not come),
  /// while it has; `nil` otherwise.
  public let stall: String?

  /// Creates a snapshot; the presenter is the usual source.
  public init(
    state: PlayerState, track: Track?, index: Int?, queueCount: Int, position: Double,
    duration: Double?, volume: Int, isShuffled: Bool, repeatMode: RepeatMode,
    lastError: String?, warning: String?, isFinished: Bool, replayGain: Double? = nil,
    streamTitle: StreamTitle? = nil, isLive: Bool = false, streamNotice: String? = nil,
    stall: String? = nil
  ) {
    self.stall = stall
    self.streamTitle = streamTitle
    self.isLive = isLive
    self.streamNotice = streamNotice
    self.state = state
    self.track = track
    self.index = index
    self.queueCount = queueCount
    self.position = position
    self.duration = duration
    self.volume = volume
    self.isShuffled = isShuffled
    self.repeatMode = repeatMode
    self.lastError = lastError
    self.warning = warning
    self.isFinished = isFinished
    self.replayGain = replayGain
  }
}
