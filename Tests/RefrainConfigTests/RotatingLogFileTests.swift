import Dispatch
import Foundation
import XCTest

@testable import RefrainConfig

/// The log file: size cap, rotation, concurrent writers.
final class RotatingLogFileTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-log-\(UUID().uuidString)", isDirectory: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private var logURL: URL { directory.appendingPathComponent("state/refrain/refrain.log") }

  private func contents(_ url: URL) -> String? {
    try? String(contentsOf: url, encoding: .utf8)
  }

  private func size(_ url: URL) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? -1
  }

  // MARK: - Writing

  func testLinesAreAppendedAndTheFolderIsCreatedPrivate() throws {
    let file = RotatingLogFile(url: logURL, maxBytes: 1024, keep: 3)
    file.write("one")
    file.write("two")
    XCTAssertEqual(contents(logURL), "one\ntwo\n")
    let attributes = try FileManager.default.attributesOfItem(atPath: logURL.path)
    XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
  }

  func testAnUnwritablePlaceDropsLinesQuietly() {
    let file = RotatingLogFile(url: URL(fileURLWithPath: "/proc/refrain/refrain.log"))
    file.write("nowhere")
  }

  // MARK: - Size cap and rotation

  func testTheFileRotatesBeforeItWouldPassTheCap() {
    let file = RotatingLogFile(url: logURL, maxBytes: 100, keep: 3)
    let line = String(repeating: "a", count: 29)  // 30 bytes with the newline
    for _ in 0..<3 { file.write(line) }
    XCTAssertEqual(size(logURL), 90)
    file.write(String(repeating: "b", count: 10))  // 11 bytes: 101 would pass the cap
    XCTAssertEqual(contents(logURL), "bbbbbbbbbb\n")
    XCTAssertEqual(size(file.rotatedURL(1)), 90)
  }

  func testOnlyKeepFilesAreKeptAndNoneExceedsTheCap() {
    let file = RotatingLogFile(url: logURL, maxBytes: 100, keep: 3)
    for index in 0..<50 { file.write("line \(index) " + String(repeating: "x", count: 20)) }
    for url in [logURL, file.rotatedURL(1), file.rotatedURL(2), file.rotatedURL(3)] {
      XCTAssertGreaterThan(size(url), 0, url.lastPathComponent)
      XCTAssertLessThanOrEqual(size(url), 100, url.lastPathComponent)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: file.rotatedURL(4).path))
    XCTAssertTrue(contents(logURL)?.contains("line 49 ") ?? false, "the newest is current")
    XCTAssertTrue(contents(file.rotatedURL(1))?.hasSuffix("xx\n") ?? false)
  }

  func testALineLongerThanTheCapIsCutToFit() {
    let file = RotatingLogFile(url: logURL, maxBytes: 64, keep: 1)
    file.write("start")
    file.write(String(repeating: "가", count: 100))
    XCTAssertEqual(size(logURL), 64, "21 whole three-byte characters and a newline")
    XCTAssertEqual(contents(logURL), String(repeating: "가", count: 21) + "\n")
    XCTAssertEqual(contents(file.rotatedURL(1)), "start\n")
  }

  func testKeepingNoFilesTruncates() {
    let file = RotatingLogFile(url: logURL, maxBytes: 64, keep: 0)
    for index in 0..<10 { file.write("entry \(index) " + String(repeating: "z", count: 20)) }
    XCTAssertLessThanOrEqual(size(logURL), 64)
    XCTAssertFalse(FileManager.default.fileExists(atPath: file.rotatedURL(1).path))
  }

  func testAFileRemovedUnderneathIsCreatedAgain() throws {
    let file = RotatingLogFile(url: logURL, maxBytes: 1024, keep: 1)
    file.write("before")
    try FileManager.default.removeItem(at: logURL)
    file.write("after")
    XCTAssertEqual(contents(logURL), "after\n")
  }

  func testAnotherWriterRotatingTheFileIsFollowed() {
    let first = RotatingLogFile(url: logURL, maxBytes: 60, keep: 2)
    let second = RotatingLogFile(url: logURL, maxBytes: 60, keep: 2)
    first.write(String(repeating: "1", count: 39))
    second.write(String(repeating: "2", count: 39))  // rotates
    first.write("3")
    XCTAssertEqual(contents(logURL), String(repeating: "2", count: 39) + "\n3\n")
  }

  // MARK: - Concurrency

  func testConcurrentWritersNeitherLoseNorTearLines() {
    let file = RotatingLogFile(url: logURL, maxBytes: 1 << 20, keep: 3)
    let writers = 8
    let perWriter = 500
    DispatchQueue.concurrentPerform(iterations: writers) { writer in
      for index in 0..<perWriter {
        file.write("writer=\(writer) index=\(index) " + String(repeating: "w", count: 40))
      }
    }
    let lines = contents(logURL)?.split(separator: "\n") ?? []
    XCTAssertEqual(lines.count, writers * perWriter)
    XCTAssertTrue(lines.allSatisfy { $0.hasSuffix(String(repeating: "w", count: 40)) })
    XCTAssertEqual(Set(lines).count, writers * perWriter)
  }

  func testConcurrentWritersWithRotationKeepEveryFileUnderTheCap() {
    let file = RotatingLogFile(url: logURL, maxBytes: 4096, keep: 3)
    DispatchQueue.concurrentPerform(iterations: 8) { writer in
      for index in 0..<400 {
        file.write("w\(writer) i\(index) " + String(repeating: "r", count: 50))
      }
    }
    for url in [logURL, file.rotatedURL(1), file.rotatedURL(2), file.rotatedURL(3)] {
      XCTAssertLessThanOrEqual(size(url), 4096)
      let lines = contents(url)?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
      XCTAssertEqual(lines.last, "", "ends with a whole line")
      XCTAssertTrue(lines.dropLast().allSatisfy { $0.hasSuffix(String(repeating: "r", count: 50)) })
    }
  }
}
