import Foundation

/// A radio station the user keeps in the library: a name and the URL of its stream or of
/// its playlist (`.pls`, `.m3u`).
public struct RadioStation: Sendable, Equatable, Codable {
  /// The name the user gave it, unique whatever its case.
  public var name: String
  /// The stream's or playlist's URL (or a playlist file's path).
  public var url: String

  /// Creates a station.
  public init(name: String, url: String) {
    self.name = name
    self.url = url
  }

  /// The station as a track to queue: titled with its name.
  public var track: Track {
    var track = Track(argument: url)
    track.title = name
    return track
  }
}
