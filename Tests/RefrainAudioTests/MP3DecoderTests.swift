import Foundation
import XCTest

@testable import RefrainAudio

/// The mpg123 decoder on generated fixtures: formats, exact durations, seeking, tags, bad files.
final class MP3DecoderTests: XCTestCase {
  /// Decodes everything and returns the number of frames.
  private func decodeAll(_ decoder: MP3Decoder) throws -> Int {
    var buffer = [UInt8](repeating: 0, count: 8_192)
    var frames = 0
    while true {
      let count = try buffer.withUnsafeMutableBytes { try decoder.read(into: $0) }
      if count == 0 { break }
      frames += count / decoder.format.bytesPerFrame
    }
    return frames
  }

  /// The dominant frequency of `seconds` of audio from the decoder's current position.
  private func dominantFrequency(_ decoder: MP3Decoder, seconds: Double = 0.2) throws -> Double {
    let frames = Int(seconds * Double(decoder.format.sampleRate))
    var samples: [Double] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while samples.count < frames {
      let count = try buffer.withUnsafeMutableBytes { try decoder.read(into: $0) }
      guard count > 0 else { break }
      buffer.withUnsafeBytes { raw in
        let pcm = raw.bindMemory(to: Int16.self)
        for index in stride(from: 0, to: count / 2, by: decoder.format.channels) {
          samples.append(Double(pcm[index]))
        }
      }
    }
    // Zero crossings give the frequency of a pure tone well enough.
    var crossings = 0
    for index in 1..<samples.count where (samples[index - 1] < 0) != (samples[index] < 0) {
      crossings += 1
    }
    return Double(crossings) / 2 / (Double(samples.count) / Double(decoder.format.sampleRate))
  }

  // MARK: - Formats and durations

  func testCBRFileHasExactDurationAndStereoFormat() throws {
    let decoder = try MP3Decoder(path: Fixtures.path("cbr.mp3"))
    XCTAssertEqual(decoder.format, PCMFormat(sampleRate: 44_100, channels: 2))
    XCTAssertEqual(try XCTUnwrap(decoder.duration), 30, accuracy: 0.03)
    XCTAssertEqual(Double(try decodeAll(decoder)) / 44_100, 30, accuracy: 0.03)
  }

  func testVBRWithoutXingHeaderReportsTheScannedLength() throws {
    let decoder = try MP3Decoder(path: Fixtures.path("vbr-noxing.mp3"))
    XCTAssertEqual(try XCTUnwrap(decoder.duration), 30, accuracy: 0.05)
  }

  func testMonoMPEG2IsDecodedAsStereoAtItsOwnRate() throws {
    let decoder = try MP3Decoder(path: Fixtures.path("mono22k.mp3"))
    XCTAssertEqual(decoder.format, PCMFormat(sampleRate: 22_050, channels: 2))
    XCTAssertEqual(try XCTUnwrap(decoder.duration), 5, accuracy: 0.06)
    let sixteen = try MP3Decoder(path: Fixtures.path("mpeg2-16k.mp3"))
    XCTAssertEqual(sixteen.format.sampleRate, 16_000)
    XCTAssertEqual(try XCTUnwrap(sixteen.duration), 3, accuracy: 0.08)
  }

  // MARK: - Seeking

  func testSeekIsSampleExactAndLandsOnTheRightTone() throws {
    let decoder = try MP3Decoder(path: Fixtures.path("steps.mp3"))
    let reached = try decoder.seek(to: 12.25)
    XCTAssertEqual(reached, 12.25, accuracy: 1.0 / 44_100)
    XCTAssertEqual(try dominantFrequency(decoder), 300 + 50 * 12, accuracy: 15)
    try decoder.seek(to: 3.3)
    XCTAssertEqual(try dominantFrequency(decoder), 300 + 50 * 3, accuracy: 15)
  }

  func testSeekInVBRFileLandsOnTheRightTone() throws {
    let decoder = try MP3Decoder(path: Fixtures.path("vbr-noxing.mp3"))
    try decoder.seek(to: 20.2)
    XCTAssertEqual(try dominantFrequency(decoder), 300 + 50 * 20, accuracy: 15)
  }

  // MARK: - Bad input

  func testMissingFileNamesThePath() {
    XCTAssertThrowsError(try MP3Decoder(path: "/nowhere/song.mp3")) { error in
      XCTAssertEqual(
        error as? AudioError, .fileNotReadable(path: "/nowhere/song.mp3", reason: "no such file"))
    }
  }

  func testEmptyFileIsReported() throws {
    let path = try Fixtures.path("empty.mp3")
    XCTAssertThrowsError(try MP3Decoder(path: path)) { error in
      XCTAssertEqual(error as? AudioError, .emptyFile(path: path))
    }
  }

  func testNonMP3FileIsReported() throws {
    let path = try Fixtures.path("notmp3.mp3")
    XCTAssertThrowsError(try MP3Decoder(path: path)) { error in
      guard case .notMP3(let name, _) = error as? AudioError else {
        return XCTFail("expected notMP3, got \(error)")
      }
      XCTAssertEqual(name, path)
    }
  }

  func testTruncatedFileDecodesWhatIsThere() throws {
    let decoder = try MP3Decoder(path: Fixtures.path("truncated.mp3"))
    let seconds = Double(try decodeAll(decoder)) / 44_100
    XCTAssertEqual(seconds, 6 * 0.4, accuracy: 0.3)
    XCTAssertTrue(decoder.isAtEnd)
  }

  func testBitFlippedFileStillDecodesToTheEnd() throws {
    let decoder = try MP3Decoder(path: Fixtures.path("bitflip.mp3"))
    let seconds = Double(try decodeAll(decoder)) / 44_100
    XCTAssertEqual(seconds, 6, accuracy: 0.5)
  }
}
