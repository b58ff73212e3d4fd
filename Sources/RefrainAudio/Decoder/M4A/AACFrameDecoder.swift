import CFAAD

/// One faad2 decoder for the raw AAC frames of one track, giving 16-bit stereo.
///
/// faad2 normally swallows its first frame's output; this one keeps it, so that output
/// sample `n` of frame `k` is sample `k × frameLength + n` of the standard decoding, which
/// is what edit lists and `iTunSMPB` count in. Mono is doubled to both channels, 5.1 is
/// mixed down by faad2, and other layouts keep their first two channels. A decoder holds
/// the state of the frames it has seen: to decode from elsewhere, start a new one.
final class AACFrameDecoder {
  /// The largest frame passed to faad2; AAC allows 768 bytes a channel.
  static let maxFrameBytes = 65_536

  /// The output's sample rate (twice the core rate when faad2 adds SBR).
  let sampleRate: Int
  private let handle: NeAACDecHandle

  /// A decoder for frames described by `config`, an AudioSpecificConfig.
  ///
  /// Throws when faad2 refuses the configuration.
  init(config: [UInt8]) throws(AACConfigError) {
    guard let handle = NeAACDecOpen() else { throw AACConfigError(reason: "faad2 did not start") }
    self.handle = handle
    if let settings = NeAACDecGetCurrentConfiguration(handle) {
      settings.pointee.outputFormat = UInt8(FAAD_FMT_16BIT)
      settings.pointee.downMatrix = 1
      _ = NeAACDecSetConfiguration(handle, settings)
    }
    var rate: UInt = 0
    var channels: UInt8 = 0
    var bytes = config
    let status = bytes.withUnsafeMutableBufferPointer {
      NeAACDecInit2(handle, $0.baseAddress, UInt($0.count), &rate, &channels)
    }
    guard status == 0, rate > 0, config.count >= 2 else {
      NeAACDecClose(handle)
      throw AACConfigError(reason: "faad2 does not accept its AAC configuration")
    }
    sampleRate = Int(clamping: rate)
    // Counted as past the first frame, faad2 outputs that frame instead of dropping it.
    NeAACDecPostSeekReset(handle, 1)
  }

  deinit { NeAACDecClose(handle) }

  /// Decodes `frame`, appending its samples to `output` as interleaved stereo; returns the
  /// number of stereo frames appended, or faad2's message when the frame does not decode.
  func decode(_ frame: inout [UInt8], into output: inout [Int16]) -> Result<Int, AACFrameError> {
    guard !frame.isEmpty, frame.count <= Self.maxFrameBytes else {
      return .failure(AACFrameError(reason: "an AAC frame of \(frame.count) bytes"))
    }
    var info = NeAACDecFrameInfo()
    let samples = frame.withUnsafeMutableBufferPointer {
      NeAACDecDecode(handle, &info, $0.baseAddress, UInt($0.count))
    }
    guard info.error == 0, let samples else {
      let message = NeAACDecGetErrorMessage(info.error).map { String(cString: $0) }
      return .failure(AACFrameError(reason: message ?? "faad2 error \(info.error)"))
    }
    let channels = Int(info.channels)
    guard channels > 0 else { return .success(0) }
    let count = Int(info.samples) / channels
    let pcm = samples.assumingMemoryBound(to: Int16.self)
    output.reserveCapacity(output.count + count * 2)
    for index in 0..<count {
      let left = pcm[index * channels]
      output.append(left)
      output.append(channels > 1 ? pcm[index * channels + 1] : left)
    }
    return .success(count)
  }
}

/// faad2 refused a track's AAC configuration.
struct AACConfigError: Error {
  /// Why, for the message.
  var reason: String
}

/// faad2 could not decode one AAC frame.
struct AACFrameError: Error {
  /// faad2's message.
  var reason: String
}
