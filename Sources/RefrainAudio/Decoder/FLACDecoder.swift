import CFLAC
import Foundation

/// Decodes a FLAC file to 16-bit PCM with libFLAC: any bit depth up to 32 (24-bit loses its
/// low 8 bits), seeking to the sample by the seek table.
public final class FLACDecoder: AudioDecoder, AudioDecoderFormat {
  public let name: String
  public private(set) var format: PCMFormat
  public private(set) var duration: Double?
  public var gaplessTrim: (start: Int, end: Int) { (0, 0) }
  public private(set) var isAtEnd = false

  private let decoder: UnsafeMutablePointer<FLAC__StreamDecoder>
  private var pending = PendingPCM()
  private var bitsPerSample = 16
  /// Why the stream info is impossible, when it is (read in libFLAC's metadata callback).
  private var impossible: AudioError?
  private var decodedFrames: Int64 = 0
  private var totalFrames: Int64 = 0
  /// Why the last write or decode failed, from libFLAC's error callback.
  private var streamError: String?
  /// Where a stream is read, for libFLAC's stream callbacks; `nil` for a local file.
  private let cursor: InputCursor?

  public static var formatName: String { "FLAC" }

  public static func open(path: String) throws -> any AudioDecoder { try FLACDecoder(path: path) }

  public static func open(stream: HTTPByteSource, head: [UInt8], shouldStop: () -> Bool) throws
    -> any AudioDecoder
  {
    try FLACDecoder(stream: stream)
  }

  /// Opens a local FLAC file and reads its stream info.
  public convenience init(path: String) throws {
    try LocalAudioFile.check(path)
    try self.init(name: path, cursor: nil) { decoder, write, metadata, error, client in
      FLAC__stream_decoder_init_file(decoder, path, write, metadata, error, client)
    }
  }

  /// Opens an HTTP(S) resource and reads its stream info; seeks read the frames they need
  /// with range requests.
  convenience init(stream: HTTPByteSource) throws {
    try self.init(name: stream.url.absoluteString, cursor: InputCursor(stream)) {
      decoder, write, metadata, error, client in
      FLAC__stream_decoder_init_stream(
        decoder,
        { _, buffer, bytes, client in
          guard let buffer, let bytes, let cursor = FLACDecoder.cursor(client) else {
            return FLAC__STREAM_DECODER_READ_STATUS_ABORT
          }
          bytes.pointee = cursor.read(into: buffer, count: bytes.pointee)
          if bytes.pointee > 0 { return FLAC__STREAM_DECODER_READ_STATUS_CONTINUE }
          return cursor.failure == nil
            ? FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM
            : FLAC__STREAM_DECODER_READ_STATUS_ABORT
        },
        { _, offset, client in
          guard let cursor = FLACDecoder.cursor(client),
            cursor.seek(Int64(offset), whence: SEEK_SET)
          else { return FLAC__STREAM_DECODER_SEEK_STATUS_ERROR }
          return FLAC__STREAM_DECODER_SEEK_STATUS_OK
        },
        { _, offset, client in
          guard let offset, let cursor = FLACDecoder.cursor(client) else {
            return FLAC__STREAM_DECODER_TELL_STATUS_ERROR
          }
          offset.pointee = cursor.offset
          return FLAC__STREAM_DECODER_TELL_STATUS_OK
        },
        { _, length, client in
          guard let length, let size = FLACDecoder.cursor(client)?.input.size else {
            return FLAC__STREAM_DECODER_LENGTH_STATUS_UNSUPPORTED
          }
          length.pointee = size
          return FLAC__STREAM_DECODER_LENGTH_STATUS_OK
        },
        { _, client in FLACDecoder.cursor(client)?.isAtEnd ?? true ? 1 : 0 },
        write, metadata, error, client)
    }
  }

  /// The libFLAC callbacks every way of opening shares, handed to `initialize` with the
  /// client pointer (this decoder).
  private typealias Initialize = (
    UnsafeMutablePointer<FLAC__StreamDecoder>, FLAC__StreamDecoderWriteCallback,
    FLAC__StreamDecoderMetadataCallback, FLAC__StreamDecoderErrorCallback, UnsafeMutableRawPointer
  ) -> FLAC__StreamDecoderInitStatus

  private init(name: String, cursor: InputCursor?, initialize: Initialize) throws {
    self.name = name
    self.cursor = cursor
    format = PCMFormat(sampleRate: 44_100, channels: 2)
    guard let decoder = FLAC__stream_decoder_new() else {
      throw AudioError.notPlayable(name: name, format: "FLAC", detail: "libFLAC could not start")
    }
    self.decoder = decoder
    let client = Unmanaged.passUnretained(self).toOpaque()
    let status = initialize(
      decoder,
      { _, frame, buffer, client in
        guard let frame, let buffer, let client else {
          return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
        }
        Unmanaged<FLACDecoder>.fromOpaque(client).takeUnretainedValue().take(frame, buffer)
        return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
      },
      { _, metadata, client in
        guard let metadata, let client, metadata.pointee.type == FLAC__METADATA_TYPE_STREAMINFO
        else { return }
        let info = metadata.pointee.data.stream_info
        Unmanaged<FLACDecoder>.fromOpaque(client).takeUnretainedValue().streamInfo(
          rate: info.sample_rate, channels: info.channels, bits: info.bits_per_sample,
          frames: info.total_samples)
      },
      { _, status, client in
        guard let client else { return }
        Unmanaged<FLACDecoder>.fromOpaque(client).takeUnretainedValue().streamError =
          FLACDecoder.describe(status)
      }, client)
    guard status == FLAC__STREAM_DECODER_INIT_STATUS_OK else {
      throw AudioError.notPlayable(
        name: name, format: "FLAC", detail: "libFLAC refused it (init status \(status.rawValue))")
    }
    let metadataRead = FLAC__stream_decoder_process_until_end_of_metadata(decoder) != 0
    if let impossible { throw impossible }
    guard metadataRead, totalFrames >= 0, format.channels > 0 else {
      if let failure = cursor?.failure { throw failure }
      throw AudioError.notPlayable(
        name: name, format: "FLAC", detail: streamError ?? "no stream info")
    }
    duration = totalFrames > 0 ? Double(totalFrames) / Double(format.sampleRate) : nil
  }

  /// The read position of the decoder behind a libFLAC client pointer, when it reads a
  /// stream.
  private static func cursor(_ client: UnsafeMutableRawPointer?) -> InputCursor? {
    client.flatMap { Unmanaged<FLACDecoder>.fromOpaque($0).takeUnretainedValue().cursor }
  }

  deinit {
    FLAC__stream_decoder_finish(decoder)
    FLAC__stream_decoder_delete(decoder)
  }

  public var position: Double { Double(decodedFrames) / Double(format.sampleRate) }

  public func read(into buffer: UnsafeMutableRawBufferPointer, shouldStop: () -> Bool) throws
    -> Int
  {
    while pending.isEmpty {
      if isAtEnd { return 0 }
      if FLAC__stream_decoder_get_state(decoder) == FLAC__STREAM_DECODER_END_OF_STREAM {
        isAtEnd = true
        return 0
      }
      if let cursor, try !cursor.ready(shouldStop: shouldStop) {
        return 0
      }
      guard FLAC__stream_decoder_process_single(decoder) != 0 else {
        if let failure = cursor?.failure { throw failure }
        throw AudioError.decodeFailed(
          name: name, at: position, detail: streamError ?? "the FLAC stream is damaged")
      }
    }
    let count = pending.drain(into: buffer, frameBytes: format.bytesPerFrame)
    decodedFrames += Int64(count / format.bytesPerFrame)
    return count
  }

  @discardableResult
  public func seek(to seconds: Double) throws -> Double {
    var frame = Int64((max(0, seconds) * Double(format.sampleRate)).rounded())
    if totalFrames > 0 { frame = min(frame, totalFrames) }
    pending.removeAll()
    isAtEnd = false
    if totalFrames > 0, frame >= totalFrames {
      decodedFrames = totalFrames
      isAtEnd = true
      return position
    }
    guard FLAC__stream_decoder_seek_absolute(decoder, FLAC__uint64(frame)) != 0 else {
      _ = FLAC__stream_decoder_flush(decoder)
      if let failure = cursor?.failure { throw failure }
      throw AudioError.decodeFailed(
        name: name, at: seconds, detail: "seek failed: \(streamError ?? "no seek point")")
    }
    decodedFrames = frame
    return position
  }

  public func close() {
    pending.removeAll()
    isAtEnd = true
    FLAC__stream_decoder_finish(decoder)
  }

  // MARK: - libFLAC's callbacks

  /// What a libFLAC decoding error means.
  static func describe(_ status: FLAC__StreamDecoderErrorStatus) -> String {
    switch status {
    case FLAC__STREAM_DECODER_ERROR_STATUS_LOST_SYNC: return "lost sync: the stream is damaged"
    case FLAC__STREAM_DECODER_ERROR_STATUS_BAD_HEADER: return "a frame header is damaged"
    case FLAC__STREAM_DECODER_ERROR_STATUS_FRAME_CRC_MISMATCH:
      return "a frame's checksum does not match"
    case FLAC__STREAM_DECODER_ERROR_STATUS_UNPARSEABLE_STREAM: return "an unparseable stream"
    default: return "the stream is damaged"
    }
  }

  /// Takes the STREAMINFO block, or keeps why it is impossible for ``init`` to throw.
  private func streamInfo(rate: UInt32, channels: UInt32, bits: UInt32, frames: UInt64) {
    do {
      format = try StreamLimits.format(
        sampleRate: rate, channels: channels, bits: bits, name: name, formatName: "FLAC")
      bitsPerSample = Int(bits)
      totalFrames = Int64(clamping: frames)
    } catch {
      impossible = error as? AudioError
    }
  }

  /// Interleaves one decoded block into the pending PCM.
  private func take(
    _ frame: UnsafePointer<FLAC__Frame>, _ buffer: UnsafePointer<UnsafePointer<FLAC__int32>?>
  ) {
    let blocksize = Int(frame.pointee.header.blocksize)
    let channels = min(Int(frame.pointee.header.channels), format.channels)
    let bits = Int(frame.pointee.header.bits_per_sample)
    for index in 0..<blocksize {
      for channel in 0..<format.channels {
        let source = buffer[min(channel, channels - 1)]!
        pending.append(PendingPCM.sixteen(source[index], bits: bits == 0 ? bitsPerSample : bits))
      }
    }
  }
}
