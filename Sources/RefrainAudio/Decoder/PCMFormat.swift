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
