import CAudioShims
import CMPG123
import Foundation
import RefrainCore

/// Decodes one MP3 file or HTTP stream to 16-bit PCM with libmpg123.
///
/// The decoder owns its mpg123 handle and is used from one thread at a time (the player's).
/// Local files are scanned on open, so the duration is exact even for VBR files without a
/// Xing header. Streams are fed from an ``HTTPByteSource`` as the bytes arrive.
public final class MP3Decoder: AudioDecoder {
  /// The PCM format of the decoded audio.
  public private(set) var format: PCMFormat
  /// The exact duration in seconds when known (local files), or an estimate (streams).
  public private(set) var duration: Double?
  /// A short name for messages.
  public let name: String

  private let handle: OpaquePointer
  private let download: HTTPByteSource?
  private var feedOffset: UInt64 = 0
  private var ended = false
  private var decodedSamples: Int64 = 0
  private var warnings = 0

  /// How many recoverable decoding problems were seen (skipped corrupt frames).
  public var warningCount: Int { warnings }

  /// Opens a local MP3 file, scans it and reads its tags.
  public convenience init(path: String) throws {
    try LocalAudioFile.check(path)
    try self.init(name: path, download: nil) { handle in
      refrain_mpg123_open(handle, path)
    }
  }

  /// Opens an HTTP(S) stream progressively: it returns as soon as the first frame decodes.
  public convenience init(url: URL, timeout: TimeInterval = 10, shouldStop: @escaping () -> Bool)
    throws
  {
    try HTTPByteSource.loadNetwork(for: url)
    try self.init(stream: HTTPByteSource(url: url, timeout: timeout), shouldStop: shouldStop)
  }

  /// Decodes an HTTP(S) resource already being read, from its first byte.
  convenience init(stream: HTTPByteSource, shouldStop: () -> Bool) throws {
    try self.init(name: stream.url.absoluteString, download: stream, shouldStop: shouldStop) {
      handle in
      mpg123_open_feed(handle)
    }
  }

  private init(
    name: String, download: HTTPByteSource?, shouldStop: () -> Bool = { false },
    open: (OpaquePointer) -> Int32
  ) throws {
    self.name = name
    self.download = download
    _ = mpg123_init()
    var error: Int32 = 0
    guard let handle = mpg123_new(nil, &error) else {
      throw AudioError.notMP3(name: name, detail: "libmpg123 could not start: error \(error)")
    }
    self.handle = handle
    format = PCMFormat(sampleRate: 44_100, channels: 2)
    duration = nil
    do {
      try configure()
      guard open(handle) == Int32(MPG123_OK.rawValue) else {
        throw AudioError.notMP3(name: name, detail: lastError)
      }
      if download == nil {
        guard mpg123_scan(handle) == Int32(MPG123_OK.rawValue) else {
          throw AudioError.notMP3(name: name, detail: lastError)
        }
      } else if let expected = download?.length {
        _ = refrain_mpg123_set_filesize(handle, Int64(expected))
      }
      try readFormat(shouldStop: shouldStop)
    } catch {
      // Every property is set by now, so `deinit` runs and releases the handle.
      throw error
    }
  }

  deinit {
    download?.cancel()
    mpg123_delete(handle)
  }

  /// Decodes into `buffer` and returns the number of bytes written; 0 means the track ended.
  ///
  /// `shouldStop` lets a stream that is waiting for data give up early; then it returns 0
  /// without marking the end, so the caller can retry.
  public func read(into buffer: UnsafeMutableRawBufferPointer, shouldStop: () -> Bool = { false })
    throws -> Int
  {
    guard !ended, let base = buffer.baseAddress else { return 0 }
    while true {
      var done = 0
      let status = mpg123_read(handle, base, buffer.count, &done)
      if done > 0 {
        decodedSamples += Int64(done / format.bytesPerFrame)
        if status == MPG123_DONE.rawValue { ended = true }
        return done
      }
      switch status {
      case MPG123_OK.rawValue, MPG123_NEW_FORMAT.rawValue:
        continue
      case MPG123_DONE.rawValue:
        ended = true
        return 0
      case MPG123_NEED_MORE.rawValue:
        guard let download else {
          ended = true
          return 0
        }
        switch try download.bytes(from: feedOffset, maxCount: 16_384, shouldStop: shouldStop) {
        case .data(let bytes):
          feedOffset += UInt64(bytes.count)
          _ = bytes.withUnsafeBufferPointer { mpg123_feed(handle, $0.baseAddress, $0.count) }
        case .end:
          ended = true
          return 0
        case .interrupted:
          return 0
        }
      default:
        // Corrupt data: mpg123 resyncs on the next call unless the error is fatal.
        warnings += 1
        if warnings > 64 {
          throw AudioError.decodeFailed(name: name, at: position, detail: lastError)
        }
      }
    }
  }

  /// Whether the last read reached the end of the track.
  public var isAtEnd: Bool { ended }

  /// libmpg123 trims the encoder's delay and padding itself (LAME's gapless header), so
  /// nothing is left for the engine to drop.
  public var gaplessTrim: (start: Int, end: Int) { (0, 0) }

  /// Nothing to release early: the handle and the download go with the decoder.
  public func close() {
    ended = true
    download?.cancel()
  }

  /// The decoder's position in seconds (what was decoded, not what was heard).
  public var position: Double { Double(decodedSamples) / Double(format.sampleRate) }

  /// Seeks to `seconds`, sample-exactly, and returns the position reached.
  @discardableResult
  public func seek(to seconds: Double) throws -> Double {
    let sample = Int64((max(0, seconds) * Double(format.sampleRate)).rounded())
    let reached: Int64
    if download != nil {
      var inputOffset: Int64 = 0
      reached = refrain_mpg123_feedseek(handle, sample, &inputOffset)
      if reached >= 0 { feedOffset = UInt64(max(0, inputOffset)) }
    } else {
      reached = refrain_mpg123_seek(handle, sample)
    }
    guard reached >= 0 else {
      throw AudioError.decodeFailed(name: name, at: seconds, detail: "seek failed: \(lastError)")
    }
    ended = false
    decodedSamples = reached
    return Double(reached) / Double(format.sampleRate)
  }

  private func configure() throws {
    let flags = Int(MPG123_QUIET.rawValue | MPG123_FORCE_STEREO.rawValue)
    _ = mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), flags, 0)
    _ = mpg123_param2(handle, Int32(MPG123_RESYNC_LIMIT.rawValue), -1, 0)
    // Decode 8 frames ahead of a seek target to refill the bit reservoir: with fewer, a
    // VBR file without a Xing header plays ~100 ms of silence after every seek.
    _ = mpg123_param2(handle, Int32(MPG123_PREFRAMES.rawValue), 8, 0)
    // Only 16-bit stereo at the native rate: what every output accepts.
    _ = mpg123_format_none(handle)
    var rates: UnsafePointer<Int>?
    var count = 0
    mpg123_rates(&rates, &count)
    for index in 0..<count {
      guard let rate = rates?[index] else { continue }
      _ = mpg123_format(
        handle, rate, Int32(MPG123_STEREO.rawValue), Int32(MPG123_ENC_SIGNED_16.rawValue))
    }
  }

  private func readFormat(shouldStop: () -> Bool) throws {
    var rate = 0
    var channels: Int32 = 0
    var encoding: Int32 = 0
    while true {
      let status = mpg123_getformat(handle, &rate, &channels, &encoding)
      if status == MPG123_OK.rawValue { break }
      guard status == MPG123_NEED_MORE.rawValue, let download else {
        throw AudioError.notMP3(
          name: name, detail: status == MPG123_DONE.rawValue ? "no audio frames found" : lastError)
      }
      switch try download.bytes(from: feedOffset, maxCount: 16_384, shouldStop: shouldStop) {
      case .data(let bytes):
        feedOffset += UInt64(bytes.count)
        _ = bytes.withUnsafeBufferPointer { mpg123_feed(handle, $0.baseAddress, $0.count) }
      case .end:
        throw AudioError.notMP3(name: name, detail: "no audio frames found")
      case .interrupted:
        throw AudioError.transport(url: name, detail: "stopped while buffering")
      }
    }
    format = try StreamLimits.format(
      sampleRate: rate, channels: channels, name: name, formatName: Self.formatName)
    let length = refrain_mpg123_length(handle)
    // A live stream has no length, whatever the first file it carries says.
    duration = length > 0 && download?.isLive != true ? Double(length) / Double(rate) : nil
  }

  private var lastError: String {
    guard let message = mpg123_strerror(handle) else { return "unknown error" }
    return String(cString: message)
  }
}

extension MP3Decoder: AudioDecoderFormat {
  public static var formatName: String { "MP3" }

  /// An ID3v2 tag, or an MPEG audio frame header (11 sync bits, a layer, a bitrate that is
  /// not "bad" and a sample rate that is not reserved).
  /// Whether `head` starts MP3 audio: the MP3 row's signature in ``AudioFormat``.
  public static func recognizes(_ head: [UInt8]) -> Bool { AudioFormat.mp3.row.signature(head) }

  public static func open(path: String) throws -> any AudioDecoder {
    try MP3Decoder(path: path)
  }

  public static func open(stream: HTTPByteSource, head: [UInt8], shouldStop: () -> Bool) throws
    -> any AudioDecoder
  {
    try MP3Decoder(stream: stream, shouldStop: shouldStop)
  }
}
