import Foundation

/// Test media made by the real tools (sox, flac, oggenc, opusenc, convert) in a folder of
/// this process's own, so no test depends on files left by another run.
public enum TestMedia {
  /// A new folder under the temporary directory, named for `purpose` and this process.
  public static func folder(_ purpose: String) -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-\(purpose)-\(getpid())", isDirectory: true)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// Runs `tool` with `arguments` and waits; a missing tool leaves its output missing, which
  /// the test then reports.
  public static func run(_ tool: String, _ arguments: [String]) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    // Tools read their arguments in the locale's charset; CI's environment is empty, whose
    // "C" locale would turn a Korean tag into `#`s.
    process.environment = ProcessInfo.processInfo.environment.merging(["LC_ALL": "C.UTF-8"]) {
      _, utf8 in utf8
    }
    process.standardError = FileHandle.nullDevice
    try? process.run()
    process.waitUntilExit()
  }
}

extension TestMedia {
  /// The path of `name` in `folder`; throws (the caller's test fails) when the tool that
  /// should have made it did not.
  public static func path(_ name: String, in folder: URL) throws -> String {
    let path = folder.appendingPathComponent(name).path
    guard FileManager.default.fileExists(atPath: path) else {
      throw MissingMedia(name: name)
    }
    return path
  }

  /// Test media a tool did not make.
  public struct MissingMedia: Error, CustomStringConvertible {
    public let name: String
    public var description: String {
      "\(name) was not made: are sox, flac, oggenc, opusenc and convert installed (make test)?"
    }
  }
}

extension TestMedia {
  /// The repository root, found from this file's path.
  public static let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// A generated audio fixture from `Tests/Fixtures/generated` (scripts/make-test-fixtures),
  /// made on first use; throws when it cannot be made.
  public static func generated(_ name: String) throws -> String {
    let folder = repositoryRoot.appendingPathComponent("Tests/Fixtures/generated")
    let path = folder.appendingPathComponent(name).path
    if !FileManager.default.fileExists(atPath: path) {
      let process = Process()
      process.executableURL = repositoryRoot.appendingPathComponent("scripts/make-test-fixtures")
      process.arguments = [folder.path]
      process.standardOutput = FileHandle.nullDevice
      try? process.run()
      process.waitUntilExit()
    }
    guard FileManager.default.fileExists(atPath: path) else {
      throw MissingFixture(name: name)
    }
    return path
  }

  /// A generated fixture that scripts/make-test-fixtures did not make.
  public struct MissingFixture: Error, CustomStringConvertible {
    public let name: String
    public var description: String { "fixture \(name) is missing: run `make fixtures`" }
  }
}
