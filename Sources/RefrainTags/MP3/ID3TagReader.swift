import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pure-Swift tag reader: ID3v2.2–2.4 and ID3v1 text fields, and a duration estimated from
/// the Xing/Info or VBRI frame count or, for constant-bitrate audio, from the bitrate.
///
/// It reads only the tag, the first 64 KB of audio and the last 128 bytes, so a large library
/// indexes quickly; one `pread` of the first 72 KB often covers all three. Variable-bitrate
/// audio without a frame count is the exception: its frame headers are counted through the
/// whole file, as a decoder's scan would, so no decoder is needed for a duration.
public struct ID3TagReader: TagReader {
  /// The largest ID3v2 tag read in full (bigger ones carry huge pictures; text comes first).
  static let maximumTagBytes = 4 << 20
  /// How much audio is examined for the first frames.
  static let audioWindow = 64 << 10
  /// The first read: the audio window behind a tag of up to 8 KB (most tags without pictures).
  public static let headBytes = audioWindow + (8 << 10)

  /// Creates a reader.
  public init() {}

  public func readTags(atPath path: String) throws -> LocalTrackInfo {
    try readStampedTags(atPath: path).0
  }

  /// The tags, with the size and modification time from the `fstat` of the open file.
  public func readStampedTags(atPath path: String) throws -> (LocalTrackInfo, FileStamp?) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw TagReadError.unreadable(errno: errno) }
    defer { close(descriptor) }
    return try readStampedTags(atPath: path, descriptor: descriptor)
  }

  /// The tags of the file open at `descriptor` (at `path`), with its size and modification time.
  public func readStampedTags(atPath path: String, descriptor: Int32) throws
    -> (LocalTrackInfo, FileStamp?)
  {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw TagReadError.unreadable(errno: errno) }
    let size = Int(status.st_size)
    guard size > 0 else { throw TagReadError("the file is empty", kind: .empty) }

    // One read usually covers the tag, the audio window and, in a small file, the ID3v1 tag.
    let head = try Self.read(descriptor, at: 0, count: min(size, Self.headBytes))
    /// `count` bytes at `offset`, from `head` when it holds them.
    func bytes(at offset: Int, count: Int) throws -> [UInt8] {
      guard offset + count > head.count else { return Array(head[offset..<offset + count]) }
      return try Self.read(descriptor, at: offset, count: count)
    }
    var v2: ID3v2Tag?
    var audioStart = 0
    if let total = ID3v2Tag.totalSize(header: Array(head.prefix(10))) {
      v2 = ID3v2Tag(bytes: try bytes(at: 0, count: min(total, size, Self.maximumTagBytes)))
      audioStart = min(total, size)
    }
    var v1: ID3v1Tag?
    if size - audioStart >= 128 {
      v1 = ID3v1Tag(try bytes(at: size - 128, count: 128))
    }
    let audioEnd = size - (v1 == nil ? 0 : 128)
    let window = try bytes(
      at: audioStart, count: max(0, min(Self.audioWindow, audioEnd - audioStart)))
    guard
      let estimate = MPEGDurationEstimator.estimate(
        window, baseOffset: audioStart, audioEnd: audioEnd)
    else {
      let header = ID3v2Tag.totalSize(header: Array(head.prefix(10))) != nil
      throw TagReadError("no MP3 audio found", kind: header ? .damaged : .notAudio)
    }

    let info = LocalTrackInfo(
      title: v2?.title ?? v1?.title, artist: v2?.artist ?? v1?.artist,
      albumArtist: v2?.albumArtist, album: v2?.album ?? v1?.album,
      trackNumber: v2?.trackNumber ?? v1?.trackNumber, year: v2?.year ?? v1?.year,
      duration: estimate.duration
        ?? MPEGDurationEstimator.countedDuration(
          descriptor: descriptor, firstFrame: estimate.firstFrame, audioEnd: audioEnd),
      isrc: v2?.isrc, discNumber: v2?.discNumber)
    return (info, FileStamp(status))
  }

  /// Reads up to `count` bytes at `offset`.
  private static func read(_ descriptor: Int32, at offset: Int, count: Int) throws -> [UInt8] {
    guard count > 0 else { return [] }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let got = bytes.withUnsafeMutableBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return pread(descriptor, base + filled, count - filled, off_t(offset + filled))
      }
      if got < 0 {
        if errno == EINTR { continue }
        throw TagReadError.unreadable(errno: errno)
      }
      if got == 0 { break }
      filled += got
    }
    return filled == count ? bytes : Array(bytes.prefix(filled))
  }
}

/// The 128-byte ID3v1 (and v1.1) tag at the end of a file.
struct ID3v1Tag: Equatable {
  var title: String?
  var artist: String?
  var album: String?
  var year: Int?
  var trackNumber: Int?

  /// Parses the last 128 bytes of a file; `nil` when they are not a tag.
  init?(_ bytes: [UInt8]) {
    guard bytes.count == 128, bytes[0] == 0x54, bytes[1] == 0x41, bytes[2] == 0x47 else {
      return nil
    }
    title = Self.field(bytes[3..<33])
    artist = Self.field(bytes[33..<63])
    album = Self.field(bytes[63..<93])
    year = Self.field(bytes[93..<97]).flatMap { Int($0) }
    if bytes[125] == 0, bytes[126] != 0 { trackNumber = Int(bytes[126]) }
  }

  /// A fixed-width Latin-1 field, cut at the first NUL and trimmed.
  private static func field(_ bytes: ArraySlice<UInt8>) -> String? {
    var scalars = String.UnicodeScalarView()
    for byte in bytes.prefix(while: { $0 != 0 }) { scalars.append(Unicode.Scalar(byte)) }
    return LocalText.clean(String(scalars))
  }
}

extension LocalTrackInfo {
  /// The text fields of a whole ID3v2 tag held apart from MP3 audio (WAV's `id3 ` chunk),
  /// read as an MP3's tag is; `nil` when `bytes` is not a tag or holds none of them.
  public init?(id3v2Tag bytes: [UInt8]) {
    guard let tag = ID3v2Tag(bytes: bytes) else { return nil }
    self.init(
      title: tag.title, artist: tag.artist, albumArtist: tag.albumArtist, album: tag.album,
      trackNumber: tag.trackNumber, year: tag.year, isrc: tag.isrc, discNumber: tag.discNumber)
  }
}
