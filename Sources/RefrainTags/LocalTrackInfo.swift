import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a tag reader learned about one audio file.
public struct LocalTrackInfo: Sendable, Hashable {
  /// The title tag, if present (the scanner falls back to the file name).
  public var title: String?
  /// The artist tag.
  public var artist: String?
  /// The album artist tag (TPE2); groups compilations under one album.
  public var albumArtist: String?
  /// The album tag.
  public var album: String?
  /// The track number (the part before a slash).
  public var trackNumber: Int?
  /// The disc number (the part before a slash), for albums of several discs.
  public var discNumber: Int?
  /// The year.
  public var year: Int?
  /// The duration in seconds, exact or estimated.
  public var duration: Double?
  /// The recording's ISRC (TSRC), as tagged; the scanner keeps it only when well formed.
  public var isrc: String?
  /// Set when the file is indexed by its tags but its audio is in a codec Refrain cannot
  /// play (ALAC in an M4A): the reason, and the sentence the player refuses it with.
  public var unplayable: SkippedFile?

  /// Creates a value.
  public init(
    title: String? = nil, artist: String? = nil, albumArtist: String? = nil, album: String? = nil,
    trackNumber: Int? = nil, year: Int? = nil, duration: Double? = nil, isrc: String? = nil,
    discNumber: Int? = nil
  ) {
    self.discNumber = discNumber
    self.title = title
    self.artist = artist
    self.albumArtist = albumArtist
    self.album = album
    self.trackNumber = trackNumber
    self.year = year
    self.duration = duration
    self.isrc = isrc
  }
}

/// Reads the tags and duration of one audio file.
///
/// The scanner calls it from several threads at once. ``AudioTagReader`` reads every format
/// (each by its reader in ``AudioFormat/tagReader(proof:)``); ``ID3TagReader`` reads MP3.
public protocol TagReader: Sendable {
  /// The file's tags; throws when the file cannot be read or is not audio the reader knows.
  func readTags(atPath path: String) throws -> LocalTrackInfo

  /// The file's tags, with the size and modification time of the file it opened when it
  /// knows them (`nil` otherwise; the scanner then asks the file system).
  func readStampedTags(atPath path: String) throws -> (LocalTrackInfo, FileStamp?)

  /// Like ``readStampedTags(atPath:)``, reading from `descriptor`, the file at `path` opened
  /// for reading by the caller (who closes it).
  func readStampedTags(atPath path: String, descriptor: Int32) throws
    -> (LocalTrackInfo, FileStamp?)
}

extension TagReader {
  /// The tags alone: the scanner looks the size and modification time up itself.
  public func readStampedTags(atPath path: String) throws -> (LocalTrackInfo, FileStamp?) {
    (try readTags(atPath: path), nil)
  }

  /// Reads the path: a reader that cannot use an open file ignores it.
  public func readStampedTags(atPath path: String, descriptor: Int32) throws
    -> (LocalTrackInfo, FileStamp?)
  {
    try readStampedTags(atPath: path)
  }
}

/// A file's size and modification time, as the scanner compares them between scans.
public struct FileStamp: Sendable, Hashable {
  /// The size in bytes.
  public var size: Int64
  /// The modification time in nanoseconds since 1970.
  public var mtime: Int64

  /// Creates a value.
  public init(size: Int64, mtime: Int64) {
    self.size = size
    self.mtime = mtime
  }

  /// The size and modification time in `status` (from `stat` or `fstat`).
  package init(_ status: stat) {
    size = Int64(status.st_size)
    mtime = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
  }

  /// Looks `path` up (following links); `nil` when it cannot be read.
  package static func of(path: String) -> FileStamp? {
    var status = stat()
    return stat(path, &status) == 0 ? FileStamp(status) : nil
  }
}

/// Why a tag reader gave up on a file.
public struct TagReadError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A sentence for the scan report.
  public var reason: String
  /// The reason the scan report groups it under.
  public var kind: ScanSkipReason

  /// Creates an error.
  public init(_ reason: String, kind: ScanSkipReason = .other) {
    self.reason = reason
    self.kind = kind
  }

  /// The error for a file that could not be opened or read, from `errno`.
  public static func unreadable(errno code: Int32) -> TagReadError {
    let message = String(cString: strerror(code))
    return TagReadError(message, kind: .unreadable(systemMessage: message))
  }

  public var description: String { reason }
}
