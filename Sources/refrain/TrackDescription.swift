import Foundation
import RefrainCore
import RefrainTags

/// How a track that arrived by its path (the command line, `ctl queue add`, `OpenUri`, a
/// playlist `add`) is described: by its tags, as `refrain scan` describes it.
enum TrackDescription {
  /// The track with its file's title, artist, album and duration; a track that is no
  /// readable file, or whose tags say nothing, keeps what it had. Reads the file: call it
  /// off the UI thread (``Session`` does).
  @Sendable static func fromTags(_ track: Track) -> Track {
    guard track.location.isFileURL,
      let tags = try? AudioTagReader().readTags(atPath: track.location.path)
    else { return track }
    var described = track
    if let title = tags.title, !title.isEmpty { described.title = title }
    described.artist = tags.artist ?? track.artist
    described.album = tags.album ?? track.album
    described.duration = tags.duration ?? track.duration
    return described
  }
}
