import Foundation
import RefrainCore

/// What the desktop learns about a track off the loop thread: the tags a queued file did not
/// carry in the queue (a file given on the command line knows only its name) and the cover
/// file in the cover cache.
public struct TrackDetails: Sendable, Equatable {
  /// The title tag, when the queue had only the file name.
  public var title: String?
  /// The artist tag.
  public var artist: String?
  /// The album tag.
  public var album: String?
  /// The album artist tag.
  public var albumArtist: String?
  /// The cover's copy in the cover cache (`$XDG_CACHE_HOME/refrain/covers`).
  public var coverFile: URL?

  /// Creates details.
  public init(
    title: String? = nil, artist: String? = nil, album: String? = nil,
    albumArtist: String? = nil, coverFile: URL? = nil
  ) {
    self.title = title
    self.artist = artist
    self.album = album
    self.albumArtist = albumArtist
    self.coverFile = coverFile
  }
}

/// Finds a track's ``TrackDetails``: reads tags and locates the cover, so it runs on
/// ``BackgroundExecutor``, never on the loop thread.
public typealias TrackDetailsLookup = @Sendable (Track) async -> TrackDetails
