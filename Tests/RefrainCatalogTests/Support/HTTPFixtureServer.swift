import Foundation
import RefrainTestSupport
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A python3 fixture server on 127.0.0.1, started for one test and stopped with it.
///
/// The script must print its port as the first line on stdout and exit when its stdin
/// closes (so a crashed test run leaves nothing behind). Any server under
/// `Tests/Fixtures/` that follows that contract can be launched with it.
final class HTTPFixtureServer: @unchecked Sendable {
  /// `http://127.0.0.1:PORT`.
  let baseURL: URL
  private let process: FixtureServerProcess

  /// The repository's `Tests/Fixtures` directory.
  static let fixturesDirectory = FixtureServerProcess.fixtures

  /// Launches `python3 script arguments…` and waits for its port.
  init(script: URL, arguments: [String] = []) throws {
    process = try FixtureServerProcess(scriptURL: script, arguments: arguments)
    baseURL = process.url("")
  }

  /// A new catalog stand-in from `Tests/Fixtures/deezer/server.py`, for tests that stop it
  /// or move its clock.
  static func deezer() throws -> HTTPFixtureServer {
    try HTTPFixtureServer(script: deezerScript)
  }

  /// A session on the catalog stand-in that all tests share (started once per test run).
  static func deezerSession() throws -> FixtureSession {
    FixtureSession(server: try shared(deezerScript))
  }

  private static let deezerScript = fixturesDirectory.appendingPathComponent("deezer")
    .appendingPathComponent("server.py")

  private static let sharedLock = NSLock()
  nonisolated(unsafe) private static var sharedServers: [String: HTTPFixtureServer] = [:]

  /// One server per script for the whole test run; it exits with the test process.
  static func shared(_ script: URL) throws -> HTTPFixtureServer {
    try sharedLock.withLock {
      if let server = sharedServers[script.path] { return server }
      let server = try HTTPFixtureServer(script: script)
      sharedServers[script.path] = server
      return server
    }
  }

  /// Stops the server (idempotent).
  func stop() { process.stop() }

  /// A URL on the server; `path` may carry a query.
  func url(_ path: String) -> URL {
    URL(string: baseURL.absoluteString + path) ?? baseURL
  }

  /// The base URL for a misbehaving scenario, unique to one test via `tag`.
  func scenario(_ name: String, tag: String = UUID().uuidString) -> URL {
    url("/scenario/\(name)~\(tag)")
  }

  /// One request the server saw.
  struct LoggedRequest: Decodable, Sendable {
    var method: String
    var path: String
    var query: String
    var userAgent: String

    private enum CodingKeys: String, CodingKey {
      case method, path, query
      case userAgent = "user_agent"
    }
  }

  /// Every request so far (control requests included).
  func requests() async throws -> [LoggedRequest] {
    let (data, _) = try await URLSession.shared.data(from: url("/_control/log"))
    return try JSONDecoder().decode([LoggedRequest].self, from: data)
  }

  /// The requests so far whose path ends with `suffix`.
  func requests(endingWith suffix: String) async throws -> [LoggedRequest] {
    try await requests().filter { $0.path.hasSuffix(suffix) }
  }

  /// Moves the server's clock forward, to expire signed preview URLs.
  func advanceClock(by seconds: TimeInterval) async throws {
    var request = URLRequest(url: url("/_control/advance?seconds=\(seconds)"))
    request.httpMethod = "POST"
    _ = try await URLSession.shared.data(for: request)
  }

  /// The HTTP status a plain GET of `url` returns.
  func status(of url: URL) async throws -> Int {
    let (_, response) = try await URLSession.shared.data(from: url)
    return (response as? HTTPURLResponse)?.statusCode ?? -1
  }
}

/// One test's private view of a shared fixture server.
///
/// Every request goes through `/scenario/ok~TAG/`, a prefix the server strips, so the
/// request log and the scenario counters of one test never mix with another's.
struct FixtureSession: Sendable {
  /// The shared server.
  let server: HTTPFixtureServer
  /// This test's tag.
  let tag = UUID().uuidString

  /// The base URL for well-behaved answers.
  var baseURL: URL { server.scenario("ok", tag: tag) }

  /// The base URL for a misbehaving scenario.
  func scenario(_ name: String) -> URL { server.scenario(name, tag: tag) }

  /// This test's requests.
  func requests() async throws -> [HTTPFixtureServer.LoggedRequest] {
    try await server.requests().filter { $0.path.contains("~\(tag)/") }
  }

  /// This test's requests whose path ends with `suffix`.
  func requests(endingWith suffix: String) async throws -> [HTTPFixtureServer.LoggedRequest] {
    try await requests().filter { $0.path.hasSuffix(suffix) }
  }

  /// The HTTP status a plain GET of `url` returns.
  func status(of url: URL) async throws -> Int { try await server.status(of: url) }
}
