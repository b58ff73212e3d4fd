import Foundation

/// Counts the audible time of the current play and reports its listen exactly once, when
/// issue 16's rule is met.
///
/// Feed it the player's events (``handle(_:at:)``) and samples of the audible position
/// (``sample(track:position:isPlaying:)``, or ``sample(_:)`` with the presenter's snapshot),
/// about once a second while playing, as the session's main loop wakes.
///
/// Guarantees:
/// - Only forward progress between two consecutive samples while playing is added, and only
///   when it is at most ``maximumStep`` seconds: a larger jump, or any move backwards, is a
///   seek and adds nothing. Pauses add nothing (the position does not move).
/// - A play is reported at most once, at the first sample whose total reaches
///   ``Listen/threshold(duration:)``, and never when ``Listen/counts(track:duration:)``
///   refuses the track.
/// - Every `.started` event is a new play (repeat one, the same track queued twice), with
///   its own count; it yields one ``NowPlaying`` for a track that may count.
/// - It never reads a clock: the wall-clock time of each event is passed in.
public struct ListenCounter: Sendable {
  /// The largest forward move between two samples that is taken as playing, in seconds.
  public static let maximumStep: Double = 1.5

  /// The play being counted.
  private struct Play: Sendable {
    var track: Track
    var duration: Double
    var startedAt: Date
    var played: Double = 0
    var lastPosition: Double?
    var reported = false
  }

  private var play: Play?

  /// Creates a counter with nothing playing.
  public init() {}

  /// The audible seconds counted for the current play; 0 when nothing is counted.
  public var playedSeconds: Double { play?.played ?? 0 }

  /// Applies a player event; returns the announcement when a track that may count started.
  ///
  /// `.started` begins a new play (any earlier count is dropped); `.trackEnded` and
  /// `.failed` of the counted track end it. Warnings change nothing.
  public mutating func handle(_ event: PlayerEvent, at now: Date) -> NowPlaying? {
    switch event {
    case .started(let track, let reported):
      let duration = reported ?? track.duration
      guard let duration, Listen.counts(track: track, duration: duration) else {
        play = nil
        return nil
      }
      play = Play(track: track, duration: duration, startedAt: now)
      return NowPlaying(track: track, duration: duration, startedAt: now)
    case .trackEnded(let track), .failed(let track, _):
      if let current = play, track.isSameEntry(as: current.track) { play = nil }
      return nil
    case .warning:
      return nil
    case .stream(let track, .live):
      // Radio is never scrobbled.
      if let current = play, track.isSameEntry(as: current.track) { play = nil }
      return nil
    case .stream:
      return nil
    }
  }

  /// Takes one sample of the audible position of `track`; returns the listen when this
  /// sample is the one that crosses the threshold.
  ///
  /// A sample of another queue entry than the counted one (a stale snapshot) is ignored.
  /// While not playing, the position is only remembered, so a seek during a pause adds
  /// nothing on resume.
  public mutating func sample(track: Track?, position: Double, isPlaying: Bool) -> Listen? {
    guard var current = play, let track, track.isSameEntry(as: current.track) else {
      return nil
    }
    defer { play = current }
    if isPlaying, let last = current.lastPosition {
      let step = position - last
      if step > 0, step <= Self.maximumStep { current.played += step }
    }
    current.lastPosition = position
    guard !current.reported, current.played >= Listen.threshold(duration: current.duration)
    else { return nil }
    current.reported = true
    return Listen(
      track: current.track, listenedAt: current.startedAt, duration: current.duration,
      playedSeconds: current.played)
  }

  /// Takes one sample from the presenter's snapshot (its track, position and state).
  public mutating func sample(_ snapshot: PlaybackSnapshot) -> Listen? {
    sample(
      track: snapshot.track, position: snapshot.position, isPlaying: snapshot.state == .playing)
  }
}
