import COpusFile
import CVorbisFile
import Foundation
import RefrainCore

/// Decodes an Ogg Vorbis file to 16-bit PCM with libvorbisfile, which trims the end by the
/// last granule position and seeks to the sample.
public final class VorbisDecoder: AudioDecoder {
  public let name: String
  public let format: PCMFormat
  public let duration: Double?
  public var gaplessTrim: (start: Int, end: Int) { (0, 0) }
  public private(set) var isAtEnd = false

  private let file: UnsafeMutablePointer<OggVorbis_File>
  private var open = true
  private var decodedFrames: Int64 = 0
  /// Where a stream is read, for libvorbisfile's callbacks; `nil` for a local file.
  private let cursor: InputCursor?

  /// Opens a local Ogg Vorbis file.
  public convenience init(path: String) throws {
    try LocalAudioFile.check(path)
    try self.init(name: path, cursor: nil) { ov_fopen(path, $0) }
  }

  /// Opens an HTTP(S) resource; libvorbisfile reads its end for the duration, and seeks,
  /// with range requests. A stream of unknown length (a server transcoding as it sends) is
  /// read in order, without a duration or seeks: its end is not where the bytes stop so far.
  convenience init(stream: HTTPByteSource) throws {
    let cursor = InputCursor(stream)
    var callbacks = ov_callbacks(
      read_func: { buffer, size, count, source in
        guard let buffer, let source else { return 0 }
        let cursor = Unmanaged<InputCursor>.fromOpaque(source).takeUnretainedValue()
        return cursor.read(into: buffer, count: size * count) / max(1, size)
      },
      seek_func: { source, offset, whence in
        guard let source else { return -1 }
        let cursor = Unmanaged<InputCursor>.fromOpaque(source).takeUnretainedValue()
        return cursor.seek(offset, whence: whence) ? 0 : -1
      },
      close_func: nil,
      tell_func: { source in
        guard let source else { return -1 }
        return Int(Unmanaged<InputCursor>.fromOpaque(source).takeUnretainedValue().offset)
      })
    if stream.length == nil { callbacks.seek_func = nil }
    try self.init(name: stream.url.absoluteString, cursor: cursor) { file in
      ov_open_callbacks(Unmanaged.passUnretained(cursor).toOpaque(), file, nil, 0, callbacks)
    }
  }

  private init(
    name: String, cursor: InputCursor?, open: (UnsafeMutablePointer<OggVorbis_File>) -> Int32
  ) throws {
    self.name = name
    self.cursor = cursor
    file = .allocate(capacity: 1)
    let status = open(file)
    guard status == 0 else {
      file.deallocate()
      if let failure = cursor?.failure { throw failure }
      throw AudioError.notPlayable(
        name: name, format: "Ogg Vorbis", detail: Self.describe(status))
    }
    guard let info = ov_info(file, -1) else {
      ov_clear(file)
      file.deallocate()
      throw AudioError.notPlayable(name: name, format: "Ogg Vorbis", detail: "no stream info")
    }
    do {
      format = try StreamLimits.format(
        sampleRate: info.pointee.rate, channels: info.pointee.channels, name: name,
        formatName: "Ogg Vorbis")
    } catch {
      ov_clear(file)
      file.deallocate()
      throw error
    }
    let total = ov_pcm_total(file, -1)
    duration = total > 0 ? Double(total) / Double(format.sampleRate) : nil
  }

  deinit {
    if open { ov_clear(file) }
    file.deallocate()
  }

  public var position: Double { Double(decodedFrames) / Double(format.sampleRate) }

  public func read(into buffer: UnsafeMutableRawBufferPointer, shouldStop: () -> Bool) throws
    -> Int
  {
    guard open, !isAtEnd, let base = buffer.baseAddress else { return 0 }
    let frameBytes = format.bytesPerFrame
    let wanted = Int32(min(buffer.count / frameBytes * frameBytes, 65536))
    var section: Int32 = 0
    if let cursor, try !cursor.ready(shouldStop: shouldStop) {
      return 0
    }
    while true {
      let got = ov_read(file, base.assumingMemoryBound(to: CChar.self), wanted, 0, 2, 1, &section)
      if let failure = cursor?.failure { throw failure }
      if got == OV_HOLE { continue }  // a gap in the data: libvorbisfile resyncs
      if got < 0 {
        throw AudioError.decodeFailed(name: name, at: position, detail: Self.describe(Int32(got)))
      }
      if got == 0 {
        isAtEnd = true
        return 0
      }
      decodedFrames += Int64(Int(got) / frameBytes)
      return Int(got)
    }
  }

  @discardableResult
  public func seek(to seconds: Double) throws -> Double {
    guard open else { return position }
    let frame = Int64((max(0, seconds) * Double(format.sampleRate)).rounded())
    let status = ov_pcm_seek(file, ogg_int64_t(frame))
    if let failure = cursor?.failure { throw failure }
    guard status == 0 else {
      throw AudioError.decodeFailed(
        name: name, at: seconds, detail: "seek failed: \(Self.describe(status))")
    }
    decodedFrames = Int64(ov_pcm_tell(file))
    isAtEnd = false
    return position
  }

  public func close() {
    guard open else { return }
    ov_clear(file)
    open = false
    isAtEnd = true
  }

  /// What a libvorbisfile status means.
  static func describe(_ status: Int32) -> String {
    switch status {
    case OV_ENOTVORBIS: return "not Vorbis audio"
    case OV_EBADHEADER: return "a damaged Vorbis header"
    case OV_EVERSION: return "an unknown Vorbis version"
    case OV_EREAD: return "the file could not be read"
    case OV_EBADLINK: return "a damaged link in the stream"
    default: return "the stream is damaged (libvorbisfile \(status))"
    }
  }
}

/// Decodes an Ogg Opus file to 16-bit stereo PCM at 48 kHz with libopusfile, which drops the
/// pre-skip and the end padding and seeks to the sample.
public final class OpusDecoder: AudioDecoder {
  public let name: String
  public let format = PCMFormat(sampleRate: 48_000, channels: 2)
  public let duration: Double?
  public var gaplessTrim: (start: Int, end: Int) { (0, 0) }
  public private(set) var isAtEnd = false

  private var file: OpaquePointer?
  private var decodedFrames: Int64 = 0
  /// Where a stream is read, for libopusfile's callbacks; `nil` for a local file.
  private let cursor: InputCursor?

  /// Opens a local Ogg Opus file.
  public convenience init(path: String) throws {
    try LocalAudioFile.check(path)
    try self.init(name: path, cursor: nil) { op_open_file(path, $0) }
  }

  /// Opens an HTTP(S) resource; libopusfile reads its end for the duration, and seeks, with
  /// range requests. A stream of unknown length (a server transcoding as it sends) is read
  /// in order, without a duration or seeks: its end is not where the bytes stop so far.
  convenience init(stream: HTTPByteSource) throws {
    let cursor = InputCursor(stream)
    var callbacks = OpusFileCallbacks(
      read: { source, buffer, count in
        guard let source, let buffer else { return -1 }
        let cursor = Unmanaged<InputCursor>.fromOpaque(source).takeUnretainedValue()
        let got = cursor.read(into: buffer, count: Int(count))
        return cursor.failure == nil ? Int32(got) : -1
      },
      seek: { source, offset, whence in
        guard let source else { return -1 }
        let cursor = Unmanaged<InputCursor>.fromOpaque(source).takeUnretainedValue()
        return cursor.seek(offset, whence: whence) ? 0 : -1
      },
      tell: { source in
        guard let source else { return -1 }
        return Int64(Unmanaged<InputCursor>.fromOpaque(source).takeUnretainedValue().offset)
      },
      close: nil)
    if stream.length == nil { callbacks.seek = nil }
    try self.init(name: stream.url.absoluteString, cursor: cursor) { status in
      op_open_callbacks(Unmanaged.passUnretained(cursor).toOpaque(), &callbacks, nil, 0, status)
    }
  }

  private init(
    name: String, cursor: InputCursor?, open: (UnsafeMutablePointer<Int32>) -> OpaquePointer?
  ) throws {
    self.name = name
    self.cursor = cursor
    var status: Int32 = 0
    guard let file = open(&status) else {
      if let failure = cursor?.failure { throw failure }
      throw AudioError.notPlayable(name: name, format: "Opus", detail: Self.describe(status))
    }
    self.file = file
    let total = op_pcm_total(file, -1)
    duration = total > 0 ? Double(total) / 48_000 : nil
  }

  deinit {
    if let file { op_free(file) }
  }

  public var position: Double { Double(decodedFrames) / 48_000 }

  public func read(into buffer: UnsafeMutableRawBufferPointer, shouldStop: () -> Bool) throws
    -> Int
  {
    guard let file, !isAtEnd, let base = buffer.baseAddress else { return 0 }
    let samples = Int32(min(buffer.count / 2, 11_520))  // 120 ms of stereo at most
    if let cursor, try !cursor.ready(shouldStop: shouldStop) {
      return 0
    }
    while true {
      let frames = op_read_stereo(file, base.assumingMemoryBound(to: opus_int16.self), samples)
      if let failure = cursor?.failure { throw failure }
      if frames == OP_HOLE { continue }
      if frames < 0 {
        throw AudioError.decodeFailed(name: name, at: position, detail: Self.describe(frames))
      }
      if frames == 0 {
        isAtEnd = true
        return 0
      }
      decodedFrames += Int64(frames)
      return Int(frames) * format.bytesPerFrame
    }
  }

  @discardableResult
  public func seek(to seconds: Double) throws -> Double {
    guard let file else { return position }
    let status = op_pcm_seek(file, ogg_int64_t((max(0, seconds) * 48_000).rounded()))
    if let failure = cursor?.failure { throw failure }
    guard status == 0 else {
      throw AudioError.decodeFailed(
        name: name, at: seconds, detail: "seek failed: \(Self.describe(status))")
    }
    decodedFrames = Int64(op_pcm_tell(file))
    isAtEnd = false
    return position
  }

  public func close() {
    if let file { op_free(file) }
    file = nil
    isAtEnd = true
  }

  /// What a libopusfile status means.
  static func describe(_ status: Int32) -> String {
    switch status {
    case OP_ENOTFORMAT: return "not Opus audio"
    case OP_EBADHEADER: return "a damaged Opus header"
    case OP_EVERSION: return "an unknown Opus version"
    case OP_EREAD: return "the file could not be read"
    case OP_EBADLINK, OP_EBADPACKET: return "a damaged packet in the stream"
    default: return "the stream is damaged (libopusfile \(status))"
    }
  }
}

/// Ogg files: Vorbis or Opus, told apart by the first packet's signature.
public enum OggFormat: AudioDecoderFormat {
  public static var formatName: String { "Ogg" }

  public static func open(path: String) throws -> any AudioDecoder {
    switch AudioFormat.oggCodec(AudioDecoders.firstBytes(of: path)) {
    case .opus: return try OpusDecoder(path: path)
    case .vorbis: return try VorbisDecoder(path: path)
    case nil: throw neither(path)
    }
  }

  public static func open(stream: HTTPByteSource, head: [UInt8], shouldStop: () -> Bool) throws
    -> any AudioDecoder
  {
    switch AudioFormat.oggCodec(head) {
    case .opus: return try OpusDecoder(stream: stream)
    case .vorbis: return try VorbisDecoder(stream: stream)
    case nil: throw neither(stream.url.absoluteString)
    }
  }

  private static func neither(_ name: String) -> AudioError {
    .notPlayable(
      name: name, format: "Ogg",
      detail: "neither Vorbis nor Opus inside (FLAC in Ogg and Speex are not decoded)")
  }
}
