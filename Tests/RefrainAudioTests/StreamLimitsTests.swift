import XCTest

@testable import RefrainAudio

/// The one range of sample rates, channels and bit depths every decoder and output checks.
final class StreamLimitsTests: XCTestCase {
  func testTheRangeIsEightThousandToSevenHundredSixtyEightThousandHertz() throws {
    for rate in [8_000, 44_100, 48_000, 192_000, 768_000] {
      XCTAssertNil(StreamLimits.problem(sampleRate: rate, channels: 2), "\(rate)")
    }
    for rate in [0, 1, 7_999, 768_001, 1 << 30] {
      let problem = try XCTUnwrap(StreamLimits.problem(sampleRate: rate, channels: 2))
      XCTAssertTrue(problem.contains("\(rate) Hz"), problem)
      XCTAssertTrue(problem.contains("8,000–768,000"), problem)
    }
  }

  func testNumbersOfAnyWidthAreCheckedBeforeTheyAreConverted() {
    // Values no Int32 holds, and negative ones: refused, never a trap.
    XCTAssertNotNil(StreamLimits.problem(sampleRate: UInt64.max, channels: 2))
    XCTAssertNotNil(StreamLimits.problem(sampleRate: -44_100, channels: 2))
    XCTAssertNotNil(StreamLimits.problem(sampleRate: 44_100, channels: UInt32.max))
    XCTAssertNotNil(StreamLimits.problem(sampleRate: 44_100, channels: 0))
    XCTAssertNotNil(StreamLimits.problem(sampleRate: 44_100, channels: 9))
    XCTAssertNotNil(StreamLimits.problem(sampleRate: 44_100, channels: 2, bits: 0))
    XCTAssertNotNil(StreamLimits.problem(sampleRate: 44_100, channels: 2, bits: 65))
    XCTAssertNil(
      StreamLimits.problem(sampleRate: UInt32(44_100), channels: Int32(2), bits: UInt32(24)))
  }

  func testADecodersFormatNamesTheFileAndTheNumber() {
    XCTAssertThrowsError(
      try StreamLimits.format(sampleRate: 1, channels: 2, name: "x.flac", formatName: "FLAC")
    ) { error in
      XCTAssertEqual(
        "\(error)",
        "x.flac is not playable FLAC audio (its sample rate of 1 Hz is outside the 8,000–768,000 Hz Refrain plays)"
      )
    }
    XCTAssertEqual(
      try StreamLimits.format(sampleRate: Int64(48_000), channels: 1, name: "", formatName: ""),
      PCMFormat(sampleRate: 48_000, channels: 1))
  }

  func testOutputsRefuseAnImpossibleFormatInsteadOfStalling() {
    let impossible = PCMFormat(sampleRate: 1, channels: 2)
    XCTAssertThrowsError(try NullOutput().open(impossible))
    XCTAssertThrowsError(try WavOutput(path: "/tmp/never-written.wav").open(impossible))
    XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/never-written.wav"))
  }

  func testTheWavHeaderNeverTraps() {
    let header = WavOutput.header(
      format: PCMFormat(sampleRate: 1 << 40, channels: 1 << 20), dataBytes: Int.max)
    XCTAssertEqual(header.count, 44)
  }
}
