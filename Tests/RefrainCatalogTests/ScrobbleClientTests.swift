import Foundation
import RefrainCore
import XCTest

@testable import RefrainCatalog
@testable import RefrainHTTP
@testable import RefrainScrobble

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A transport that records each request and answers from a list.
final class RecordingTransport: HTTPTransport, @unchecked Sendable {
  private let lock = NSLock()
  private var answers: [HTTPResponse]
  private var recorded: [URLRequest] = []

  init(_ answers: [HTTPResponse]) { self.answers = answers }

  var requests: [URLRequest] { lock.withLock { recorded } }

  func send(_ request: URLRequest) async throws(NetworkError) -> HTTPResponse {
    lock.withLock {
      recorded.append(request)
      return answers.isEmpty ? HTTPResponse(status: 200) : answers.removeFirst()
    }
  }
}

/// Decodes a form body into its fields, in order.
func formFields(_ request: URLRequest) -> [(String, String)] {
  let text = String(decoding: request.httpBody ?? Data(), as: UTF8.self)
  return text.split(separator: "&").map { pair in
    let parts = pair.split(separator: "=", maxSplits: 1).map {
      String($0).removingPercentEncoding ?? String($0)
    }
    return (parts[0], parts.count > 1 ? parts[1] : "")
  }
}

/// The ListenBrainz and Last.fm clients against a recording transport.
final class ScrobbleClientTests: XCTestCase {
  private let root = URL(string: "http://127.0.0.1:9/") ?? URL(fileURLWithPath: "/")
  private let lastFM = URL(string: "http://127.0.0.1:9/2.0/") ?? URL(fileURLWithPath: "/")

  private func queued(_ id: Int64, title: String = "Song", at time: Int64 = 1_700_000_000)
    -> QueuedListen
  {
    QueuedListen(
      id: id, service: .listenBrainz, artist: "Artist", title: title, album: "Album",
      duration: 200.4, trackKey: "k\(id)", listenedAt: time, attempts: 0, lastError: nil)
  }

  // MARK: - ListenBrainz

  func testListenBrainzSendsOneListenWithTokenAndUserAgent() async throws {
    let transport = RecordingTransport([HTTPResponse(status: 200, body: Data("{}".utf8))])
    let client = ListenBrainzClient(
      root: root, token: "tok-123", version: "9.9", transport: transport)
    _ = try await client.submit([queued(1)])
    let request = try XCTUnwrap(transport.requests.first)
    XCTAssertEqual(request.httpMethod, "POST")
    XCTAssertEqual(request.url?.absoluteString, "http://127.0.0.1:9/1/submit-listens")
    XCTAssertEqual(request.value(forHTTPHeaderField: "Authorization"), "Token tok-123")
    XCTAssertEqual(
      request.value(forHTTPHeaderField: "User-Agent"), "Refrain/9.9 (terminal music player)")
    let body = try XCTUnwrap(
      JSONSerialization.jsonObject(with: request.httpBody ?? Data()) as? [String: Any])
    XCTAssertEqual(body["listen_type"] as? String, "single")
    let listen = try XCTUnwrap((body["payload"] as? [[String: Any]])?.first)
    XCTAssertEqual(listen["listened_at"] as? Int, 1_700_000_000)
  }

  func testListenBrainzHoldsWhenTheRateLimitIsUsedUp() async throws {
    let transport = RecordingTransport([
      HTTPResponse(
        status: 200, headers: ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset-In": "12"])
    ])
    let client = ListenBrainzClient(root: root, token: "t", version: "1", transport: transport)
    let receipt = try await client.submit([queued(1), queued(2, title: "Other")])
    XCTAssertEqual(receipt.holdFor, 12)
    let body = String(decoding: transport.requests.first?.httpBody ?? Data(), as: UTF8.self)
    XCTAssertTrue(body.contains(#""listen_type":"import""#), body)
  }

  func testListenBrainz429IsARateLimitWithTheResetTime() async {
    let transport = RecordingTransport([
      HTTPResponse(status: 429, headers: ["X-RateLimit-Reset-In": "7"])
    ])
    let client = ListenBrainzClient(root: root, token: "t", version: "1", transport: transport)
    do throws(ScrobbleFailure) {
      _ = try await client.submit([queued(1)])
      XCTFail("a 429 fails")
    } catch {
      XCTAssertEqual(error, .rateLimited(service: .listenBrainz, retryIn: 7))
    }
  }

  func testListenBrainz401SaysTheTokenWasRefusedWithoutShowingIt() async {
    let transport = RecordingTransport([HTTPResponse(status: 401)])
    let client = ListenBrainzClient(
      root: root, token: "secret-token", version: "1", transport: transport)
    do throws(ScrobbleFailure) {
      _ = try await client.submit([queued(1)])
      XCTFail("a 401 fails")
    } catch {
      XCTAssertEqual(error, .unauthorized(service: .listenBrainz, detail: "HTTP 401"))
      XCTAssertFalse(error.description.contains("secret-token"))
    }
  }

  // MARK: - Last.fm

  func testLastFMScrobbleIsASignedFormWithIndexedFields() async throws {
    let transport = RecordingTransport([
      HTTPResponse(status: 200, body: Data(#"{"scrobbles":{}}"#.utf8))
    ])
    let client = LastFMClient(
      endpoint: lastFM, apiKey: "key", secret: "sec", sessionKey: "sk1", version: "1",
      transport: transport)
    _ = try await client.submit([queued(1), queued(2, title: "Zwei", at: 1_700_000_300)])
    let request = try XCTUnwrap(transport.requests.first)
    XCTAssertEqual(request.url?.absoluteString, "http://127.0.0.1:9/2.0/")
    XCTAssertEqual(
      request.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded")
    let fields = Dictionary(formFields(request), uniquingKeysWith: { _, last in last })
    XCTAssertEqual(fields["method"], "track.scrobble")
    XCTAssertEqual(fields["artist[1]"], "Artist")
    XCTAssertEqual(fields["track[1]"], "Zwei")
    XCTAssertEqual(fields["timestamp[1]"], "1700000300")
    XCTAssertEqual(fields["album[0]"], "Album")
    XCTAssertEqual(fields["duration[0]"], "200")
    XCTAssertEqual(fields["sk"], "sk1")
    XCTAssertEqual(fields["format"], "json")
    var signed = fields
    signed["api_sig"] = nil
    signed["format"] = nil
    let base = signed.keys.sorted().map { $0 + (signed[$0] ?? "") }.joined() + "sec"
    XCTAssertEqual(fields["api_sig"], LastFMSignature.md5Hex(base))
  }

  func testLastFMBatchesStopAtFifty() {
    let listens = (0..<60).map { queued(Int64($0)) }
    let fields = LastFMClient.scrobbleFields(listens)
    XCTAssertTrue(fields.contains { $0.0 == "track[49]" })
    XCTAssertFalse(fields.contains { $0.0 == "track[50]" })
  }

  func testLastFMErrorsBecomeFailures() async {
    let transport = RecordingTransport([
      HTTPResponse(status: 403, body: Data(#"{"error":9,"message":"Invalid session key"}"#.utf8)),
      HTTPResponse(status: 200, body: Data(#"{"error":29,"message":"Rate limit"}"#.utf8)),
      HTTPResponse(status: 200, body: Data(#"{"error":16,"message":"Try again"}"#.utf8)),
    ])
    let client = LastFMClient(
      endpoint: lastFM, apiKey: "key", secret: "sec", sessionKey: "sk1", version: "1",
      transport: transport)
    var failures: [ScrobbleFailure] = []
    for _ in 0..<3 {
      do throws(ScrobbleFailure) {
        _ = try await client.submit([queued(1)])
      } catch {
        failures.append(error)
      }
    }
    XCTAssertEqual(
      failures,
      [
        .unauthorized(service: .lastFM, detail: "error 9: Invalid session key"),
        .rateLimited(service: .lastFM, retryIn: 60),
        .failed(service: .lastFM, detail: "error 16: Try again"),
      ])
  }

  func testLastFMWithoutSessionKeySendsNothing() async {
    let transport = RecordingTransport([])
    let client = LastFMClient(
      endpoint: lastFM, apiKey: "key", secret: "sec", sessionKey: nil, version: "1",
      transport: transport)
    do throws(ScrobbleFailure) {
      _ = try await client.submit([queued(1)])
      XCTFail("no session key, no scrobble")
    } catch {
      XCTAssertEqual(error, .unauthorized(service: .lastFM, detail: "not logged in"))
    }
    XCTAssertTrue(transport.requests.isEmpty)
  }

  func testLastFMDesktopAuthentication() async throws {
    let transport = RecordingTransport([
      HTTPResponse(status: 200, body: Data(#"{"token":"tok"}"#.utf8)),
      HTTPResponse(
        status: 200,
        body: Data(#"{"session":{"name":"ana","key":"sess","subscriber":0}}"#.utf8)),
    ])
    let client = LastFMClient(
      endpoint: lastFM, apiKey: "key", secret: "sec", sessionKey: nil, version: "1",
      transport: transport)
    let token = try await client.requestToken()
    XCTAssertEqual(token, "tok")
    XCTAssertEqual(
      client.approvalURL(token: token), "https://www.last.fm/api/auth/?api_key=key&token=tok")
    let session = try await client.session(forToken: token)
    XCTAssertEqual(session, LastFMSession(name: "ana", key: "sess"))
    let fields = Dictionary(formFields(transport.requests[1]), uniquingKeysWith: { _, l in l })
    XCTAssertEqual(fields["method"], "auth.getSession")
    XCTAssertEqual(fields["token"], "tok")
    XCTAssertNil(fields["sk"])
  }

  func testSessionFileIsWrittenForTheUserOnly() throws {
    let folder = try LibraryTestSupport.temporaryFolder(self)
    let file = LastFMSessionFile(url: folder.appendingPathComponent("sub/lastfm-session.json"))
    try file.save(LastFMSession(name: "ana", key: "sess"))
    XCTAssertEqual(file.load(), LastFMSession(name: "ana", key: "sess"))
    let mode = try FileManager.default.attributesOfItem(atPath: file.url.path)[.posixPermissions]
    XCTAssertEqual((mode as? NSNumber)?.intValue, 0o600)
  }
}
