import Foundation
import XCTest

/// Locates the generated audio fixtures (`make fixtures` writes them).
enum Fixtures {
  /// The repository root, found from this file's path.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `Tests/Fixtures/generated`, generated on first use when missing.
  static let generated: URL = {
    let folder = root.appendingPathComponent("Tests/Fixtures/generated")
    if !FileManager.default.fileExists(atPath: folder.appendingPathComponent("steps.mp3").path) {
      let process = Process()
      process.executableURL = root.appendingPathComponent("scripts/make-test-fixtures")
      process.arguments = [folder.path]
      try? process.run()
      process.waitUntilExit()
    }
    return folder
  }()

  /// The path of a generated fixture; fails the test when it is missing.
  static func path(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws
    -> String
  {
    let path = generated.appendingPathComponent(name).path
    guard FileManager.default.fileExists(atPath: path) else {
      XCTFail("fixture \(name) is missing: run `make fixtures`", file: file, line: line)
      throw CocoaError(.fileNoSuchFile)
    }
    return path
  }
}

extension XCTestCase {
  /// Polls `condition` every 5 ms, failing the test after `timeout` seconds.
  func waitUntil(
    _ what: String, timeout: Double = 5, file: StaticString = #filePath, line: UInt = #line,
    _ condition: () -> Bool
  ) {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
      if Date() > deadline {
        return XCTFail("timed out waiting for \(what)", file: file, line: line)
      }
      Thread.sleep(forTimeInterval: 0.005)
    }
  }
}
