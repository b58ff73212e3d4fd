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
/// have one reader each in ``readers``. A file in a format without one gets the decoders'
/// error that names the format, and every error carries the reason a scan reports it under.
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
    guard descriptor >= 0 else { throw Self.unreadable(path, errno: errno) }
    defer { close(descriptor) }
    return try readStampedTags(atPath: path, descriptor: descriptor)
  }

  /// The tags of the file open at `descriptor`; every error says why the scan skips the file
  /// (``TagReadError/kind``): unreadable, empty, a format named by its first bytes that
  /// Refrain does not play (with the decoders' own message), damaged (its first bytes are a
  /// format Refrain reads, its headers are not), or not audio at all.
  public func readStampedTags(atPath path: String, descriptor: Int32) throws
    -> (LocalTrackInfo, FileStamp?)
  {
    var head = [UInt8](repeating: 0, count: 64)
    let count = pread(descriptor, &head, head.count, 0)
    guard count >= 0 else { throw Self.unreadable(path, errno: errno) }
    guard count > 0 else {
      throw TagReadError(AudioError.emptyFile(path: path).description, kind: .empty)
    }
    head = Array(head.prefix(count))
    let format = AudioDecoders.formatName(ofHead: head)
    let reader = readers[format]
    if let unsupported = reader == nil ? format : Self.otherFormat(head) {
      throw TagReadError(
        AudioError.unsupportedCodec(name: path, codec: unsupported).description,
        kind: .unsupportedFormat(unsupported))
    }
    // A file no format claims is tried as MP3 (frames may follow junk): if none are found,
    // it is not audio rather than damaged.
    let claimed = format != MP3Decoder.formatName || MP3Decoder.recognizes(head)
    do {
      return try (reader ?? MP3TagReader(exact: exact))
        .readStampedTags(atPath: path, descriptor: descriptor)
    } catch let error as TagReadError {
      switch error.kind {
      case .unreadable, .unsupportedFormat, .empty: throw error
      default: break
      }
      guard claimed else {
        throw TagReadError(
          "\(path) is not audio: no format Refrain plays starts it, and it holds no MP3 frames",
          kind: .notAudio)
      }
      let message =
        error.reason.contains(path)
        ? error.reason
        : AudioError.notPlayable(name: path, format: format, detail: error.reason).description
      throw TagReadError(message, kind: .damaged)
    }
  }

  /// The error for a file that cannot be opened or read, in the decoders' words.
  private static func unreadable(_ path: String, errno code: Int32) -> TagReadError {
    let system = String(cString: strerror(code))
    return TagReadError(
      AudioError.fileNotReadable(path: path, reason: system).description,
      kind: .unreadable(systemMessage: system))
  }

  /// The name of an audio format that `head` starts and that neither Refrain's decoders nor
  /// their list of refused formats (DSD, WMA, Monkey's Audio, WavPack) name: AIFF,
  /// Musepack, TTA and TAK.
  static func otherFormat(_ head: [UInt8]) -> String? {
    func at(_ offset: Int, _ text: String) -> Bool {
      head.count >= offset + text.utf8.count
        && head[offset..<offset + text.utf8.count].elementsEqual(text.utf8)
    }
    if at(0, "FORM"), at(8, "AIFF") || at(8, "AIFC") { return "AIFF" }
    if at(0, "MPCK") || at(0, "MP+") { return "Musepack" }
    if at(0, "TTA1") { return "TTA" }
    if at(0, "tBaK") { return "TAK" }
    return nil
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
