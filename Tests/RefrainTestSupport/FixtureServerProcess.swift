import Foundation

/// A python3 fixture server from `Tests/Fixtures` on 127.0.0.1, for one test class.
///
/// The script prints its port on its first stdout line and exits when its stdin closes, so
/// a crashed test run leaves nothing behind; ``stop()`` (or deinit) closes it and waits.
public final class FixtureServerProcess: @unchecked Sendable {
  /// The port it listens on.
  public let port: Int
  private let process: Process
  private let input: Pipe
  private let lock = NSLock()
  private var stopped = false

  /// The repository's `Tests/Fixtures` folder.
  public static let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // RefrainTestSupport
    .deletingLastPathComponent()  // Tests
    .appendingPathComponent("Fixtures")

  /// Starts `Tests/Fixtures/SCRIPT` with `arguments` and waits for its port.
  public convenience init(script: String, arguments: [String] = []) throws {
    try self.init(scriptURL: Self.fixtures.appendingPathComponent(script), arguments: arguments)
  }

  /// Starts the script at `scriptURL` with `arguments` and waits for its port.
  public init(scriptURL: URL, arguments: [String] = []) throws {
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", scriptURL.path] + arguments
    input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard let port = Int(text) else {
      process.terminate()
      throw NoPort(script: scriptURL.lastPathComponent, output: text)
    }
    self.port = port
  }

  deinit { stop() }

  /// `http://127.0.0.1:PORT` followed by `path`.
  public func url(_ path: String) -> URL {
    URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
  }

  /// Stops the server and waits for it (idempotent).
  public func stop() {
    lock.lock()
    defer { lock.unlock() }
    guard !stopped else { return }
    stopped = true
    try? input.fileHandleForWriting.close()
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
  }

  /// The script printed no port.
  public struct NoPort: Error, CustomStringConvertible {
    public let script: String
    public let output: String
    public var description: String {
      "\(script) did not print a port (got \"\(output)\"); is python3 installed?"
    }
  }
}
