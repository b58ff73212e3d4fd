import Foundation
import XCTest

/// Locates the M4A fixtures in `Tests/Fixtures/generated`, running
/// `scripts/make-m4a-fixtures` (ffmpeg) first when one is missing.
enum M4AFixtures {
  /// The repository root, found from this file's path.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `Tests/Fixtures/generated`.
  static let folder = root.appendingPathComponent("Tests/Fixtures/generated")

  /// Runs the script once per test run when a fixture is missing.
  private static let generated: Bool = {
    let process = Process()
    process.executableURL = root.appendingPathComponent("scripts/make-m4a-fixtures")
    process.arguments = [folder.path]
    process.standardOutput = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }()

  /// The URL of an M4A fixture; fails the test when it cannot be made (ffmpeg missing:
  /// `scripts/install-deps test`).
  static func url(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws
    -> URL
  {
    let url = folder.appendingPathComponent(name)
    if !FileManager.default.fileExists(atPath: url.path) { _ = generated }
    guard FileManager.default.fileExists(atPath: url.path) else {
      XCTFail("fixture \(name) is missing: run scripts/make-m4a-fixtures", file: file, line: line)
      throw CocoaError(.fileNoSuchFile)
    }
    return url
  }
}
