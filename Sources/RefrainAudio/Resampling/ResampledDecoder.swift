/// A track played at another format than its own: its decoder's PCM remixed to the format's
/// channels and resampled to its rate (``Resampler``), so it follows a track of another rate
/// on an output that stays open.
///
/// Its reads, its end and its seeks are the inner decoder's; its ``format`` is the one asked
/// for; its position and duration stay those of the track.
final class ResampledDecoder: AudioDecoder {
  /// The track's own decoder.
  let inner: any AudioDecoder
  let format: PCMFormat
  private let resampler: Resampler?
  /// Converted samples not read yet, from `pendingStart`.
  private var pending: [Int16] = []
  private var pendingStart = 0
  /// Whether the resampler was told the track ended.
  private var finished = false
  private var scratch = [UInt8](repeating: 0, count: 4608)
  private var remixed: [Int16] = []

  /// `decoder` playing at `format`: the track's own decoder when it already plays at it,
  /// else one that converts (a decoder converting already is unwrapped first). A conversion
  /// libsoxr refuses leaves the track at its own format.
  static func playing(_ decoder: any AudioDecoder, at format: PCMFormat) -> any AudioDecoder {
    let own = native(decoder)
    guard own.format != format else { return own }
    return (try? ResampledDecoder(own, to: format)) ?? own
  }

  /// The track's own decoder behind any conversion.
  static func native(_ decoder: any AudioDecoder) -> any AudioDecoder {
    (decoder as? ResampledDecoder)?.inner ?? decoder
  }

  /// Converts `inner`'s PCM to `format`.
  init(_ inner: any AudioDecoder, to format: PCMFormat) throws {
    self.inner = inner
    self.format = format
    resampler =
      inner.format.sampleRate == format.sampleRate
      ? nil
      : try Resampler(
        from: inner.format.sampleRate, to: format.sampleRate, channels: format.channels)
  }

  var name: String { inner.name }
  var duration: Double? { inner.duration }
  var position: Double { inner.position }

  var gaplessTrim: (start: Int, end: Int) {
    let trim = inner.gaplessTrim
    let scale = Double(format.sampleRate) / Double(inner.format.sampleRate)
    return (Int((Double(trim.start) * scale).rounded()), Int((Double(trim.end) * scale).rounded()))
  }

  var isAtEnd: Bool { finished && pendingStart >= pending.count }

  func read(into buffer: UnsafeMutableRawBufferPointer, shouldStop: () -> Bool) throws -> Int {
    let channels = format.channels
    while pending.count - pendingStart < channels {
      pending.removeAll(keepingCapacity: true)
      pendingStart = 0
      if finished { return 0 }
      let count = try scratch.withUnsafeMutableBytes {
        try inner.read(into: $0, shouldStop: shouldStop)
      }
      if count > 0 {
        convert(count)
      } else if inner.isAtEnd {
        resampler?.finish(into: &pending)
        finished = true
      } else {
        return 0  // a stream short of data: the player comes back
      }
    }
    let frames = min(buffer.count / format.bytesPerFrame, (pending.count - pendingStart) / channels)
    let samples = frames * channels
    pending.withUnsafeBytes { source in
      buffer.copyMemory(
        from: UnsafeRawBufferPointer(
          rebasing: source[(pendingStart * 2)..<((pendingStart + samples) * 2)]))
    }
    pendingStart += samples
    return samples * 2
  }

  /// Remixes `count` bytes of ``scratch`` to the format's channels and resamples them.
  private func convert(_ count: Int) {
    let from = inner.format.channels
    let to = format.channels
    let frames = count / inner.format.bytesPerFrame
    scratch.withUnsafeBytes { raw in
      let source = raw.bindMemory(to: Int16.self)
      remixed.removeAll(keepingCapacity: true)
      for frame in 0..<frames {
        let base = frame * from
        for channel in 0..<to {
          if to == 1, from > 1 {
            // Down to mono: the mean of every channel.
            var sum = 0
            for index in 0..<from { sum += Int(source[base + index]) }
            remixed.append(Int16(sum / from))
          } else {
            // Mono to all, or the first channels kept (the last one repeated).
            remixed.append(source[base + min(channel, from - 1)])
          }
        }
      }
    }
    guard let resampler else {
      pending.append(contentsOf: remixed)
      return
    }
    remixed.withUnsafeBufferPointer { resampler.process($0, into: &pending) }
  }

  @discardableResult
  func seek(to seconds: Double) throws -> Double {
    let reached = try inner.seek(to: seconds)
    resampler?.reset()
    pending.removeAll(keepingCapacity: true)
    pendingStart = 0
    finished = false
    return reached
  }

  func close() {
    inner.close()
    pending.removeAll()
    pendingStart = 0
    finished = true
  }
}
