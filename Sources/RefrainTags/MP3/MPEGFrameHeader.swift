import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One MPEG audio frame header, enough to find frames and estimate a file's duration.
struct MPEGFrameHeader: Equatable {
  /// 1 for MPEG-1, 2 for MPEG-2, 25 for MPEG-2.5.
  var version: Int
  /// 1, 2 or 3.
  var layer: Int
  /// Bits per second.
  var bitrate: Int
  /// Samples per second.
  var sampleRate: Int
  /// Whether the frame is one slot longer.
  var padding: Bool
  /// Whether the channel mode is mono.
  var mono: Bool

  /// Parses the 4 bytes at `offset`; `nil` when they are not a valid header.
  init?(_ bytes: [UInt8], at offset: Int) {
    guard offset >= 0, offset + 4 <= bytes.count, bytes[offset] == 0xFF,
      bytes[offset + 1] & 0xE0 == 0xE0
    else { return nil }
    let b1 = bytes[offset + 1]
    let b2 = bytes[offset + 2]
    switch (b1 >> 3) & 0x03 {
    case 0: version = 25
    case 2: version = 2
    case 3: version = 1
    default: return nil
    }
    switch (b1 >> 1) & 0x03 {
    case 1: layer = 3
    case 2: layer = 2
    case 3: layer = 1
    default: return nil
    }
    let bitrateIndex = Int(b2 >> 4)
    let rateIndex = Int((b2 >> 2) & 0x03)
    guard bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
    bitrate = Self.bitrates(version: version, layer: layer)[bitrateIndex] * 1000
    let rates = [44_100, 48_000, 32_000]
    sampleRate = rates[rateIndex] / (version == 1 ? 1 : version == 2 ? 2 : 4)
    padding = (b2 >> 1) & 0x01 == 1
    mono = (bytes[offset + 3] >> 6) == 3
  }

  /// Samples in one frame.
  var samplesPerFrame: Int {
    switch layer {
    case 1: return 384
    case 2: return 1152
    default: return version == 1 ? 1152 : 576
    }
  }

  /// The frame's length in bytes, header included.
  var length: Int {
    if layer == 1 { return (12 * bitrate / sampleRate + (padding ? 1 : 0)) * 4 }
    let factor = layer == 3 && version != 1 ? 72 : 144
    return factor * bitrate / sampleRate + (padding ? 1 : 0)
  }

  /// Where a Xing/Info header would start within a Layer III frame.
  var xingOffset: Int {
    if version == 1 { return 4 + (mono ? 17 : 32) }
    return 4 + (mono ? 9 : 17)
  }

  private static func bitrates(version: Int, layer: Int) -> [Int] {
    switch (version == 1, layer) {
    case (true, 1): return [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
    case (true, 2): return [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
    case (true, _): return [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
    case (false, 1): return [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
    case (false, _): return [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
    }
  }
}

/// Finds the audio in a file's bytes and estimates its duration without decoding.
enum MPEGDurationEstimator {
  /// How the audio was found.
  struct Estimate: Equatable {
    /// The offset of the first frame.
    var firstFrame: Int
    /// The duration in seconds; `nil` for variable-bitrate audio without a Xing or VBRI header.
    var duration: Double?
  }

  /// Looks for the first of at least two consecutive valid frames in `bytes` (which start at
  /// `baseOffset` in a file of `fileSize` bytes, `audioEnd` being where the audio stops).
  static func estimate(_ bytes: [UInt8], baseOffset: Int, audioEnd: Int) -> Estimate? {
    var offset = 0
    while offset + 4 <= bytes.count {
      guard let header = MPEGFrameHeader(bytes, at: offset), header.length > 4 else {
        offset += 1
        continue
      }
      let next = offset + header.length
      // A lone sync pattern is common in random data; require a second frame to follow
      // (unless the file ends there, or the read window does).
      if next + 4 <= bytes.count, MPEGFrameHeader(bytes, at: next) == nil {
        offset += 1
        continue
      }
      let first = baseOffset + offset
      return Estimate(
        firstFrame: first,
        duration: duration(bytes, at: offset, header: header, audioBytes: audioEnd - first))
    }
    return nil
  }

  /// The duration from a Xing/Info or VBRI frame count, or from the bitrate when the first
  /// frames all share one.
  private static func duration(
    _ bytes: [UInt8], at offset: Int, header: MPEGFrameHeader, audioBytes: Int
  ) -> Double? {
    let perFrame = Double(header.samplesPerFrame) / Double(header.sampleRate)
    let xing = offset + header.xingOffset
    if xing + 12 <= bytes.count {
      let tag = String(decoding: bytes[xing..<xing + 4], as: UTF8.self)
      if tag == "Xing" || tag == "Info",
        let flags = ID3Bytes.bigEndian(bytes, at: xing + 4, count: 4), flags & 1 != 0,
        let frames = ID3Bytes.bigEndian(bytes, at: xing + 8, count: 4), frames > 0
      {
        return Double(frames) * perFrame
      }
    }
    let vbri = offset + 36
    if vbri + 18 <= bytes.count, String(decoding: bytes[vbri..<vbri + 4], as: UTF8.self) == "VBRI",
      let frames = ID3Bytes.bigEndian(bytes, at: vbri + 14, count: 4), frames > 0
    {
      return Double(frames) * perFrame
    }
    // No frame count: trust the bitrate only if the frames in the window agree on it.
    var position = offset
    var checked = 0
    while checked < 32, let next = MPEGFrameHeader(bytes, at: position) {
      guard next.bitrate == header.bitrate else { return nil }
      position += next.length
      checked += 1
    }
    guard audioBytes > 0 else { return nil }
    return Double(audioBytes) * 8 / Double(header.bitrate)
  }

  /// The duration of the audio from `firstFrame` to `audioEnd` in the file open at
  /// `descriptor`, counted frame by frame (as a decoder's scan does, without decoding): for
  /// variable-bitrate audio without a frame count. A stretch that is not a frame is skipped
  /// a byte at a time until frames start again. `nil` when no frame is found.
  static func countedDuration(descriptor: Int32, firstFrame: Int, audioEnd: Int) -> Double? {
    let chunk = 1 << 20
    var buffer = [UInt8]()
    var bufferStart = firstFrame
    var offset = firstFrame
    var samples = 0
    var sampleRate = 0
    while offset + 4 <= audioEnd {
      // Keep the next frame's header and body in the buffer (at most 2881 bytes a frame).
      if offset + 2881 > bufferStart + buffer.count, bufferStart + buffer.count < audioEnd {
        let count = min(chunk, audioEnd - offset)
        buffer = [UInt8](repeating: 0, count: count)
        let got = buffer.withUnsafeMutableBytes {
          pread(descriptor, $0.baseAddress, count, off_t(offset))
        }
        guard got > 0 else { break }
        buffer.removeLast(count - got)
        bufferStart = offset
      }
      let local = offset - bufferStart
      guard local + 4 <= buffer.count else { break }
      guard let header = MPEGFrameHeader(buffer, at: local), header.length > 4 else {
        offset += 1
        continue
      }
      if sampleRate == 0 { sampleRate = header.sampleRate }
      if header.sampleRate == sampleRate { samples += header.samplesPerFrame }
      offset += header.length
    }
    guard sampleRate > 0, samples > 0 else { return nil }
    return Double(samples) / Double(sampleRate)
  }
}
