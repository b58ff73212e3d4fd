import Foundation
import RefrainCore
import RefrainTags

/// Finds a track's cover, first found wins: the audio file's embedded picture, an image in
/// its folder, then the catalog's cover (a file, or a download through the caller's fetch
/// closure, once per album: it is kept in the disk cache).
///
/// A catalog URL that names its size is asked at the bucket the request needs and kept per
/// bucket; a cached picture of that bucket or a larger one is served, never a smaller one.
///
/// Every call reads files or waits on the network and decodes: run it on a background task,
/// never on the UI thread. A failure is one `CoverError`; memory stays bounded by `limits`.
public final class CoverLocator: Sendable {
  /// Downloads a catalog cover; the caller wires real HTTP and enforces a timeout.
  public typealias Fetch = @Sendable (URL) async throws -> Data

  /// The base names a folder image may have (any case), in order of preference.
  public static let folderImageNames = ["cover", "folder", "front", "album"]
  /// The extensions a folder image may have (any case).
  public static let folderImageExtensions: Set<String> = ["jpg", "jpeg", "png"]

  public let cache: CoverDiskCache
  public let limits: CoverLimits
  public let cells: CoverCellCache
  private let fetch: Fetch?

  public init(
    cache: CoverDiskCache, limits: CoverLimits = .standard,
    cells: CoverCellCache = CoverCellCache(),
    fetch: Fetch? = nil
  ) {
    self.cache = cache
    self.limits = limits
    self.cells = cells
    self.fetch = fetch
  }

  /// The cover from the sources that need no network (embedded, folder, a `file://` catalog
  /// cover, a download cached earlier); `nil` when only a download could find one.
  ///
  /// Throws the first source's error when a source had a cover that is unusable (too large,
  /// not an image) and nothing else was found.
  public func locateLocally(_ request: CoverRequest) throws(CoverError) -> LocatedCover? {
    var firstError: CoverError?
    func attempt(_ body: () throws(CoverError) -> LocatedCover?) -> LocatedCover? {
      do { return try body() } catch {
        if firstError == nil { firstError = error }
        return nil
      }
    }
    if let audio = request.audioFile, audio.isFileURL {
      if let found = attempt({ () throws(CoverError) in try embedded(in: audio) }) {
        return stored(found, request)
      }
      if let found = attempt({ () throws(CoverError) in try folderImage(beside: audio) }) {
        return stored(found, request)
      }
    }
    if let url = request.catalogCover {
      if url.isFileURL {
        if let found = attempt({ () throws(CoverError) in
          try checked(try readFile(url), source: .catalog(url))
        }) {
          return stored(found, request)
        }
      } else if let hit = cachedDownload(request) {
        return hit
      }
    }
    if let firstError { throw firstError }
    return nil
  }

  /// The cover from any source, downloading the catalog's `http(s)` cover when nothing local
  /// has one.
  public func locate(_ request: CoverRequest) async throws(CoverError) -> LocatedCover {
    var localError: CoverError?
    do {
      if let found = try locateLocally(request) { return found }
    } catch {
      localError = error
    }
    guard let download = request.download,
      ["http", "https"].contains(download.url.scheme?.lowercased() ?? ""), let fetch
    else { throw localError ?? .notFound }
    let data: Data
    do {
      data = try await fetch(download.url)
    } catch {
      throw localError ?? .fetchFailed(reason: String(describing: error))
    }
    return stored(try checked(data, source: .catalog(download.url)), request, size: download.size)
  }

  /// The catalog cover downloaded earlier, from the disk cache: for a URL that names its
  /// size, the first of the request's bucket and the larger ones that is cached.
  func cachedDownload(_ request: CoverRequest) -> LocatedCover? {
    guard let download = request.download else { return nil }
    let sizes: [Int?] = download.size.map { CoverSizing.servingBuckets(for: $0) } ?? [nil]
    for size in sizes {
      if let hit = cache.cached(albumKey: request.albumKey, size: size, maxBytes: limits.maxBytes),
        let format = ImageFormat.sniff(hit.data)
      {
        return LocatedCover(data: hit.data, format: format, source: .diskCache, cacheFile: hit.file)
      }
    }
    return nil
  }

  /// The cover as half-block cells fitted into `box`, from the cell cache when this album was
  /// drawn at this size before.
  public func halfBlockCover(
    for request: CoverRequest, in box: CellSize, colors: TerminalColors, background: RGB = .black
  ) async throws(CoverError) -> HalfBlockCover {
    let key = CoverCellCache.Key(albumKey: request.albumKey, box: box, colors: colors)
    if let cover = cells.cover(for: key) { return cover }
    let located = try await locate(request)
    let cover: HalfBlockCover
    do {
      cover = try HalfBlockCover(
        decoding: located.data, in: box, limits: limits, background: background)
    } catch {
      // A picture that does not decode is not kept: a damaged download is fetched again
      // next time instead of being served from the cache.
      if let file = located.cacheFile { try? FileManager.default.removeItem(at: file) }
      throw error
    }
    cells.insert(cover, for: key)
    return cover
  }

  // MARK: - Sources

  /// The embedded front cover of `audio`, in whichever tag format it has; `nil` when its
  /// tags have no picture.
  func embedded(in audio: URL) throws(CoverError) -> LocatedCover? {
    let found: EmbeddedCover
    do {
      found = try TagFormats.format(of: audio).frontCover(
        in: audio, maxPictureBytes: limits.maxBytes)
    } catch {
      throw .fileFailed(path: audio.path, reason: error.localizedDescription)
    }
    switch found {
    case .none: return nil
    case .tooLarge(let bytes): throw .tooManyBytes(count: bytes, limit: limits.maxBytes)
    case .picture(let picture): return try checked(Data(picture.data), source: .embedded)
    }
  }

  /// The preferred image beside `audio` (see `folderImageNames`); `nil` when there is none.
  func folderImage(beside audio: URL) throws(CoverError) -> LocatedCover? {
    let folder = audio.deletingLastPathComponent()
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
      return nil
    }
    let candidates = names.compactMap { name -> (rank: Int, name: String)? in
      let url = URL(fileURLWithPath: name)
      guard Self.folderImageExtensions.contains(url.pathExtension.lowercased()),
        let rank = Self.folderImageNames.firstIndex(
          of: url.deletingPathExtension().lastPathComponent.lowercased())
      else { return nil }
      return (rank, name)
    }
    guard let best = candidates.min(by: { ($0.rank, $0.name) < ($1.rank, $1.name) }) else {
      return nil
    }
    let url = folder.appendingPathComponent(best.name)
    return try checked(try readFile(url), source: .folderImage(url))
  }

  /// The bytes of the file at `url`, refused unread when larger than the byte limit.
  func readFile(_ url: URL) throws(CoverError) -> Data {
    guard let size = CoverDiskCache.fileSize(url) else {
      throw .fileFailed(path: url.path, reason: "no such file")
    }
    guard size <= limits.maxBytes else {
      throw .tooManyBytes(count: size, limit: limits.maxBytes)
    }
    do {
      return try Data(contentsOf: url)
    } catch {
      throw .fileFailed(path: url.path, reason: error.localizedDescription)
    }
  }

  /// `data` as a located cover when it is a PNG or JPEG within the byte limit.
  func checked(_ data: Data, source: CoverSource) throws(CoverError) -> LocatedCover {
    guard data.count <= limits.maxBytes else {
      throw .tooManyBytes(count: data.count, limit: limits.maxBytes)
    }
    guard let format = ImageFormat.sniff(data) else { throw .unsupportedFormat }
    return LocatedCover(data: data, format: format, source: source, cacheFile: nil)
  }

  /// `found` with its copy in the disk cache, under the size it was asked at when given
  /// (none when the write failed: the cover still shows).
  private func stored(_ found: LocatedCover, _ request: CoverRequest, size: Int? = nil)
    -> LocatedCover
  {
    var found = found
    found.cacheFile = try? cache.store(
      found.data, format: found.format, albumKey: request.albumKey, size: size)
    return found
  }
}
