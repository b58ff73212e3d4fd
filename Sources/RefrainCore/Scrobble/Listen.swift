import Foundation

/// One play of a track that met the listen rule, ready to be queued for the scrobbling
/// services.
///
/// A `Listen` exists only for a play that ``counts(track:duration:)`` allows and that
/// reached ``threshold(duration:)`` of audible time; ``ListenCounter`` makes them.
public struct Listen: Sendable, Hashable, Codable {
  /// The track that was heard.
  public var track: Track
  /// When the play began, on the wall clock (the services' `listened_at` / `timestamp`).
  public var listenedAt: Date
  /// The track's length in seconds, as the decoder reported it (or the catalog's, when the
  /// decoder could not tell).
  public var duration: Double
  /// Audible seconds heard when the listen was reported (pauses and seeks excluded).
  public var playedSeconds: Double

  /// Creates a listen.
  public init(track: Track, listenedAt: Date, duration: Double, playedSeconds: Double) {
    self.track = track
    self.listenedAt = listenedAt
    self.duration = duration
    self.playedSeconds = playedSeconds
  }

  /// Tracks shorter than this never count (seconds).
  public static let minimumDuration: Double = 30
  /// Listening this long always counts, whatever the track's length (seconds).
  public static let maximumThreshold: Double = 240
  /// A Deezer stream no longer than this is the catalog's 30-second preview (seconds).
  public static let previewLength: Double = 31

  /// Whether a play of `track`, whose stream lasts `duration` seconds, may ever count.
  ///
  /// The rule, from issue 16:
  /// - the demo catalog (provider `demo`) never counts;
  /// - an online catalog preview never counts: a `deezer` track whose stream is no longer
  ///   than ``previewLength`` (Deezer's public API plays 30-second previews, while the
  ///   track's catalog `duration` is the full song's) or whose length is unknown;
  /// - a track shorter than ``minimumDuration``, or of unknown length, never counts;
  /// - everything else counts: local files (provider `local`), files and URLs given on the
  ///   command line (no provider), full-length streams.
  ///
  /// `duration` must be the length of what plays (the `.started` event's), not the catalog's.
  public static func counts(track: Track, duration: Double?) -> Bool {
    guard let duration, duration.isFinite, duration >= minimumDuration else { return false }
    switch track.provider {
    case "demo": return false
    case "deezer": return duration > previewLength
    default: return true
    }
  }

  /// The audible seconds after which a play of a `duration`-second track counts: half the
  /// track or ``maximumThreshold``, whichever is less.
  public static func threshold(duration: Double) -> Double {
    min(duration / 2, maximumThreshold)
  }
}

/// A track that began to play and may become a listen: what the services' "now playing"
/// (`playing_now`, `track.updateNowPlaying`) announce.
public struct NowPlaying: Sendable, Hashable {
  /// The track that started.
  public var track: Track
  /// The length of what plays, in seconds.
  public var duration: Double
  /// When it started, on the wall clock.
  public var startedAt: Date

  /// Creates a now-playing announcement.
  public init(track: Track, duration: Double, startedAt: Date) {
    self.track = track
    self.duration = duration
    self.startedAt = startedAt
  }
}

/// A scrobbling service a listen is queued for.
public enum ScrobbleService: String, Sendable, Hashable, Codable, CaseIterable,
  CustomStringConvertible
{
  /// ListenBrainz (`single` listens, `playing_now`).
  case listenBrainz = "listenbrainz"
  /// Last.fm (`track.scrobble` in batches, `track.updateNowPlaying`).
  case lastFM = "lastfm"
  /// The user's Subsonic server (`scrobble.view`), for its own tracks only.
  case subsonic

  /// Whether a listen of `track` goes to this service: the Subsonic server takes only plays
  /// of its own tracks; the others take every listen.
  public func accepts(_ track: Track) -> Bool {
    self != .subsonic || track.provider == "subsonic"
  }

  public var description: String { rawValue }
}
