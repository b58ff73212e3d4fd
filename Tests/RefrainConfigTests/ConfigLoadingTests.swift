import Foundation
import XCTest

@testable import RefrainConfig

/// Finding and reading the file: XDG paths, missing and unreadable files.
final class ConfigLoadingTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-config-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private func write(_ data: Data, to name: String = "refrain/config.toml") throws -> URL {
    let url = directory.appendingPathComponent(name)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url)
    return url
  }

  // MARK: - Paths

  func testPathsFollowXDG() {
    XCTAssertEqual(
      ConfigPaths.configFile(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/ada"]).path,
      "/x/cfg/refrain/config.toml")
    XCTAssertEqual(
      ConfigPaths.configFile(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/ada"])
        .path,
      "/home/ada/.config/refrain/config.toml")
    XCTAssertEqual(
      RefrainLogging.logFile(environment: ["XDG_STATE_HOME": "/x/state"]).path,
      "/x/state/refrain/refrain.log")
    XCTAssertEqual(
      RefrainLogging.logFile(environment: ["XDG_STATE_HOME": "", "HOME": "/home/ada"]).path,
      "/home/ada/.local/state/refrain/refrain.log")
  }

  // MARK: - Loading

  func testLoadReadsTheXDGFile() throws {
    let url = try write(Data("[audio]\nbuffer_ms = 120\nvolume = 3\n".utf8))
    let result = RefrainConfiguration.load(environment: ["XDG_CONFIG_HOME": directory.path])
    XCTAssertTrue(result.fileExists)
    XCTAssertEqual(result.file.path, url.path)
    XCTAssertEqual(result.configuration.bufferMs, 120)
    XCTAssertEqual(
      result.problems.map(\.description),
      [
        "\(url.path):3: audio.volume: unknown key; Refrain ignores it"
      ])
  }

  func testAMissingFileGivesTheDefaultsQuietly() {
    let result = RefrainConfiguration.load(environment: ["XDG_CONFIG_HOME": directory.path])
    XCTAssertFalse(result.fileExists)
    XCTAssertEqual(result.problems, [])
    XCTAssertEqual(result.configuration, RefrainConfiguration())
  }

  func testAFolderInsteadOfAFileIsReported() throws {
    let url = directory.appendingPathComponent("refrain/config.toml", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    let result = RefrainConfiguration.load(from: url)
    XCTAssertEqual(result.problems.count, 1)
    XCTAssertTrue(result.problems[0].message.contains("is a folder"))
    XCTAssertEqual(result.configuration, RefrainConfiguration())
  }

  func testTextThatIsNotUTF8IsReportedWithItsLine() throws {
    let url = try write(Data("[audio]\nbuffer_ms = 30\n# caf".utf8) + Data([0xE9, 0x0A]))
    let result = RefrainConfiguration.load(from: url)
    XCTAssertEqual(result.problems.map(\.line), [3])
    XCTAssertTrue(result.problems[0].message.contains("not UTF-8"))
    XCTAssertEqual(result.configuration, RefrainConfiguration())
  }

  func testAHugeFileIsNotParsed() throws {
    let url = try write(Data(repeating: UInt8(ascii: "#"), count: ConfigReader.maxBytes + 1))
    let result = RefrainConfiguration.load(from: url)
    XCTAssertEqual(result.problems.count, 1)
    XCTAssertTrue(result.problems[0].message.contains("larger than 1 MiB"))
  }

  func testTildeUsesHome() throws {
    let url = try write(Data("[catalog]\nmusic_folders = [\"~/Music\"]\n".utf8))
    let result = RefrainConfiguration.load(from: url, environment: ["HOME": "/home/grace"])
    XCTAssertEqual(result.configuration.musicFolders, ["/home/grace/Music"])
  }
}
