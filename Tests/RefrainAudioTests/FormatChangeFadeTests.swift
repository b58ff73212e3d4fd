import RefrainCore
import XCTest

@testable import RefrainAudio

/// The fades either side of an output reopened at a new format: no sample jumps from silence
/// to full scale, and no audio beyond the fade is touched.
final class FormatChangeFadeTests: XCTestCase {
  /// `frames` stereo frames of a constant 16-bit value.
  private func constant(_ value: Int16, frames: Int) -> [UInt8] {
    var samples = [Int16](repeating: value, count: frames * 2)
    return samples.withUnsafeMutableBytes { Array($0) }
  }

  private func samples(_ bytes: [UInt8]) -> [Int16] {
    bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
  }

  func testAFadeInRisesFromSilenceOverFiveMillisecondsAndLeavesTheRestAlone() {
    let format = PCMFormat(sampleRate: 48_000, channels: 2)
    var bytes = constant(20_000, frames: 1_000)
    EdgeFade.apply(&bytes, format: format, fadingIn: true)
    let left = stride(from: 0, to: 2_000, by: 2).map { samples(bytes)[$0] }
    XCTAssertEqual(left[0], 0)
    // 5 ms at 48 kHz: 240 frames, rising and never falling, the same on both channels.
    for frame in 1..<240 {
      XCTAssertGreaterThanOrEqual(left[frame], left[frame - 1])
      XCTAssertLessThan(Int(left[frame]) - Int(left[frame - 1]), 20_000 / 60)
    }
    XCTAssertEqual(samples(bytes)[2 * 120], samples(bytes)[2 * 120 + 1])
    XCTAssertEqual(Double(left[120]), 10_000, accuracy: 150)
    XCTAssertEqual(Array(left[240...]), [Int16](repeating: 20_000, count: 760))
  }

  func testAFadeOutEndsInSilence() {
    let format = PCMFormat(sampleRate: 44_100, channels: 2)
    var bytes = constant(-20_000, frames: 220)
    EdgeFade.apply(&bytes, format: format, fadingIn: false)
    let values = samples(bytes)
    XCTAssertEqual(Double(values[0]), -20_000, accuracy: 2)
    XCTAssertEqual(Double(values[values.count - 1]), 0, accuracy: 2)
    for index in stride(from: 2, to: values.count, by: 2) {
      XCTAssertGreaterThanOrEqual(values[index], values[index - 2])
    }
  }
}
