import Foundation

/// What to find a cover for: the track's local file (if any), its album, and the catalog's
/// cover URL (if any).
public struct CoverRequest: Hashable, Sendable {
  /// The audio file, when the track is local: its tag and its folder are searched.
  public var audioFile: URL?
  /// Names the album for both caches: tracks with the same key share one cover.
  public var albumKey: String
  /// The catalog's cover: a `file://` URL (the demo catalog) or an `http(s)` URL.
  public var catalogCover: URL?

  public init(audioFile: URL? = nil, albumKey: String, catalogCover: URL? = nil) {
    self.audioFile = audioFile
    self.albumKey = albumKey
    self.catalogCover = catalogCover
  }

  /// The album key of an artist's album; falls back to `folder` (a local file's folder path)
  /// when the album is unknown.
  public static func albumKey(artist: String?, album: String?, folder: URL? = nil) -> String {
    if let album, !album.isEmpty { return (artist ?? "") + "\u{1F}" + album }
    return folder?.standardizedFileURL.path ?? ""
  }
}

/// Where a located cover came from.
public enum CoverSource: Hashable, Sendable {
  /// The audio file's ID3v2 picture.
  case embedded
  /// An image next to the audio file (`cover.jpg`, `folder.png`, …).
  case folderImage(URL)
  /// The catalog's cover, read from disk or downloaded.
  case catalog(URL)
  /// A cover downloaded earlier, from the disk cache.
  case diskCache
}

/// A cover's picture bytes, where they came from, and the cached file that holds them.
public struct LocatedCover: Sendable, Equatable {
  public var data: Data
  public var format: ImageFormat
  public var source: CoverSource
  /// The copy in the disk cache (for MPRIS's `mpris:artUrl`); `nil` when it could not be
  /// written.
  public var cacheFile: URL?
}
