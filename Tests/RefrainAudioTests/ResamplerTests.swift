import Foundation
import XCTest

@testable import RefrainAudio

/// libsoxr behind ``Resampler`` and ``ResampledDecoder``: a track keeps its length and its
/// pitch at another rate.
final class ResamplerTests: XCTestCase {
  /// `seconds` of a `frequency` sine at half scale, interleaved on `channels` channels.
  private func sine(_ frequency: Double, seconds: Double, rate: Int, channels: Int = 2) -> [Int16] {
    let frames = Int(seconds * Double(rate))
    var samples = [Int16]()
    samples.reserveCapacity(frames * channels)
    for frame in 0..<frames {
      let value = Int16(16_384 * sin(2 * Double.pi * frequency * Double(frame) / Double(rate)))
      for _ in 0..<channels { samples.append(value) }
    }
    return samples
  }

  /// The frequency of a sine, from its zero crossings (upward) on channel 0.
  private func frequency(_ samples: [Int16], rate: Int, channels: Int = 2) -> Double {
    var crossings: [Int] = []
    var previous = samples[0]
    for frame in 1..<(samples.count / channels) {
      let value = samples[frame * channels]
      if previous < 0, value >= 0 { crossings.append(frame) }
      previous = value
    }
    guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else {
      return 0
    }
    return Double(crossings.count - 1) * Double(rate) / Double(last - first)
  }

  private func resample(_ input: [Int16], from: Int, to: Int, chunk: Int) throws -> [Int16] {
    let resampler = try Resampler(from: from, to: to, channels: 2)
    var output: [Int16] = []
    var offset = 0
    while offset < input.count {
      let end = min(input.count, offset + chunk * 2)
      input[offset..<end].withUnsafeBufferPointer { resampler.process($0, into: &output) }
      offset = end
    }
    resampler.finish(into: &output)
    return output
  }

  func testAStreamKeepsItsLengthAtTheNewRate() throws {
    for (from, to) in [(48_000, 44_100), (44_100, 48_000), (8_000, 96_000), (96_000, 22_050)] {
      let input = sine(440, seconds: 1.5, rate: from)
      // In pieces of odd sizes, as decoders hand them over.
      let output = try resample(input, from: from, to: to, chunk: 1_151)
      let expected = Double(input.count / 2) * Double(to) / Double(from)
      XCTAssertEqual(Double(output.count / 2), expected, accuracy: 1, "\(from) → \(to)")
    }
  }

  func testASineKeepsItsFrequency() throws {
    let output = try resample(
      sine(1_000, seconds: 1, rate: 48_000), from: 48_000, to: 44_100, chunk: 4_096)
    XCTAssertEqual(frequency(output, rate: 44_100), 1_000, accuracy: 1)
    let up = try resample(
      sine(440, seconds: 1, rate: 44_100), from: 44_100, to: 48_000, chunk: 1_152)
    XCTAssertEqual(frequency(up, rate: 48_000), 440, accuracy: 1)
  }

  func testTheStartIsNotDelayed() throws {
    // A step at frame 4,800 of 48 kHz lands at frame 4,410 of 44.1 kHz, not later.
    var input = [Int16](repeating: 0, count: 9_600 * 2)
    for index in (4_800 * 2)..<input.count { input[index] = 10_000 }
    let output = try resample(input, from: 48_000, to: 44_100, chunk: 1_000)
    let rise = stride(from: 0, to: output.count, by: 2).first { output[$0] > 5_000 }.map { $0 / 2 }
    XCTAssertEqual(Double(rise ?? 0), 4_410, accuracy: 2)
  }

  func testDigitalSilenceStaysSilent() throws {
    let output = try resample(
      [Int16](repeating: 0, count: 48_000), from: 48_000, to: 44_100, chunk: 999)
    XCTAssertTrue(output.allSatisfy { $0 == 0 })
  }

  func testAnImpossibleRateIsRefused() {
    XCTAssertThrowsError(try Resampler(from: 1, to: 44_100, channels: 2))
    XCTAssertThrowsError(try Resampler(from: 44_100, to: 1 << 30, channels: 2))
  }

  func testAResampledDecoderPlaysTheWholeTrackAtTheOtherRateAndSeeks() throws {
    let inner = PCMDecoder(
      sine(440, seconds: 2, rate: 48_000, channels: 1), rate: 48_000, channels: 1)
    let decoder = ResampledDecoder.playing(inner, at: PCMFormat(sampleRate: 44_100, channels: 2))
    XCTAssertEqual(decoder.format, PCMFormat(sampleRate: 44_100, channels: 2))
    XCTAssertTrue(ResampledDecoder.native(decoder) === inner)
    var pcm = try readAll(decoder)
    XCTAssertEqual(Double(pcm.count / 2), 88_200, accuracy: 1)
    XCTAssertEqual(frequency(pcm, rate: 44_100), 440, accuracy: 1)
    XCTAssertTrue(decoder.isAtEnd)
    XCTAssertEqual(try decoder.seek(to: 1.5), 1.5, accuracy: 0.001)
    pcm = try readAll(decoder)
    XCTAssertEqual(Double(pcm.count / 2), 22_050, accuracy: 1)
    // Already at the format: the track's own decoder, unwrapped.
    XCTAssertTrue(ResampledDecoder.playing(decoder, at: inner.format) === inner)
  }

  private func readAll(_ decoder: any AudioDecoder) throws -> [Int16] {
    var out: [Int16] = []
    var chunk = [UInt8](repeating: 0, count: 4_608)
    while true {
      let count = try chunk.withUnsafeMutableBytes {
        try decoder.read(into: $0, shouldStop: { false })
      }
      if count == 0 { break }
      chunk[0..<count].withUnsafeBytes { out.append(contentsOf: $0.bindMemory(to: Int16.self)) }
    }
    return out
  }
}

/// Interleaved 16-bit PCM in memory, as a decoder (for the conversions' unit tests).
final class PCMDecoder: AudioDecoder {
  let name = "memory"
  let format: PCMFormat
  private let samples: [Int16]
  private var frame = 0
  init(_ samples: [Int16], rate: Int, channels: Int) {
    self.samples = samples
    format = PCMFormat(sampleRate: rate, channels: channels)
  }
  var frames: Int { samples.count / format.channels }
  var duration: Double? { Double(frames) / Double(format.sampleRate) }
  var gaplessTrim: (start: Int, end: Int) { (0, 0) }
  var isAtEnd: Bool { frame >= frames }
  var position: Double { Double(frame) / Double(format.sampleRate) }
  func read(into buffer: UnsafeMutableRawBufferPointer, shouldStop: () -> Bool) throws -> Int {
    let count = min(buffer.count / format.bytesPerFrame, frames - frame)
    let start = frame * format.channels
    samples[start..<(start + count * format.channels)].withUnsafeBytes {
      buffer.copyMemory(from: $0)
    }
    frame += count
    return count * format.bytesPerFrame
  }
  func seek(to seconds: Double) throws -> Double {
    frame = min(frames, Int((seconds * Double(format.sampleRate)).rounded()))
    return position
  }
  func close() {}
}
