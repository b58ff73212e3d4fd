import Foundation
import RefrainCore

/// Decodes the AAC sound track of an MP4 file (M4A) to 16-bit stereo PCM with faad2,
/// gaplessly and sample-exactly.
///
/// The frames are found through the file's own sample tables (``MP4SampleTable``), read
/// one at a time and handed to faad2. The encoder's delay and padding come from the edit
/// list, else from iTunes' `iTunSMPB` tag, and are dropped here: reads, the position and
/// the duration are already trimmed. A seek starts a fresh faad2 decoder one frame before
/// the frame that holds the target (four for HE-AAC and the profiles other than AAC-LC,
/// whose state reaches further back) and drops the samples before it, so it lands on the
/// sample and plays what an unbroken decoding plays there, but for the noise of
/// perceptual noise substitution, which faad2 draws afresh. A frame that does not decode
/// plays as silence of its length; more than 64 of them in a row, or a file cut short
/// inside its audio, stop decoding with an error once the audio before the damage has been
/// read. ALAC and other codecs are refused with an error that names them. Over HTTP(S) the
/// boxes and frames are read with range requests (``HTTPByteSource``), so a `moov` at the
/// end costs one request there, and a read waits for its frame's bytes only while
/// `shouldStop` allows.
public final class M4ADecoder: AudioDecoder {
  /// A short name for messages: the path.
  public let name: String
  /// The PCM format: stereo at the AAC stream's output rate.
  public let format: PCMFormat
  /// The duration in seconds, after the gapless trim.
  public let duration: Double?
  /// The encoder delay and padding dropped, in frames.
  public let gaplessTrim: (start: Int, end: Int)
  /// Whether the last read reached the end of the track.
  public private(set) var isAtEnd = false
  /// How many frames did not decode (each played as silence).
  public private(set) var warningCount = 0
  /// How many frames in a row did not decode, up to the last one read.
  private var badFramesInARow = 0

  private let source: any MP4ByteSource
  /// The HTTP(S) resource read, for reads that wait; `nil` for a local file.
  private let stream: HTTPByteSource?
  private let table: MP4SampleTable
  private let config: [UInt8]
  /// Samples (per channel) each AAC frame decodes to: 1024, or 2048 with SBR.
  private let frameLength: Int
  /// Frames decoded and dropped before a seek target.
  private let primingFrames: Int
  /// Where the sound starts and ends, in samples of the untrimmed decoding.
  private let start: Int64
  private let end: Int64
  /// How many frames from the first are in the file (fewer when it is cut short).
  private let available: Int

  private var aac: AACFrameDecoder
  /// The next AAC frame to decode; `nil` past the last.
  private var next: MP4SampleTable.Position?
  /// The decoded frame being read out, as interleaved stereo.
  private var pcm: [Int16] = []
  private var frameBytes: [UInt8] = []
  /// The part of ``pcm`` not read yet, in samples per channel.
  private var pending: Range<Int> = 0..<0
  /// The untrimmed index of the next sample a read returns.
  private var delivered: Int64
  /// An error met after a read had already filled part of its buffer, for the next read.
  private var deferred: Error?

  /// The most frames in a row (1.5 s at 44.1 kHz) that fail to decode before decoding
  /// stops: a scratched file plays with gaps, a file of garbage stops.
  static let maxBadFramesInARow = 64

  /// Opens the M4A file at `path`: reads its boxes and sample tables and decodes its first
  /// frame to learn the output format.
  public convenience init(path: String) throws {
    try LocalAudioFile.check(path)
    let source: MP4FileSource
    do {
      source = try MP4FileSource(url: URL(fileURLWithPath: path))
    } catch {
      if case .unreadable(let reason) = error {
        throw AudioError.fileNotReadable(path: path, reason: reason)
      }
      throw AudioError.notPlayable(name: path, format: Self.formatName, detail: "\(error)")
    }
    try self.init(name: path, source: source, stream: nil)
  }

  /// Opens an HTTP(S) resource as ``init(path:)`` opens a file, reading with range requests.
  convenience init(stream: HTTPByteSource) throws {
    guard let length = stream.length else {
      throw AudioError.notPlayable(
        name: stream.url.absoluteString, format: Self.formatName,
        detail: "the server does not say how long it is, which an M4A needs")
    }
    try self.init(
      name: stream.url.absoluteString, source: StreamMP4Source(stream, length: length),
      stream: stream)
  }

  private init(name: String, source: any MP4ByteSource, stream: HTTPByteSource?) throws {
    self.name = name
    self.source = source
    self.stream = stream
    let path = name
    var objectType = 0
    do {
      let reader = MP4BoxReader(source)
      let movie = try MP4Movie.read(from: reader)
      guard var track = movie.audio else {
        throw movie.isFragmented
          ? AudioError.notPlayable(
            name: path, format: Self.formatName,
            detail: "it is a fragmented MP4, which Refrain cannot play yet")
          : MP4Error.noAudioTrack
      }
      guard track.codec == .aac else {
        throw AudioError.unsupportedCodec(name: path, codec: "\(track.codec)")
      }
      objectType = Self.objectType(track.decoderConfig)
      if let unsupported = Self.unsupportedObjectTypes[objectType] {
        throw AudioError.unsupportedCodec(name: path, codec: unsupported)
      }
      guard objectType != 0 else {
        throw AudioError.notPlayable(
          name: path, format: Self.formatName, detail: "its AAC configuration is missing")
      }
      table = try MP4SampleTable.read(track, from: reader)
      guard table.count > 0 else {
        throw AudioError.notPlayable(
          name: path, format: Self.formatName, detail: "its sound track has no frames")
      }
      config = track.decoderConfig
      available = table.availableSamples(within: source.length)
      aac = try AACFrameDecoder(config: config)
      let probe = try Self.probe(table: table, available: available, source: source, aac: aac)
      guard let length = probe.frameLength else {
        throw AudioError.notPlayable(name: path, format: Self.formatName, detail: probe.reason)
      }
      frameLength = length
      primingFrames = frameLength > 1024 || objectType != 2 ? 4 : 1
      format = try StreamLimits.format(
        sampleRate: aac.sampleRate, channels: 2, name: path, formatName: Self.formatName)
      if track.mediaDuration == 0 { track.mediaDuration = table.duration }
      let tags = movie.tags.flatMap { try? MP4Metadata(ilst: $0, from: reader) }
      let gapless = track.gapless(
        movieTimescale: movie.timescale, outputRate: aac.sampleRate, iTunSMPB: tags?.iTunSMPB)
      let total = Int64(table.count) * Int64(frameLength)
      start = min(max(0, gapless.delay), total)
      end = start + min(max(0, gapless.length), total - start)
      duration = Double(end - start) / Double(aac.sampleRate)
      gaplessTrim = (Int(start), Int(total - end))
      delivered = start
    } catch let error as AudioError {
      throw error
    } catch let error as MP4Error {
      if let failure = (source as? StreamMP4Source)?.failure { throw failure }
      if case .unreadable(let reason) = error {
        throw AudioError.fileNotReadable(path: path, reason: reason)
      }
      throw AudioError.notPlayable(name: path, format: Self.formatName, detail: "\(error)")
    } catch let error as AACConfigError {
      throw AudioError.notPlayable(
        name: path, format: Self.formatName,
        detail: "\(error.reason) (audio object type \(objectType))")
    }
    try restart(at: start)
  }

  /// The audio object types in an AudioSpecificConfig that faad2 does not decode, by name.
  static let unsupportedObjectTypes = [23: "AAC-LD", 39: "AAC-ELD", 42: "xHE-AAC (USAC)"]

  /// The audio object type an AudioSpecificConfig starts with (5 bits, or 6 more after 31);
  /// 0 when there is none.
  static func objectType(_ config: [UInt8]) -> Int {
    guard let first = config.first else { return 0 }
    let type = Int(first >> 3)
    guard type == 31 else { return type }
    guard config.count >= 2 else { return 0 }
    return 32 + (Int(first & 0x7) << 3 | Int(config[1] >> 5))
  }

  /// Decodes the file's first frames until one gives sound, to learn how long a decoded
  /// frame is; `nil`, with the reason, when none of the first eight decodes.
  private static func probe(
    table: MP4SampleTable, available: Int, source: any MP4ByteSource, aac: AACFrameDecoder
  ) throws -> (frameLength: Int?, reason: String) {
    var position = table.position(of: 0)
    var reason = "the file ends before its first frame"
    var pcm: [Int16] = []
    for _ in 0..<min(8, available) {
      var bytes = try source.read(at: position.offset, count: table.size(of: position.sample))
      table.advance(&position)
      pcm.removeAll(keepingCapacity: true)
      switch aac.decode(&bytes, into: &pcm) {
      case .success(let frames) where [960, 1024, 1920, 2048].contains(frames):
        return (frames, "")
      case .success(let frames):
        reason = "an AAC frame decodes to \(frames) samples"
      case .failure(let error):
        reason = "its AAC frames do not decode (\(error.reason))"
      }
    }
    return (nil, reason)
  }

  // MARK: - Reading

  /// The decoder's position in seconds (what was read, not what was heard).
  public var position: Double { Double(delivered - start) / Double(format.sampleRate) }

  /// Decodes into `buffer` and returns the bytes written; 0 with ``isAtEnd`` at the end.
  ///
  /// Only whole stereo frames are written. An error met after part of the buffer was
  /// filled is thrown by the next read, so the audio before damage is heard.
  public func read(into buffer: UnsafeMutableRawBufferPointer, shouldStop: () -> Bool = { false })
    throws -> Int
  {
    if let error = deferred {
      deferred = nil
      isAtEnd = true
      throw error
    }
    guard !isAtEnd else { return 0 }
    let capacity = buffer.count / format.bytesPerFrame
    var written = 0
    while written < capacity {
      if pending.isEmpty {
        if let stream, let next, next.sample < available,
          try !stream.prepare(
            at: next.offset, count: table.size(of: next.sample), shouldStop: shouldStop)
        {
          break
        }
        do {
          guard try decodeNextFrame() else {
            isAtEnd = true
            break
          }
        } catch {
          guard written > 0 else {
            isAtEnd = true
            throw error
          }
          deferred = error
          break
        }
      }
      let count = min(capacity - written, pending.count)
      let width = format.bytesPerFrame
      let from = pending.lowerBound * width..<(pending.lowerBound + count) * width
      let into = written * width..<(written + count) * width
      pcm.withUnsafeBytes { samples in
        UnsafeMutableRawBufferPointer(rebasing: buffer[into]).copyMemory(
          from: UnsafeRawBufferPointer(rebasing: samples[from]))
      }
      pending = pending.lowerBound + count..<pending.upperBound
      written += count
      delivered += Int64(count)
    }
    return written * format.bytesPerFrame
  }

  /// Decodes frames until one holds samples to return, and sets ``pending`` to them;
  /// `false` at the end of the track.
  private func decodeNextFrame() throws -> Bool {
    while delivered < end, var position = next, position.sample < table.count {
      let frameStart = Int64(position.sample) * Int64(frameLength)
      guard position.sample < available else {
        throw AudioError.decodeFailed(
          name: name, at: Double(max(0, frameStart - start)) / Double(format.sampleRate),
          detail: "the file is cut short here; download or copy it again")
      }
      let size = table.size(of: position.sample)
      do {
        frameBytes = try source.read(at: position.offset, count: size)
      } catch {
        throw (source as? StreamMP4Source)?.failure ?? error
      }
      table.advance(&position)
      next = position
      pcm.removeAll(keepingCapacity: true)
      switch aac.decode(&frameBytes, into: &pcm) {
      case .success:
        badFramesInARow = 0
      case .failure(let error):
        warningCount += 1
        badFramesInARow += 1
        if badFramesInARow > Self.maxBadFramesInARow {
          throw AudioError.decodeFailed(
            name: name, at: self.position,
            detail: "\(badFramesInARow) damaged AAC frames in a row: \(error.reason)")
        }
        pcm.removeAll(keepingCapacity: true)
      }
      // Every frame covers exactly one frame length, so the timeline never slips.
      if pcm.count < frameLength * 2 {
        pcm.append(contentsOf: repeatElement(0, count: frameLength * 2 - pcm.count))
      }
      let from = max(delivered, frameStart)
      let to = min(frameStart + Int64(frameLength), end)
      if from < to {
        pending = Int(from - frameStart)..<Int(to - frameStart)
        return true
      }
    }
    return false
  }

  // MARK: - Seeking

  /// Seeks to `seconds` (clamped to the track), exactly to the sample, and returns where it
  /// is.
  @discardableResult
  public func seek(to seconds: Double) throws -> Double {
    let rate = Double(format.sampleRate)
    let wanted = (max(0, seconds) * rate).rounded()
    let target = wanted < Double(end - start) ? Int64(wanted) : end - start
    try restart(at: start + target)
    return Double(target) / rate
  }

  /// Starts decoding afresh so that the next read returns untrimmed sample `sample`.
  private func restart(at sample: Int64) throws {
    let frame = Int(sample / Int64(frameLength))
    let first = max(0, frame - primingFrames)
    do {
      aac = try AACFrameDecoder(config: config)
    } catch {
      throw AudioError.decodeFailed(name: name, at: position, detail: error.reason)
    }
    next = first < table.count ? table.position(of: first) : nil
    pending = 0..<0
    badFramesInARow = 0
    delivered = sample
    deferred = nil
    isAtEnd = sample >= end
  }

  /// Stops reading; reads after it return 0.
  public func close() {
    isAtEnd = true
    next = nil
    pending = 0..<0
  }
}

/// An HTTP(S) resource as the MP4 box reader's source: reads wait for their bytes (as long
/// as the stream's timeout) and keep the stream's error for the decoder to report.
private final class StreamMP4Source: MP4ByteSource {
  let stream: HTTPByteSource
  let length: UInt64
  /// Why the last read failed.
  private(set) var failure: AudioError?

  init(_ stream: HTTPByteSource, length: UInt64) {
    self.stream = stream
    self.length = length
  }

  func read(at offset: UInt64, count: Int) throws(MP4Error) -> [UInt8] {
    guard count > 0, offset < length else { return [] }
    do {
      return try stream.read(at: offset, count: Int(min(UInt64(count), length - offset)))
    } catch let error as AudioError {
      failure = error
      throw .unreadable("\(error)")
    } catch {
      throw .unreadable("\(error)")
    }
  }
}

extension M4ADecoder: AudioDecoderFormat {
  public static var formatName: String { "M4A" }

  /// An `ftyp` box first: its type 4 bytes in (MP4, M4A, M4B; QuickTime files that have
  /// one).
  public static func open(path: String) throws -> any AudioDecoder {
    try M4ADecoder(path: path)
  }

  public static func open(stream: HTTPByteSource, head: [UInt8], shouldStop: () -> Bool) throws
    -> any AudioDecoder
  {
    try M4ADecoder(stream: stream)
  }
}
