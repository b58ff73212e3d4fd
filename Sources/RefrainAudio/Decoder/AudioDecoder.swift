import Foundation
import RefrainCore

/// One audio format's decoder, as the player engine uses it (after cmus's
/// `input_plugin_ops`): open, the PCM format, read PCM, seek to a sample, the duration, the
/// gapless trim, close.
///
/// A decoder is used from one thread at a time (the player's). ``AudioDecoders`` chooses
/// one for a file from its first bytes; a new format is one type that conforms, one row in
/// RefrainCore's ``AudioFormat`` table, and its case in ``AudioFormat/decoder``.
public protocol AudioDecoder: AnyObject {
  /// A short name for messages: the path or the URL.
  var name: String { get }
  /// The PCM format the decoder writes (16-bit interleaved).
  var format: PCMFormat { get }
  /// The duration in seconds: exact when known, an estimate for a stream, or `nil`.
  var duration: Double? { get }
  /// Frames the decoder drops at the start and the end of the track (encoder delay and
  /// padding) so tracks join without a gap; zero when it knows of none. A decoder applies
  /// the trim itself: its reads, its position and its duration are already trimmed.
  var gaplessTrim: (start: Int, end: Int) { get }
  /// Whether the last read reached the end of the track.
  var isAtEnd: Bool { get }
  /// The decoder's position in seconds (what was decoded, not what was heard).
  var position: Double { get }
  /// Decodes into `buffer` and returns the bytes written; 0 with ``isAtEnd`` means the end.
  /// `shouldStop` lets a stream waiting for data give up early (0 without the end).
  func read(into buffer: UnsafeMutableRawBufferPointer, shouldStop: () -> Bool) throws -> Int
  /// Seeks to `seconds`, sample-exactly where the format allows, and returns where it is.
  @discardableResult
  func seek(to seconds: Double) throws -> Double
  /// Releases the decoder's file, stream and library state; reads after it return 0.
  func close()
}

/// A format Refrain decodes: how one is opened. Which files it takes is its row's signature
/// in RefrainCore's ``AudioFormat`` table (``AudioFormat/decoder`` maps a row to it).
public protocol AudioDecoderFormat {
  /// The format's name for messages ("MP3"): its row's ``AudioFormat/Row/name``.
  static var formatName: String { get }
  /// Opens the local file at `path`.
  static func open(path: String) throws -> any AudioDecoder
  /// Opens an HTTP(S) resource being read by `stream`, whose first bytes are `head`.
  static func open(stream: HTTPByteSource, head: [UInt8], shouldStop: () -> Bool) throws
    -> any AudioDecoder
}

extension AudioFormat {
  /// The decoder of this format, or `nil` for a format Refrain only names (DSD, WMA, …).
  ///
  /// An exhaustive switch: a new row in the table does not compile until it is placed here.
  public var decoder: (any AudioDecoderFormat.Type)? {
    switch self {
    case .mp3: return MP3Decoder.self
    case .flac: return FLACDecoder.self
    case .oggVorbis, .opus: return OggFormat.self
    case .wav: return WAVDecoder.self
    case .m4a: return M4ADecoder.self
    case .dsd, .wma, .monkeysAudio, .wavPack, .aiff, .musepack, .tta, .tak, .adts: return nil
    }
  }
}

/// The decoders Refrain has, chosen for a file from its first bytes (RefrainCore's
/// ``AudioFormat`` table), never from its name.
public enum AudioDecoders {
  /// The name of the format a file starting with `head` is in: a decoder's, a known format
  /// without one ("DSD"), or "MP3" for a file no format claims (the MP3 decoder's, which
  /// finds frames after junk).
  public static func formatName(ofHead head: [UInt8]) -> String {
    AudioFormat.detect(head: head)?.row.name ?? MP3Decoder.formatName
  }

  /// The decoder for a file or stream named `name` that starts with `head`: its format's, the
  /// MP3 decoder's for a file no format claims; throws for a format without a decoder.
  static func decoder(for head: [UInt8], name: String) throws -> any AudioDecoderFormat.Type {
    guard let format = AudioFormat.detect(head: head) else { return MP3Decoder.self }
    guard let decoder = format.decoder else {
      throw AudioError.unsupportedCodec(name: name, codec: format.row.name)
    }
    return decoder
  }

  /// Opens the local file at `path` with the decoder its first bytes call for. A file no
  /// format claims goes to the MP3 decoder, which finds MP3 frames after junk (and says
  /// clearly when there are none); a known format without a decoder is named in the error.
  public static func open(path: String) throws -> any AudioDecoder {
    try open(path: path, news: nil, shouldStop: { false })
  }

  /// Opens the local file at `path`, as ``open(path:)`` does; a radio playlist file opens
  /// its first stream that answers, which tells `news` what it says.
  public static func open(
    path: String, news: (@Sendable (StreamNews) -> Void)?, shouldStop: @escaping () -> Bool
  ) throws -> any AudioDecoder {
    let head = firstBytes(of: path)
    if StreamPlaylist.recognizes(name: path, head: head) {
      return try openPlaylist(at: URL(fileURLWithPath: path), news: news, shouldStop: shouldStop)
    }
    return try decoder(for: head, name: path).open(path: path)
  }

  /// Opens an HTTP(S) resource with the decoder its first bytes call for, never its name.
  ///
  /// As ``open(path:)`` does for a file. It returns once the head has arrived (and, for a
  /// format that needs them, the headers the decoder reads), reading the rest as it plays
  /// through an ``HTTPByteSource``. `shouldStop` lets the wait for the head give up when a
  /// command arrives.
  /// A live stream (internet radio) tells `news` that it is live, its titles and its
  /// reconnections, from the network's thread.
  public static func open(
    url: URL, news: (@Sendable (StreamNews) -> Void)? = nil, shouldStop: @escaping () -> Bool
  ) throws -> any AudioDecoder {
    try HTTPByteSource.loadNetwork(for: url)
    let stream = HTTPByteSource(url: url, news: news)
    do {
      guard let head = try stream.read(at: 0, count: 64, shouldStop: shouldStop) else {
        throw AudioError.transport(url: url.absoluteString, detail: "stopped while buffering")
      }
      if !stream.isLive, StreamPlaylist.recognizes(name: url.absoluteString, head: head) {
        defer { stream.cancel() }
        guard
          let text = try stream.read(
            at: 0, count: StreamPlaylist.maxBytes + 1, shouldStop: shouldStop)
        else {
          throw AudioError.transport(url: url.absoluteString, detail: "stopped while buffering")
        }
        return try openFirst(
          of: text, in: url, news: news, shouldStop: shouldStop)
      }
      let format = try decoder(for: head, name: url.absoluteString)
      return try stream.opening(shouldStop: shouldStop) {
        try format.open(stream: stream, head: head, shouldStop: shouldStop)
      }
    } catch {
      stream.cancel()
      throw error
    }
  }

  /// Up to the first 64 bytes of the file; none when it cannot be read (the decoder then
  /// says why).
  static func firstBytes(of path: String) -> [UInt8] {
    guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
    defer { try? handle.close() }
    return Array((try? handle.read(upToCount: 64)) ?? Data())
  }
}
