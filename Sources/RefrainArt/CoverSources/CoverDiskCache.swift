import Foundation
import RefrainCore

/// Cover pictures on disk, one file per album (and per size asked, for a download that was
/// asked at a size) named by a stable hash of its key, with a total size cap: the oldest
/// files (by modification time) go first.
///
/// Files are written whole or not at all (a temporary file renamed into place), so a reader
/// such as an MPRIS client never sees half a picture.
public struct CoverDiskCache: Sendable {
  /// The folder that holds the pictures.
  public let directory: URL
  /// The most bytes all pictures together may take after a store.
  public let maxBytes: Int

  public init(directory: URL, maxBytes: Int = 64 << 20) {
    self.directory = directory
    self.maxBytes = maxBytes
  }

  /// `$XDG_CACHE_HOME/refrain/covers`, or `~/.cache/refrain/covers` when it is unset or not
  /// absolute.
  public static func defaultDirectory(environment: [String: String], home: URL) -> URL {
    if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") {
      return URL(fileURLWithPath: base).appendingPathComponent("refrain/covers", isDirectory: true)
    }
    return home.appendingPathComponent(".cache/refrain/covers", isDirectory: true)
  }

  /// The file name stem for an album: 16 hex digits of its key's FNV-1a 64-bit hash, the same
  /// in every run and on every machine.
  public static func stem(albumKey: String) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in albumKey.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01B3
    }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// The cache file for an album's picture in `format`: `STEM.EXT`, or `STEM-SIZE.EXT` for
  /// one downloaded at `size` pixels, so pictures of one album asked at different sizes
  /// never replace each other.
  public func file(albumKey: String, format: ImageFormat, size: Int? = nil) -> URL {
    let suffix = size.map { "-\($0)" } ?? ""
    return directory.appendingPathComponent(
      Self.stem(albumKey: albumKey) + suffix + "." + format.fileExtension)
  }

  /// The album's cached picture (asked at `size` pixels, when given) and its file, if there
  /// is one that is a PNG or JPEG within `maxBytes` bytes.
  public func cached(albumKey: String, size: Int? = nil, maxBytes: Int) -> (file: URL, data: Data)?
  {
    for format in [ImageFormat.jpeg, .png] {
      let url = file(albumKey: albumKey, format: format, size: size)
      guard let bytes = Self.fileSize(url), bytes <= maxBytes,
        let data = try? Data(contentsOf: url), ImageFormat.sniff(data) != nil
      else { continue }
      return (url, data)
    }
    return nil
  }

  /// Stores an album's picture (asked at `size` pixels, when given), replacing an earlier
  /// one of that size in either format, and evicts the oldest other pictures while the folder
  /// holds more than `maxBytes`.
  ///
  /// An identical file already in place is only touched (its time renewed), not rewritten.
  @discardableResult
  public func store(_ data: Data, format: ImageFormat, albumKey: String, size: Int? = nil)
    throws(CoverError) -> URL
  {
    let target = file(albumKey: albumKey, format: format, size: size)
    let manager = FileManager.default
    do {
      try manager.createDirectory(at: directory, withIntermediateDirectories: true)
      if Self.fileSize(target) == data.count, (try? Data(contentsOf: target)) == data {
        try manager.setAttributes([.modificationDate: Date()], ofItemAtPath: target.path)
      } else {
        do {
          try AtomicFile.write(data, to: target)
        } catch let failure {
          throw CoverError.fileFailed(
            path: target.path,
            reason: failure.isDiskFull
              ? "the disk is full (free some space)" : String(cString: strerror(failure.code)))
        }
      }
      let other = file(albumKey: albumKey, format: format == .png ? .jpeg : .png, size: size)
      try? manager.removeItem(at: other)
    } catch let error as CoverError {
      throw error
    } catch {
      throw .fileFailed(path: target.path, reason: error.localizedDescription)
    }
    evict(keeping: target)
    return target
  }

  /// Removes the oldest pictures (then by name, for equal times) until the folder holds at
  /// most `maxBytes`; `keeping` is never removed, nor are other writers' temporary files.
  public func evict(keeping: URL? = nil) {
    let manager = FileManager.default
    let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey, .isRegularFileKey]
    guard
      let files = try? manager.contentsOfDirectory(
        at: directory, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
    else { return }
    var entries: [(url: URL, date: Date, size: Int)] = files.compactMap { url in
      guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true
      else { return nil }
      return (url, values.contentModificationDate ?? .distantPast, values.fileSize ?? 0)
    }
    var total = entries.reduce(0) { $0 + $1.size }
    guard total > maxBytes else { return }
    entries.sort { ($0.date, $0.url.lastPathComponent) < ($1.date, $1.url.lastPathComponent) }
    let kept = keeping?.standardizedFileURL.path
    for entry in entries where total > maxBytes {
      if entry.url.standardizedFileURL.path == kept { continue }
      if (try? manager.removeItem(at: entry.url)) != nil { total -= entry.size }
    }
  }

  /// The size of the regular file at `url`; `nil` when there is none.
  static func fileSize(_ url: URL) -> Int? {
    var info = stat()
    guard stat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    return Int(info.st_size)
  }
}
