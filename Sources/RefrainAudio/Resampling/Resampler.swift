import CSoxr

/// Converts interleaved 16-bit PCM from one sample rate to another with libsoxr (its high
/// quality, without dither, so digital silence stays silent).
///
/// A stream of N input frames, ended with ``finish(into:)``, comes out as N × output rate ÷
/// input rate frames, rounded (within a frame), with the filter's delay already removed: a
/// track keeps its length and its start. Used from one thread at a time.
public final class Resampler {
  /// Frames per second taken.
  public let inputRate: Int
  /// Frames per second given.
  public let outputRate: Int
  /// Interleaved channels, the same in and out.
  public let channels: Int
  private let soxr: soxr_t

  /// Why libsoxr refused a conversion.
  public struct Refusal: Error, CustomStringConvertible {
    public let description: String
  }

  /// Creates a resampler from `inputRate` to `outputRate` for `channels` channels; both rates
  /// must be within ``StreamLimits/sampleRates``.
  public init(from inputRate: Int, to outputRate: Int, channels: Int) throws(Refusal) {
    guard StreamLimits.sampleRates.contains(inputRate),
      StreamLimits.sampleRates.contains(outputRate),
      StreamLimits.channels.contains(channels)
    else {
      throw Refusal(
        description: "cannot resample \(inputRate) Hz to \(outputRate) Hz, \(channels) ch")
    }
    var io = soxr_io_spec(SOXR_INT16_I, SOXR_INT16_I)
    io.flags |= UInt(SOXR_NO_DITHER)
    var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
    var error: soxr_error_t?
    let created = soxr_create(
      Double(inputRate), Double(outputRate), UInt32(channels), &error, &io, &quality, nil)
    guard let created, error == nil else {
      if let created { soxr_delete(created) }
      throw Refusal(description: error.map { String(cString: $0) } ?? "libsoxr did not start")
    }
    soxr = created
    self.inputRate = inputRate
    self.outputRate = outputRate
    self.channels = channels
  }

  deinit { soxr_delete(soxr) }

  /// Resamples `input` (whole interleaved frames) and appends what comes out to `output`;
  /// the filter holds back a little, which later input or ``finish(into:)`` brings out.
  public func process(_ input: UnsafeBufferPointer<Int16>, into output: inout [Int16]) {
    run(input.baseAddress, frames: input.count / channels, into: &output)
  }

  /// Ends the stream: appends everything the filter still holds to `output`.
  public func finish(into output: inout [Int16]) {
    run(nil, frames: 0, into: &output)
  }

  /// Forgets the stream so far (a seek): the next input starts a new one.
  public func reset() {
    soxr_clear(soxr)
  }

  private func run(_ input: UnsafePointer<Int16>?, frames: Int, into output: inout [Int16]) {
    var offset = 0
    // Room for this input's share and the filter's delay; a full buffer is run again.
    let room = frames * outputRate / inputRate + 1024
    var chunk = [Int16](repeating: 0, count: room * channels)
    while true {
      var used = 0
      var made = 0
      let source = input.map { $0 + offset * channels }
      _ = chunk.withUnsafeMutableBufferPointer { out in
        soxr_process(
          soxr, source, frames - offset, &used, out.baseAddress, room, &made)
      }
      output.append(contentsOf: chunk[0..<(made * channels)])
      offset += used
      // Done when the input is taken and the output was not filled (more would follow).
      if offset >= frames, made < room { return }
    }
  }
}
