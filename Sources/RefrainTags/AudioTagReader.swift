import Foundation
import RefrainCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Decodes the file at a path to prove that it plays, and gives its exact duration (`nil`
/// when the decoder knows none). Throws a ``TagReadError`` that says why the scan skips it.
///
/// RefrainTags links no decoder: the composition root passes RefrainAudio's
/// (`AudioDecoders.proof`) for `refrain scan --exact`.
public typealias DecoderProof = @Sendable (_ path: String) throws -> Double?

/// Reads a file's tags for `refrain scan`, the room server, a track queued by its path, MPRIS
/// and the scrobbler: with the reader of the file's format, chosen from its first bytes by
/// RefrainCore's ``AudioFormat`` table (as its decoder is), never from its name.
///
/// Each format's reader is its case in ``AudioFormat/tagReader(proof:)``. A file in a format
/// without one gets the decoders' sentence that names the format, and every error carries
/// the reason a scan reports it under.
public struct AudioTagReader: TagReader {
  /// The decoder that proves each MP3 and M4A file and gives its exact duration; `nil`
  /// reads headers only.
  public var proof: DecoderProof?

  /// Whether every file is proved by its decoder.
  public var exact: Bool { proof != nil }

  /// Creates a reader; with `proof`, every MP3 and M4A file goes through its decoder.
  public init(proof: DecoderProof? = nil) { self.proof = proof }

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
      throw TagReadError(AudioFileMessage.empty(path: path), kind: .empty)
    }
    head = Array(head.prefix(count))
    // A file no format claims is tried as MP3 (frames may follow junk): if none are found,
    // it is not audio rather than damaged.
    let format = AudioFormat.detect(head: head)
    let name = (format ?? .mp3).row.name
    guard let reader = (format ?? .mp3).tagReader(proof: proof) else {
      throw TagReadError(
        AudioFileMessage.unsupportedCodec(name: path, codec: name), kind: .unsupportedFormat(name))
    }
    do {
      return try reader.readStampedTags(atPath: path, descriptor: descriptor)
    } catch let error as TagReadError {
      switch error.kind {
      case .unreadable, .unsupportedFormat, .empty: throw error
      default: break
      }
      guard format != nil else {
        throw TagReadError(
          "\(path) is not audio: no format Refrain plays starts it, and it holds no MP3 frames",
          kind: .notAudio)
      }
      let message =
        error.reason.contains(path)
        ? error.reason
        : AudioFileMessage.notPlayable(name: path, format: name, detail: error.reason)
      throw TagReadError(message, kind: .damaged)
    }
  }

  /// The error for a file that cannot be opened or read, in the decoders' words.
  private static func unreadable(_ path: String, errno code: Int32) -> TagReadError {
    let system = String(cString: strerror(code))
    return TagReadError(
      AudioFileMessage.notReadable(path: path, reason: system),
      kind: .unreadable(systemMessage: system))
  }

  /// The duration `proof` gives for the file at `path`; any error it throws that is not a
  /// ``TagReadError`` is reported as damage.
  static func proved(_ path: String, by proof: DecoderProof) throws -> Double? {
    do {
      return try proof(path)
    } catch let error as TagReadError {
      throw error
    } catch {
      throw TagReadError("\(error)", kind: .damaged)
    }
  }
}

extension AudioFormat {
  /// The tag reader of this format, or `nil` for a format Refrain only names (DSD, WMA, …).
  ///
  /// An exhaustive switch: a new row in the table does not compile until it is placed here.
  public func tagReader(proof: DecoderProof? = nil) -> (any TagReader)? {
    switch self {
    case .mp3: return MP3TagReader(proof: proof)
    case .m4a: return MP4TagReader(proof: proof)
    case .flac: return CommentTagReader(kind: .flac)
    case .oggVorbis, .opus: return CommentTagReader(kind: .ogg)
    case .wav: return CommentTagReader(kind: .wav)
    case .dsd, .wma, .monkeysAudio, .wavPack, .aiff, .musepack, .tta, .tak, .adts: return nil
    }
  }

  /// Where this format keeps its embedded lyrics, cover and ReplayGain, or `nil` for a
  /// format Refrain only names. An exhaustive switch, as ``tagReader(proof:)`` is.
  package var tagFormat: (any TagFormat)? {
    switch self {
    case .mp3: return ID3v2Format()
    case .m4a: return MP4TagFormat()
    case .flac: return FLACTagFormat()
    case .oggVorbis, .opus: return OggTagFormat()
    case .wav: return WAVTagFormat()
    case .dsd, .wma, .monkeysAudio, .wavPack, .aiff, .musepack, .tta, .tak, .adts: return nil
    }
  }
}

/// The tags of an MP3 file, from ``ID3TagReader`` (the tag, and a duration from the frame
/// headers); with a ``DecoderProof``, the decoder also proves the file and gives the exact
/// duration.
struct MP3TagReader: TagReader {
  var proof: DecoderProof?

  func readTags(atPath path: String) throws -> LocalTrackInfo {
    try readStampedTags(atPath: path).0
  }

  func readStampedTags(atPath path: String, descriptor: Int32) throws
    -> (LocalTrackInfo, FileStamp?)
  {
    var (info, stamp) = try ID3TagReader().readStampedTags(atPath: path, descriptor: descriptor)
    if let proof {
      info.duration = try AudioTagReader.proved(path, by: proof) ?? info.duration
    }
    return (info, stamp)
  }
}
