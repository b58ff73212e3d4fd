import Foundation

/// The edges of an output reopened at another format (when no resampler can bridge two
/// tracks): the old track's last moments faded out, silence, and the new one faded in.
enum EdgeFade {
  /// Seconds faded out and in either side of a reopened output: a tone cut mid-wave is a
  /// click.
  static let length = 0.005
  /// Seconds of silence written after the fade-out and before the fade-in: PulseAudio may
  /// cut the edges of a stream (up to about 15 ms of a new stream's start, seen on its null
  /// sink), and then it cuts silence.
  static let padOut = 0.020
  static let padIn = 0.030

  /// Frames in `seconds` of `format`.
  static func frames(_ seconds: Double, _ format: PCMFormat) -> Int {
    Int((seconds * Double(format.sampleRate)).rounded())
  }

  /// Ramps 16-bit `bytes` on a half cosine: up from silence over their first ``length``
  /// when `fadingIn`, else down to silence over all of them.
  static func apply(_ bytes: inout [UInt8], format: PCMFormat, fadingIn: Bool) {
    let frames = bytes.count / format.bytesPerFrame
    let span = fadingIn ? min(frames, Self.frames(length, format)) : frames
    guard span > 0 else { return }
    bytes.withUnsafeMutableBytes { raw in
      let samples = raw.bindMemory(to: Int16.self)
      for frame in 0..<span {
        let step = fadingIn ? frame : span - 1 - frame
        let gain = Float(0.5 - 0.5 * cos(Double.pi * Double(step) / Double(span)))
        let offset = fadingIn ? frame : frames - span + frame
        for channel in 0..<format.channels {
          let index = offset * format.channels + channel
          samples[index] = Int16((Float(samples[index]) * gain).rounded())
        }
      }
    }
  }
}
