import Foundation

@testable import RefrainLRCLIB

/// Runs `Tests/Fixtures/lrclib/server.py`, a stand-in LRCLIB server on 127.0.0.1.
///
/// The server prints its port on its first stdout line and exits when its stdin closes, so
/// it never outlives the test process.
final class LRCLIBFixtureServer {
  /// The repository's `Tests/Fixtures/lrclib` folder.
  static let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("Fixtures/lrclib")

  /// The port the server listens on.
  let port: Int

  private let process: Process
  private let input: Pipe

  /// Starts the server and waits for its port.
  init() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", Self.fixtures.appendingPathComponent("server.py").path, Self.fixtures.path,
    ]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    self.process = process
    self.input = input

    var line = Data()
    let reader = output.fileHandleForReading
    while !line.contains(UInt8(ascii: "\n")) {
      let chunk = reader.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard let port = Int(text) else {
      process.terminate()
      throw StartFailure(output: text)
    }
    self.port = port
  }

  /// The base URL of one scenario (see `server.py`), such as `synced` or `fallback`.
  func baseURL(_ scenario: String) -> URL {
    URL(string: "http://127.0.0.1:\(port)/\(scenario)") ?? URL(fileURLWithPath: "/")
  }

  /// The server printed no port; `output` is what it printed instead.
  struct StartFailure: Error, CustomStringConvertible {
    var output: String
    var description: String { "the LRCLIB fixture server did not start: \(output)" }
  }

  /// Stops the server.
  func stop() {
    try? input.fileHandleForWriting.close()
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
  }
}
