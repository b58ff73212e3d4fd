import Foundation
import XCTest

@testable import RefrainConfig

/// `subsonic.transcode` and `subsonic.max_bitrate`: read when good, one line when bad.
final class SubsonicTranscodeConfigTests: XCTestCase {
  private func read(_ text: String) -> (
    configuration: RefrainConfiguration, problems: [ConfigProblem]
  ) {
    RefrainConfiguration.parse(text, file: "/cfg/config.toml", environment: ["HOME": "/h"])
  }

  func testTheStoredFileWithNoLimitByDefault() {
    let configuration = read("").configuration
    XCTAssertEqual(configuration.subsonicTranscode, .raw)
    XCTAssertEqual(configuration.subsonicMaxBitrate, 0)
  }

  func testEachFormatAndABitrateAreRead() {
    for format in ["raw", "opus", "mp3", "ogg", "OPUS"] {
      let result = read("[subsonic]\ntranscode = \"\(format)\"\nmax_bitrate = 96")
      XCTAssertEqual(result.problems, [], format)
      XCTAssertEqual(result.configuration.subsonicTranscode.rawValue, format.lowercased())
      XCTAssertEqual(result.configuration.subsonicMaxBitrate, 96)
    }
    XCTAssertEqual(read("[subsonic]\nmax_bitrate = 2000").configuration.subsonicMaxBitrate, 2000)
  }

  func testAnUnknownFormatIsOneLineAndKeepsTheStoredFile() {
    let result = read("[subsonic]\ntranscode = \"wma\"")
    XCTAssertEqual(result.configuration.subsonicTranscode, .raw)
    XCTAssertEqual(
      result.problems.map(\.description),
      [
        "/cfg/config.toml:2: subsonic.transcode: must be one of \"raw\", \"opus\", \"mp3\", "
          + "\"ogg\" (found \"wma\"); using the default, \"raw\""
      ])
  }

  func testABadBitrateIsOneLineAndKeepsNoLimit() {
    for (text, fragment) in [
      ("max_bitrate = -1", "must be from 0 to 2000 (found -1)"),
      ("max_bitrate = 5000", "must be from 0 to 2000 (found 5000)"),
      ("max_bitrate = \"128k\"", "must be a whole number from 0 to 2000 (found a string)"),
    ] {
      let result = read("[subsonic]\ntranscode = \"opus\"\n\(text)")
      XCTAssertEqual(result.configuration.subsonicTranscode, .opus, text)
      XCTAssertEqual(result.configuration.subsonicMaxBitrate, 0, text)
      XCTAssertEqual(
        result.problems.map(\.description),
        ["/cfg/config.toml:3: subsonic.max_bitrate: \(fragment); using the default, 0"], text)
    }
  }
}
