import Foundation

/// The player's coarse state.
public enum PlayerState: String, Sendable, Codable {
  /// Nothing loaded.
  case idle
  /// A track is being opened (or a stream is buffering).
  case loading
  /// Audio is being written to the output.
  case playing
  /// Playback is paused; the position is kept.
  case paused
  /// Playback ended or was stopped.
  case stopped
}

/// Something the player reports to its owner, in order.
public enum PlayerEvent: Sendable, Equatable {
  /// A track began to play; `duration` is exact when the decoder could scan it.
  case started(Track, duration: Double?)
  /// The track played to its end (the last sample was handed to the output).
  case trackEnded(Track)
  /// The track could not be played; `message` says why and what to do.
  case failed(Track, message: String)
  /// The output reported a problem that did not stop playback (e.g. a silent fallback).
  case warning(String)
  /// A live stream reported what is on air, or that it is reconnecting (internet radio).
  case stream(Track, StreamNews)

  /// The event with every URL in its messages redacted (``SecretRedaction``): what the
  /// session hands on to status lines, `ctl status`, events and logs.
  public var redactingSecrets: PlayerEvent {
    switch self {
    case .failed(let track, let message):
      return .failed(track, message: SecretRedaction.redacting(message))
    case .warning(let message): return .warning(SecretRedaction.redacting(message))
    case .stream(let track, .reconnecting(let reason, let retryIn)):
      return .stream(
        track, .reconnecting(reason: SecretRedaction.redacting(reason), retryIn: retryIn))
    case .stream(let track, .stalled(let reason)):
      return .stream(track, .stalled(reason: SecretRedaction.redacting(reason)))
    case .stream(let track, .notice(let text)):
      return .stream(track, .notice(SecretRedaction.redacting(text)))
    case .started, .trackEnded, .stream: return self
    }
  }
}

/// The surface of an audio player, as the presenter sees it.
///
/// Implementations run their own thread and never block the caller. Events are
/// delivered by ``drainEvents()`` after the caller is woken through ``wakeFileDescriptor``.
public protocol AudioPlayer: AnyObject, Sendable {
  /// A file descriptor that becomes readable when events are pending; `poll()` on it.
  var wakeFileDescriptor: Int32 { get }
  /// Returns and clears the pending events, in the order they happened.
  func drainEvents() -> [PlayerEvent]
  /// Stops what is playing and starts `track` at `startAt` seconds.
  func play(_ track: Track, startAt: Double)
  /// Prepares the track that follows, so the hand-over is gapless; `nil` clears it.
  func prepareNext(_ track: Track?)
  /// Pauses playback; the audible position is kept exactly.
  func pause()
  /// Resumes after a pause.
  func resume()
  /// Stops playback and releases the track.
  func stop()
  /// Seeks to an absolute position in seconds within the current track.
  func seek(to seconds: Double)
  /// Sets the software volume, 0...100 percent.
  func setVolume(_ percent: Int)
  /// The audible position in seconds: what the listener hears now.
  var position: Double { get }
  /// The current state.
  var state: PlayerState { get }
  /// Wall-clock seconds until the audible position reaches `target`; `nil` unless playing.
  func delay(untilPosition target: Double) -> Double?
  /// The ReplayGain applied to the track being heard, in dB; `nil` when none is.
  var appliedGain: Double? { get }
}

extension AudioPlayer {
  /// No ReplayGain: players that apply none.
  public var appliedGain: Double? { nil }

  /// A default that assumes the position moves with the wall clock while playing.
  public func delay(untilPosition target: Double) -> Double? {
    guard state == .playing else { return nil }
    return max(0, target - position)
  }
}
