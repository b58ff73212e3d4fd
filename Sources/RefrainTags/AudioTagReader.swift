import Foundation
import RefrainAudio
import RefrainCatalog

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a file's tags for `refrain scan`, the room server, a track queued by its path, MPRIS
/// and the scrobbler: with the reader of the file's format, chosen from its first bytes as
/// its decoder is (``AudioDecoders/formatName(ofHead:)``), never from its name.
///
/// MP3 (``MP3TagReader``), M4A (``MP4TagReader``), FLAC, Ogg and WAV (``CommentTagReader``)
/// have one reader each in ``readers``. A file in a format without one gets an error that
/// names the format.
public struct AudioTagReader: TagReader {
  /// Whether every file is proved by its decoder, which also gives the exact duration.
  public var exact: Bool

  /// Creates a reader; `exact` sends every file through its decoder.
  public init(exact: Bool = false) { self.exact = exact }

  /// The tag reader of each format, by the decoders' format name.
  var readers: [String: any TagReader] {
    [
      "MP3": MP3TagReader(exact: exact),
      "M4A": MP4TagReader(exact: exact),
      "FLAC": CommentTagReader(kind: .flac),
      "Ogg": CommentTagReader(kind: .ogg),
      "WAV": CommentTagReader(kind: .wav),
    ]
  }

  public func readTags(atPath path: String) throws -> LocalTrackInfo {
    try readStampedTags(atPath: path).0
  }

  public func readStampedTags(atPath path: String) throws -> (LocalTrackInfo, FileStamp?) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw TagReadError(String(cString: strerror(errno))) }
    defer { close(descriptor) }
    return try readStampedTags(atPath: path, descriptor: descriptor)
  }

  public func readStampedTags(atPath path: String, descriptor: Int32) throws
    -> (LocalTrackInfo, FileStamp?)
  {
    var head = [UInt8](repeating: 0, count: 64)
    let count = pread(descriptor, &head, head.count, 0)
    guard count >= 0 else { throw TagReadError(String(cString: strerror(errno))) }
    let format = AudioDecoders.formatName(ofHead: Array(head.prefix(count)))
    guard let reader = readers[format] else {
      throw TagReadError("\(format) audio, whose tags Refrain cannot read yet")
    }
    return try reader.readStampedTags(atPath: path, descriptor: descriptor)
  }
}

/// The tags of an MP3 file: the fast pure-Swift ID3 reader first, the decoder when needed.
///
/// ``ID3TagReader`` reads only the tag and the first frames. When it cannot find the audio,
/// or the file is variable-bitrate without a frame count (so only a full scan gives the
/// length), `MP3Decoder` opens and scans the file; its tags fill any gap. With `exact`, every
/// file goes through the decoder, which also proves each file decodes.
struct MP3TagReader: TagReader {
  var exact: Bool

  func readTags(atPath path: String) throws -> LocalTrackInfo {
    try readStampedTags(atPath: path).0
  }

  func readStampedTags(atPath path: String, descriptor: Int32) throws
    -> (LocalTrackInfo, FileStamp?)
  {
    let reader = ID3TagReader()
    let (fast, stamp) =
      (try? reader.readStampedTags(atPath: path, descriptor: descriptor)) ?? (nil, nil)
    return try complete(fast, stamp, path: path)
  }

  /// The ID3 reader's result, with the decoder's duration (and tags it lacks) when it has
  /// no duration or `exact` asks for it.
  private func complete(_ fast: LocalTrackInfo?, _ stamp: FileStamp?, path: String) throws
    -> (LocalTrackInfo, FileStamp?)
  {
    if !exact, let fast, fast.duration != nil { return (fast, stamp) }
    let decoder: MP3Decoder
    do {
      decoder = try MP3Decoder(path: path)
    } catch {
      throw TagReadError("\(error)")
    }
    let tags = decoder.tags
    var info = fast ?? LocalTrackInfo()
    info.title = info.title ?? tags.title
    info.artist = info.artist ?? tags.artist
    info.album = info.album ?? tags.album
    info.trackNumber = info.trackNumber ?? tags.trackNumber
    info.year = info.year ?? tags.year
    info.duration = decoder.duration ?? info.duration
    return (info, stamp)
  }
}
