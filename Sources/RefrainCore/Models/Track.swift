import Foundation

/// A playable item: a local file or a remote URL, with what is known about it.
public struct Track: Sendable, Hashable, Codable {
  /// A stable identifier, unique within its provider (file paths for local files).
  public var id: String
  /// Where the audio comes from: a `file://` URL or an `http(s)://` URL.
  public var location: URL
  /// The track title; defaults to the file name without extension.
  public var title: String
  /// The performing artist, if known.
  public var artist: String?
  /// The album, if known.
  public var album: String?
  /// The duration in seconds, if known before decoding.
  public var duration: Double?
  /// The catalog the track came from (`demo`, `local`, `deezer`), if any.
  public var provider: String?
  /// A lyrics file the catalog supplies (an LRC file or a FLO song JSON), if any.
  public var lyricsURL: URL?
  /// The album cover the catalog names (a `file://` demo cover or an online image), if any;
  /// local files find theirs in their tags or folder.
  public var coverURL: URL?
  /// The catalog identity, for a track that came from a catalog; `nil` for a file or URL
  /// given on the command line.
  public var catalogID: CatalogTrackID?
  /// The queue slot this track was taken from, so the same track queued twice is told
  /// apart in the player's events; `nil` outside a queue.
  ///
  /// It is not part of what makes two tracks equal: use ``isSameEntry(as:)`` for that.
  public var queueEntry: Int?
  /// Whether the queue plays this track between tracks of its own album, in order, so
  /// ReplayGain's `auto` mode applies the album gain; `nil` outside a queue. Like
  /// ``queueEntry``, it is not part of what makes two tracks equal.
  public var withinAlbum: Bool?
  /// ReplayGain values that travel with the track (a room's shared file); `nil` leaves them
  /// to the file's tags and the library. Not part of what makes two tracks equal.
  public var replayGain: ReplayGain?
  /// How seeks move the stream when its bytes do not map to time (a transcoded stream);
  /// `nil` seeks as the decoder can. Not part of what makes two tracks equal.
  public var seeking: StreamSeeking?

  /// Creates a track.
  public init(
    id: String, location: URL, title: String, artist: String? = nil, album: String? = nil,
    duration: Double? = nil, provider: String? = nil, lyricsURL: URL? = nil
  ) {
    self.id = id
    self.location = location
    self.title = title
    self.artist = artist
    self.album = album
    self.duration = duration
    self.provider = provider
    self.lyricsURL = lyricsURL
  }

  /// Creates a track for a command-line argument: a path or an `http(s)` URL.
  public init(argument: String) {
    let url: URL
    if let remote = URL(string: argument), let scheme = remote.scheme?.lowercased(),
      scheme == "http" || scheme == "https"
    {
      url = remote
    } else {
      url = URL(fileURLWithPath: argument)
    }
    let base = url.deletingPathExtension().lastPathComponent
    self.init(id: argument, location: url, title: base.isEmpty ? argument : base)
  }

  /// A short name for messages: the path for files, the URL for streams.
  public var displayName: String {
    location.isFileURL ? location.path : location.absoluteString
  }
}

extension Track {
  /// Equal when they are the same recording with the same metadata; the queue slot is left
  /// out (see ``isSameEntry(as:)``).
  public static func == (lhs: Track, rhs: Track) -> Bool {
    lhs.id == rhs.id && lhs.location == rhs.location && lhs.title == rhs.title
      && lhs.artist == rhs.artist && lhs.album == rhs.album && lhs.duration == rhs.duration
      && lhs.provider == rhs.provider && lhs.lyricsURL == rhs.lyricsURL
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    hasher.combine(location)
  }

  /// Whether this is `other` from the same queue slot: equal, and with the same entry when
  /// both came from a queue.
  public func isSameEntry(as other: Track?) -> Bool {
    guard let other, self == other else { return false }
    guard let mine = queueEntry, let theirs = other.queueEntry else { return true }
    return mine == theirs
  }
}
