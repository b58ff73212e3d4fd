import Foundation

/// What to find a cover for: the track's local file (if any), its album, the catalog's cover
/// URL (if any) and the size it is drawn at.
public struct CoverRequest: Hashable, Sendable {
  /// The audio file, when the track is local: its tag and its folder are searched.
  public var audioFile: URL?
  /// Names the album for both caches: tracks with the same key share one cover.
  public var albumKey: String
  /// The catalog's cover: a `file://` URL (the demo catalog) or an `http(s)` URL.
  public var catalogCover: URL?
  /// The longer side, in pixels, of the picture drawn; `nil` for no size in particular.
  ///
  /// `nil` is the desktop's art. Only a catalog URL that names its size (``CoverSizing``) is
  /// asked at it, rounded up to a bucket.
  public var pixels: Int?

  public init(
    audioFile: URL? = nil, albumKey: String, catalogCover: URL? = nil, pixels: Int? = nil
  ) {
    self.audioFile = audioFile
    self.albumKey = albumKey
    self.catalogCover = catalogCover
    self.pixels = pixels
  }

  /// The catalog's online cover as it is downloaded and cached: a URL that names its size
  /// asks the bucket for ``pixels`` (the smallest bucket when `nil`) and is kept under that
  /// bucket; any other URL is asked as it is and kept under the album alone.
  public var download: (url: URL, size: Int?)? {
    guard let url = catalogCover, !url.isFileURL else { return nil }
    let bucket = CoverSizing.bucket(forPixels: pixels ?? 0)
    guard let sized = CoverSizing.url(url, size: bucket) else { return (url, nil) }
    return (sized, bucket)
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
