import CEBUR128
import Foundation
import RefrainCore

/// Measures ReplayGain 2 values with libebur128: integrated loudness against −18 LUFS, and
/// the sample peak, for tracks and for the albums they make up.
///
/// Each track is decoded once, as the player would play it (gapless trims applied). The
/// files are only read.
public enum LoudnessMeter {
  /// ReplayGain 2's reference loudness, in LUFS.
  public static let referenceLUFS = -18.0

  /// One track's measurement; its libebur128 state is kept for the album's loudness.
  public final class Measurement: @unchecked Sendable {
    /// The track's gain (dB to the reference) and peak.
    public let gain: ReplayGain
    fileprivate var state: UnsafeMutablePointer<ebur128_state>?

    fileprivate init(gain: ReplayGain, state: UnsafeMutablePointer<ebur128_state>?) {
      self.gain = gain
      self.state = state
    }

    deinit {
      if state != nil { ebur128_destroy(&state) }
    }
  }

  /// Decodes the file at `path` and measures it; throws the decoder's error for a file that
  /// cannot be decoded, or a measurement error for silence shorter than one 400 ms block.
  public static func measure(path: String) throws -> Measurement {
    let decoder = try AudioDecoders.open(path: path)
    defer { decoder.close() }
    let format = decoder.format
    guard
      let created = ebur128_init(
        UInt32(format.channels), UInt(format.sampleRate),
        Int32(
          EBUR128_MODE_I.rawValue | EBUR128_MODE_SAMPLE_PEAK.rawValue
            | EBUR128_MODE_HISTOGRAM.rawValue))
    else { throw AudioError.notPlayable(name: path, format: "audio", detail: "out of memory") }
    var state: UnsafeMutablePointer<ebur128_state>? = created
    var keep = false
    defer { if !keep { ebur128_destroy(&state) } }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = try buffer.withUnsafeMutableBytes { try decoder.read(into: $0) { false } }
      if count == 0 {
        if decoder.isAtEnd { break }
        continue
      }
      let frames = count / format.bytesPerFrame
      let status = buffer.withUnsafeBytes { raw in
        ebur128_add_frames_short(state, raw.bindMemory(to: Int16.self).baseAddress, frames)
      }
      guard status == Int32(EBUR128_SUCCESS.rawValue) else {
        throw AudioError.notPlayable(
          name: path, format: "audio", detail: "loudness measurement failed (\(status))")
      }
    }
    var loudness = 0.0
    guard ebur128_loudness_global(state, &loudness) == Int32(EBUR128_SUCCESS.rawValue),
      loudness.isFinite
    else {
      throw AudioError.notPlayable(
        name: path, format: "audio", detail: "too short or silent to measure its loudness")
    }
    var peak = 0.0
    for channel in 0..<format.channels {
      var value = 0.0
      if ebur128_sample_peak(state, UInt32(channel), &value) == Int32(EBUR128_SUCCESS.rawValue) {
        peak = max(peak, value)
      }
    }
    keep = true
    return Measurement(
      gain: ReplayGain(trackGain: referenceLUFS - loudness, trackPeak: peak), state: state)
  }

  /// The album gain and peak of `tracks` measured together (loudness over all their
  /// blocks, the highest peak); `nil` when libebur128 cannot combine them.
  public static func album(_ tracks: [Measurement]) -> (gain: Double, peak: Double)? {
    var states = tracks.map(\.state)
    guard !states.isEmpty, states.allSatisfy({ $0 != nil }) else { return nil }
    var loudness = 0.0
    let status = states.withUnsafeMutableBufferPointer { pointer in
      ebur128_loudness_global_multiple(pointer.baseAddress, pointer.count, &loudness)
    }
    guard status == Int32(EBUR128_SUCCESS.rawValue), loudness.isFinite else { return nil }
    let peak = tracks.compactMap(\.gain.trackPeak).max() ?? 0
    return (referenceLUFS - loudness, peak)
  }
}
