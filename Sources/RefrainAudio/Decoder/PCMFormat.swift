/// The PCM format Refrain's decoder produces: signed 16-bit little-endian, interleaved.
public struct PCMFormat: Sendable, Hashable, CustomStringConvertible {
  /// Frames per second.
  public var sampleRate: Int
  /// Interleaved channels per frame.
  public var channels: Int

  /// Creates a format.
  public init(sampleRate: Int, channels: Int) {
    self.sampleRate = sampleRate
    self.channels = channels
  }

  /// Bytes in one frame (one sample for every channel).
  public var bytesPerFrame: Int { channels * 2 }

  /// Bytes in one second of audio.
  public var bytesPerSecond: Int { sampleRate * bytesPerFrame }

  public var description: String { "\(sampleRate) Hz, \(channels) ch, s16le" }
}

/// The one place that says which stream parameters Refrain plays: every decoder checks what a
/// file claims here before it converts any of it, and every output checks what it is opened
/// at, so an impossible number is one error line, never a trap or a stall.
public enum StreamLimits {
  /// Frames per second a stream may have: from telephone speech to 16 × 48 kHz.
  public static let sampleRates: ClosedRange<Int> = 8_000...768_000
  /// Channels a stream may have.
  public static let channels: ClosedRange<Int> = 1...8
  /// Bits per sample a lossless stream may have.
  public static let bitDepths: ClosedRange<Int> = 4...64

  /// The format made of a file's claimed `sampleRate` and `channels` (any integer types, never
  /// converted before they are checked); with `bits`, the bit depth is checked too.
  ///
  /// Throws ``AudioError/notPlayable(name:format:detail:)`` with ``problem(sampleRate:channels:bits:)``.
  public static func format(
    sampleRate: some BinaryInteger, channels: some BinaryInteger, bits: (any BinaryInteger)? = nil,
    name: String, formatName: String
  ) throws -> PCMFormat {
    if let detail = problem(sampleRate: sampleRate, channels: channels, bits: bits) {
      throw AudioError.notPlayable(name: name, format: formatName, detail: detail)
    }
    return PCMFormat(
      sampleRate: Int(truncatingIfNeeded: sampleRate), channels: Int(truncatingIfNeeded: channels))
  }

  /// Why a stream of these claimed numbers cannot be played (naming the number and the range
  /// Refrain plays), or `nil` when all are within the limits.
  public static func problem(
    sampleRate: some BinaryInteger, channels: some BinaryInteger, bits: (any BinaryInteger)? = nil
  ) -> String? {
    if Int(exactly: sampleRate).map({ sampleRates.contains($0) }) != true {
      return
        "its sample rate of \(sampleRate) Hz is outside the \(describe(sampleRates)) Hz Refrain plays"
    }
    if Int(exactly: channels).map({ Self.channels.contains($0) }) != true {
      return "\(channels) channels; Refrain plays \(describe(Self.channels))"
    }
    if let bits, Int(exactly: bits).map({ bitDepths.contains($0) }) != true {
      return "\(bits)-bit samples; Refrain plays \(describe(bitDepths)) bits"
    }
    return nil
  }

  /// Whether `format` is one an output can be opened at.
  public static func allows(_ format: PCMFormat) -> Bool {
    sampleRates.contains(format.sampleRate) && channels.contains(format.channels)
  }

  /// `8,000–768,000`: a range as messages write it.
  static func describe(_ range: ClosedRange<Int>) -> String {
    "\(grouped(range.lowerBound))–\(grouped(range.upperBound))"
  }

  private static func grouped(_ value: Int) -> String {
    var digits = String(value)
    var index = digits.count - 3
    while index > 0 {
      digits.insert(",", at: digits.index(digits.startIndex, offsetBy: index))
      index -= 3
    }
    return digits
  }
}
