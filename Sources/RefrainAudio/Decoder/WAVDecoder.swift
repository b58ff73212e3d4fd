import Foundation

/// Reads a WAV file (RIFF, or RF64 for files over 4 GiB): PCM of 8, 16, 24 or 32 bits, or
/// 32- and 64-bit float, as 16-bit PCM. Seeks are exact: a sample is a byte offset.
public final class WAVDecoder: AudioDecoder, AudioDecoderFormat {
  public let name: String
  public let format: PCMFormat
  public let duration: Double?
  public var gaplessTrim: (start: Int, end: Int) { (0, 0) }
  public private(set) var isAtEnd = false

  /// Where the samples are and how they are stored.
  struct Layout: Equatable {
    var sampleRate: Int
    var channels: Int
    var bits: Int
    var isFloat: Bool
    var dataOffset: UInt64
    var dataBytes: UInt64

    var frameBytes: Int { channels * bits / 8 }
    var frames: UInt64 { frameBytes > 0 ? dataBytes / UInt64(frameBytes) : 0 }
  }

  private let layout: Layout
  private var input: (any DecoderInput)?
  private var frame: UInt64 = 0

  public static var formatName: String { "WAV" }

  public static func open(path: String) throws -> any AudioDecoder { try WAVDecoder(path: path) }

  public static func open(stream: HTTPByteSource, head: [UInt8], shouldStop: () -> Bool) throws
    -> any AudioDecoder
  {
    try WAVDecoder(name: stream.url.absoluteString, input: stream)
  }

  /// Opens a local WAV file and finds its `fmt ` and `data` chunks.
  public convenience init(path: String) throws {
    try LocalAudioFile.check(path)
    try self.init(name: path, input: try FileInput(path: path))
  }

  /// Reads the WAV file `input` holds (a local file, or an HTTP(S) resource read with range
  /// requests): its `fmt ` and `data` chunks.
  init(name: String, input: any DecoderInput) throws {
    self.name = name
    do {
      layout = try Self.layout(of: input)
    } catch let detail as WAVProblem {
      throw AudioError.notPlayable(name: name, format: "WAV", detail: detail.reason)
    }
    self.input = input
    format = PCMFormat(sampleRate: layout.sampleRate, channels: layout.channels)
    duration = Double(layout.frames) / Double(layout.sampleRate)
  }

  public var position: Double { Double(frame) / Double(layout.sampleRate) }

  public func read(into buffer: UnsafeMutableRawBufferPointer, shouldStop: () -> Bool) throws
    -> Int
  {
    guard let input, !isAtEnd, let base = buffer.baseAddress else { return 0 }
    let outFrameBytes = format.bytesPerFrame
    let frames = min(UInt64(buffer.count / outFrameBytes), layout.frames - frame, 8192)
    guard frames > 0 else {
      isAtEnd = true
      return 0
    }
    let at = layout.dataOffset + frame * UInt64(layout.frameBytes)
    let count = Int(frames) * layout.frameBytes
    guard try input.prepare(at: at, count: count, shouldStop: shouldStop) else { return 0 }
    let raw = try input.read(at: at, count: count)
    let whole = raw.count / layout.frameBytes
    guard whole > 0 else {
      isAtEnd = true  // the file is shorter than its header says
      return 0
    }
    let out = base.assumingMemoryBound(to: Int16.self)
    raw.withUnsafeBytes { bytes in
      let width = layout.bits / 8
      for index in 0..<(whole * layout.channels) {
        out[index] = Self.sample(bytes, at: index * width, bits: layout.bits, float: layout.isFloat)
      }
    }
    frame += UInt64(whole)
    return whole * outFrameBytes
  }

  @discardableResult
  public func seek(to seconds: Double) throws -> Double {
    guard input != nil else { return position }
    frame = min(layout.frames, UInt64(max(0, (seconds * Double(layout.sampleRate)).rounded())))
    isAtEnd = frame >= layout.frames
    return position
  }

  public func close() {
    input = nil
    isAtEnd = true
  }

  // MARK: - Samples

  /// One little-endian sample at `offset` as 16 bits.
  static func sample(_ bytes: UnsafeRawBufferPointer, at offset: Int, bits: Int, float: Bool)
    -> Int16
  {
    if float {
      let value: Double =
        bits == 64
        ? Double(bitPattern: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        : Double(Float(bitPattern: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
      return Int16(max(-32768, min(32767, (value * 32768).rounded())))
    }
    switch bits {
    case 8: return Int16(Int(bytes[offset]) - 128) << 8
    case 16: return Int16(bitPattern: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    case 24: return Int16(bitPattern: UInt16(bytes[offset + 1]) | UInt16(bytes[offset + 2]) << 8)
    default:
      let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
      return Int16(bitPattern: UInt16(truncatingIfNeeded: word >> 16))
    }
  }

  // MARK: - Chunks

  /// Why a WAV file cannot be read.
  struct WAVProblem: Error {
    let reason: String
  }

  /// Walks the RIFF chunks for `fmt ` (and RF64's `ds64`) up to `data`.
  static func layout(of input: any DecoderInput) throws -> Layout {
    var at: UInt64 = 0
    func read(_ count: Int) throws -> [UInt8] {
      let bytes = try input.read(at: at, count: count)
      guard bytes.count == count else { throw WAVProblem(reason: "the file ends inside a header") }
      at += UInt64(count)
      return bytes
    }
    func le(_ bytes: [UInt8], _ at: Int, _ width: Int) -> UInt64 {
      (0..<width).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
    }
    let header = try read(12)
    let isRF64 = header[0..<4].elementsEqual("RF64".utf8)
    var ds64Data: UInt64?
    var fmt: (rate: Int, channels: Int, bits: Int, float: Bool)?
    var offset: UInt64 = 12
    for _ in 0..<64 {
      let chunk = try read(8)
      let id = String(decoding: chunk[0..<4], as: UTF8.self)
      var size = le(chunk, 4, 4)
      offset += 8
      switch id {
      case "ds64":
        let body = try read(Int(min(size, 64)))
        guard body.count >= 16 else { throw WAVProblem(reason: "a short ds64 chunk") }
        ds64Data = le(body, 8, 8)
        if size > 64 { at = offset + size }
      case "fmt ":
        guard size >= 16, size <= 1024 else { throw WAVProblem(reason: "a bad fmt chunk") }
        let body = try read(Int(size))
        var tag = le(body, 0, 2)
        if tag == 0xFFFE, body.count >= 26 { tag = le(body, 24, 2) }  // WAVE_FORMAT_EXTENSIBLE
        let channels = Int(le(body, 2, 2))
        let rate = Int(le(body, 4, 4))
        let bits = Int(le(body, 14, 2))
        switch (tag, bits) {
        case (1, 8), (1, 16), (1, 24), (1, 32), (3, 32), (3, 64): break
        case (1, _), (3, _): throw WAVProblem(reason: "\(bits)-bit samples are not supported")
        default:
          throw WAVProblem(
            reason: "format \(tag) is not PCM or float (compressed WAV is not decoded)")
        }
        if let problem = StreamLimits.problem(sampleRate: rate, channels: channels) {
          throw WAVProblem(reason: problem)
        }
        fmt = (rate, channels, bits, tag == 3)
      case "data":
        guard let fmt else { throw WAVProblem(reason: "no fmt chunk before the data") }
        if isRF64, size == 0xFFFF_FFFF, let ds64Data { size = ds64Data }
        let fileSize = input.size ?? offset + size
        let available = fileSize > offset ? fileSize - offset : 0
        return Layout(
          sampleRate: fmt.rate, channels: fmt.channels, bits: fmt.bits, isFloat: fmt.float,
          dataOffset: offset, dataBytes: min(size, available))
      default:
        break
      }
      if id != "ds64", id != "fmt " {
        offset += size + (size & 1)
      } else {
        offset += size + (id == "fmt " ? (size & 1) : 0)
      }
      at = offset
    }
    throw WAVProblem(reason: "no data chunk")
  }
}
