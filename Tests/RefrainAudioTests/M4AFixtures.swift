import Foundation
import XCTest

/// Locates the M4A fixtures, which `scripts/make-m4a-fixtures` writes into
/// `Tests/Fixtures/generated` with ffmpeg (`make fixtures` runs it too).
enum M4AFixtures {
  /// Runs the script once per test run when a fixture is missing.
  private static let generated: Bool = {
    let process = Process()
    process.executableURL = Fixtures.root.appendingPathComponent("scripts/make-m4a-fixtures")
    process.arguments = [Fixtures.generated.path]
    process.standardOutput = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }()

  /// The path of an M4A fixture, generating the fixtures first when it is missing; fails the
  /// test when it cannot be made (ffmpeg missing: `scripts/install-deps test`).
  static func path(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws
    -> String
  {
    let path = Fixtures.generated.appendingPathComponent(name).path
    if !FileManager.default.fileExists(atPath: path) { _ = generated }
    return try Fixtures.path(name, file: file, line: line)
  }
}
