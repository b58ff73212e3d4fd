import Foundation

/// What a live stream (internet radio) says is on air: the station's `StreamTitle`, and
/// the artist and title read from it.
public struct StreamTitle: Sendable, Equatable {
  /// The title as the station sent it, already made safe for a terminal.
  public let raw: String
  /// What comes before the first " - ", when there is one.
  public let artist: String?
  /// What follows the first " - ", or the whole title when there is none.
  public let title: String

  /// Splits `raw` on its first " - " into artist and title; without one, the whole of it
  /// is the title.
  public init(raw: String) {
    self.raw = raw
    if let dash = raw.range(of: " - ") {
      let artist = raw[..<dash.lowerBound].trimmingCharacters(in: .whitespaces)
      let title = raw[dash.upperBound...].trimmingCharacters(in: .whitespaces)
      self.artist = artist.isEmpty ? nil : artist
      self.title = title.isEmpty ? raw : title
    } else {
      artist = nil
      title = raw
    }
  }
}

/// News from a stream while it plays, reported by the player as ``PlayerEvent/stream(_:_:)``:
/// a live stream's titles and reconnections, and any HTTP(S) stream's stalls.
public enum StreamNews: Sendable, Equatable {
  /// The track is a live stream (the server sent ICY headers): it has no end and no
  /// duration, is not scrobbled and has no lyrics.
  case live
  /// The station's title changed (or was sent again after a reconnection).
  case title(StreamTitle)
  /// The connection dropped (or was refused): the next attempt is in `retryIn` seconds.
  case reconnecting(reason: String, retryIn: Double)
  /// The stream is back after a drop.
  case reconnected
  /// The player waits for bytes that have not come for about a second; `reason` says why
  /// ("connection refused", "the server has sent nothing for 1 s").
  case stalled(reason: String)
  /// Bytes flow again after ``stalled(reason:)``.
  case flowing
  /// Something the listener should know about what is read, in one line (a radio playlist
  /// cut at its cap).
  case notice(String)
}

extension PlaybackSnapshot {
  /// The current track as front ends show it: for a live stream that has said what is on
  /// air, its title and artist, with the station (the track's own title) as the album.
  public var shownTrack: Track? {
    guard var track, let stream = streamTitle else { return track }
    track.album = track.title
    track.title = stream.title
    track.artist = stream.artist
    return track
  }
}
