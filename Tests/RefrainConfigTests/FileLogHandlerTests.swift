import Foundation
import Logging
import XCTest

@testable import RefrainConfig

/// The swift-log handler: one plain, redacted line per entry.
final class FileLogHandlerTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-handler-\(UUID().uuidString)", isDirectory: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  /// The clock's time in every test: 2026-11-21T22:30:00.123Z.
  private static let fixedDate = Date(timeIntervalSince1970: 1_795_300_200.123)

  private func logger(level: Logger.Level = .info) -> (Logger, URL) {
    let url = directory.appendingPathComponent("refrain.log")
    let file = RotatingLogFile(url: url)
    let logger = Logger(label: "refrain.audio") { label in
      FileLogHandler(label: label, file: file, level: level, now: { Self.fixedDate })
    }
    return (logger, url)
  }

  private func lines(_ url: URL) -> [String] {
    ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
  }

  // MARK: - Format

  func testTheLineFormat() {
    var (logger, url) = logger()
    logger[metadataKey: "player"] = "7"
    logger.info("opened output", metadata: ["sink": "default", "rate": "44100"])
    XCTAssertEqual(
      lines(url),
      [
        "2026-11-21T22:30:00.123Z info [refrain.audio] opened output player=7 rate=44100 sink=default"
      ])
  }

  func testTimestampsAreUTCWithMilliseconds() {
    XCTAssertEqual(
      LogLineFormat.timestamp(Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00.000Z")
    XCTAssertEqual(LogLineFormat.timestamp(Self.fixedDate), "2026-11-21T22:30:00.123Z")
    XCTAssertEqual(
      LogLineFormat.timestamp(Date(timeIntervalSince1970: 951_782_399.9996)),
      "2000-02-28T23:59:59.999Z")
  }

  func testEntriesStayOnOneLine() {
    let (logger, url) = logger()
    logger.warning("first\nsecond\u{1B}[2J", metadata: ["title": "a \"b\"\nc"])
    XCTAssertEqual(
      lines(url),
      [
        #"2026-11-21T22:30:00.123Z warning [refrain.audio] first\nsecond\u{1b}[2J title="a \"b\"\nc""#
      ])
  }

  func testEveryLineIsRedacted() {
    let (logger, url) = logger()
    logger.error(
      "stream failed: https://cdn.example.invalid/p.mp3?hdnea=exp=1~hmac=ff",
      metadata: ["header": "Bearer abcdef123"])
    XCTAssertEqual(
      lines(url),
      [
        "2026-11-21T22:30:00.123Z error [refrain.audio] stream failed: "
          + "https://cdn.example.invalid/p.mp3?<redacted> header=\"Bearer <redacted>\""
      ])
  }

  func testTheLevelFilters() {
    let (logger, url) = logger(level: .notice)
    logger.info("hidden")
    logger.debug("hidden")
    logger.notice("shown")
    XCTAssertEqual(lines(url).count, 1)
  }

  func testMetadataProvidersAndErrorsAreIncluded() {
    struct Failure: Error, CustomStringConvertible {
      var description: String { "disk full" }
    }
    let url = directory.appendingPathComponent("refrain.log")
    let file = RotatingLogFile(url: url)
    let provider = Logger.MetadataProvider { ["track": "42"] }
    let logger = Logger(label: "refrain") { label in
      FileLogHandler(label: label, file: file, metadataProvider: provider, now: { Self.fixedDate })
    }
    logger.error("cache write failed", error: Failure())
    XCTAssertEqual(
      lines(url),
      ["2026-11-21T22:30:00.123Z error [refrain] cache write failed error=\"disk full\" track=42"])
  }

  // MARK: - Bootstrap

  func testTheBootstrapGuardRunsOnce() {
    let state = RefrainLogging.BootstrapState()
    var runs = 0
    let first = state.once {
      runs += 1
      return URL(fileURLWithPath: "/a")
    }
    let second = state.once {
      runs += 1
      return URL(fileURLWithPath: "/b")
    }
    XCTAssertEqual(runs, 1)
    XCTAssertEqual(first, second)
  }
}
