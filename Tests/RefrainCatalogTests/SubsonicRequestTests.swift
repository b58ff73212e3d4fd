import Foundation
import XCTest

@testable import RefrainCatalog
@testable import RefrainHTTP
@testable import RefrainSubsonic

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Subsonic requests: token and API-key credentials, the login's choices and the error lines.
final class SubsonicRequestTests: XCTestCase {
  private let server = URL(string: "http://127.0.0.1:9/music") ?? URL(fileURLWithPath: "/")

  private func query(_ url: URL?) -> [(String, String)] {
    let components = url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }
    return (components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }
  }

  private func names(_ url: URL?) -> [String] { query(url).map(\.0) }

  private func value(_ name: String, _ url: URL?) -> String? {
    query(url).first { $0.0 == name }?.1
  }

  private func answer(_ json: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(status: status, body: Data(json.utf8))
  }

  private let ok = #"{"subsonic-response":{"status":"ok","version":"1.12.0"}}"#

  private func failed(_ code: Int, _ message: String = "m") -> String {
    #"{"subsonic-response":{"status":"failed","version":"1.16.1","error":{"code":\#(code),"message":"\#(message)"}}}"#
  }

  // MARK: - Credentials

  func testTheTokenIsTheMD5OfPasswordAndSaltInLowercaseHex() {
    // The example of the Subsonic API documentation.
    XCTAssertEqual(
      SubsonicAuth.token(password: "sesame", salt: "c19b2d"),
      .token(token: "26719a1196d2a940705a59634eb18eab", salt: "c19b2d"))
  }

  func testATokenRequestSendsUserTokenSaltClientVersionAndJSONAndNoPassword() throws {
    let api = SubsonicAPI(
      server: server, user: "ann", auth: .token(token: "abc", salt: "s1"))
    let url = try api.endpoint("search3", [("query", "a b")]).url()
    XCTAssertEqual(url.path, "/music/rest/search3.view")
    XCTAssertEqual(names(url), ["u", "t", "s", "c", "v", "f", "query"])
    XCTAssertEqual(value("u", url), "ann")
    XCTAssertEqual(value("t", url), "abc")
    XCTAssertEqual(value("s", url), "s1")
    XCTAssertEqual(value("c", url), "refrain")
    XCTAssertEqual(value("v", url), "1.16.1")
    XCTAssertEqual(value("f", url), "json")
    XCTAssertEqual(value("query", url), "a b")
  }

  func testAnAPIKeyRequestSendsTheKeyAndNoUser() throws {
    let api = SubsonicAPI(server: server, user: "ann", auth: .apiKey("k-1"))
    let url = try api.endpoint("ping").url()
    XCTAssertEqual(names(url), ["apiKey", "c", "v", "f"])
    XCTAssertEqual(value("apiKey", url), "k-1")
  }

  func testTheStreamURLAsksForTheFileAsStored() throws {
    let api = SubsonicAPI(server: server, user: "ann", auth: .token(token: "t", salt: "s"))
    let url = try api.streamURL(songID: "song-7")
    XCTAssertEqual(url.path, "/music/rest/stream.view")
    XCTAssertEqual(value("id", url), "song-7")
    for absent in ["format", "maxBitRate", "p", "f"] { XCTAssertNil(value(absent, url), absent) }
  }

  func testTheStoredAccountHoldsTheTokenAndSaltAsStringsAndRoundTrips() throws {
    let account = SubsonicAccount(
      server: server, user: "ann", auth: .token(token: "tok", salt: "salt"),
      apiVersion: "1.12.0")
    let data = try JSONEncoder().encode(account)
    let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    XCTAssertEqual(object["token"] as? String, "tok")
    XCTAssertEqual(object["salt"] as? String, "salt")
    XCTAssertNil(object["api_key"])
    XCTAssertEqual(try JSONDecoder().decode(SubsonicAccount.self, from: data), account)
    XCTAssertEqual(account.hostAndPort, "127.0.0.1:9")
  }

  // MARK: - Addresses

  func testAnAddressKeepsItsPrefixAndDropsRestAndSlashes() throws {
    XCTAssertEqual(
      try SubsonicLogin.address("https://h.example/navidrome/rest/").absoluteString,
      "https://h.example/navidrome")
    XCTAssertThrowsError(try SubsonicLogin.address("h.example:4533"))
  }

  func testPlainHTTPIsRefusedBeyondThisMachineWithoutInsecure() throws {
    let remote = try SubsonicLogin.address("http://192.168.1.5:4533")
    XCTAssertThrowsError(try SubsonicLogin(server: remote, user: "a").checkTransport()) {
      XCTAssertEqual($0 as? SubsonicError, .insecure(host: "192.168.1.5"))
    }
    XCTAssertNoThrow(try SubsonicLogin(server: remote, user: "a", insecure: true).checkTransport())
    for local in ["http://127.0.0.1:1", "http://localhost:1", "https://music.example"] {
      XCTAssertNoThrow(
        try SubsonicLogin(server: try SubsonicLogin.address(local), user: "a").checkTransport())
    }
  }

  // MARK: - Logging in

  private func login(_ answers: [HTTPResponse]) async -> (
    Result<SubsonicAccount, SubsonicError>, [URLRequest]
  ) {
    let transport = RecordingTransport(answers)
    let login = SubsonicLogin(server: server, user: "ann")
    let http = SubsonicClient.httpClient(transport: transport)
    do {
      let account = try await login.perform(secret: "sesame", salt: "c19b2d", http: http)
      return (.success(account), transport.requests)
    } catch {
      return (.failure(error), transport.requests)
    }
  }

  func testATokenLoginIsCheckedWithThePingOfTheStoredToken() async throws {
    let (result, requests) = await login([
      answer(failed(0, "Unknown method"), status: 404), answer(ok),
    ])
    let account = try result.get()
    XCTAssertEqual(account.auth, .token(token: "26719a1196d2a940705a59634eb18eab", salt: "c19b2d"))
    XCTAssertEqual(account.apiVersion, "1.12.0")
    XCTAssertEqual(account.extensions, [])
    XCTAssertEqual(
      requests.map { $0.url?.lastPathComponent }, ["getOpenSubsonicExtensions.view", "ping.view"])
    XCTAssertEqual(value("t", requests[1].url), "26719a1196d2a940705a59634eb18eab")
    XCTAssertEqual(value("s", requests[1].url), "c19b2d")
    for request in requests { XCTAssertNil(value("p", request.url)) }
  }

  func testAMissingParameterFromTheExtensionsMeansNone() async throws {
    let (result, _) = await login([answer(failed(10)), answer(ok)])
    XCTAssertEqual(try result.get().extensions, [])
  }

  func testAServerWithAPIKeysGetsTheSecretAsAKey() async throws {
    let extensions =
      #"{"subsonic-response":{"status":"ok","version":"1.16.1","openSubsonic":true,"type":"navidrome","#
      + #""openSubsonicExtensions":[{"name":"songLyrics","versions":[1]},{"name":"apiKeyAuthentication","versions":[1]}]}}"#
    let (result, requests) = await login([
      answer(extensions),
      answer(#"{"subsonic-response":{"status":"ok","version":"1.16.1","type":"navidrome"}}"#),
    ])
    let account = try result.get()
    XCTAssertEqual(account.auth, .apiKey("sesame"))
    XCTAssertEqual(account.extensions, ["apiKeyAuthentication", "songLyrics"])
    XCTAssertEqual(account.serverType, "navidrome")
    XCTAssertEqual(names(requests[1].url), ["apiKey", "c", "v", "f"])
  }

  func testARefusedKeyIsTriedAsAPasswordToken() async throws {
    let extensions =
      #"{"subsonic-response":{"status":"ok","version":"1.16.1","openSubsonicExtensions":[{"name":"apiKeyAuthentication"}]}}"#
    let (result, requests) = await login([answer(extensions), answer(failed(44)), answer(ok)])
    XCTAssertEqual(try result.get().auth.kind, "token")
    XCTAssertEqual(requests.count, 3)
  }

  func testAWrongPasswordSaysSoInPlainWords() async {
    let (result, _) = await login([answer(failed(0), status: 404), answer(failed(40))])
    guard case .failure(let error) = result else { return XCTFail("logged in") }
    XCTAssertEqual(
      error.description, "wrong user name or password: the server did not accept them")
  }

  func testAServerThatWantsThePasswordIsRefused() async {
    for code in [10, 41, 42] {
      let (result, _) = await login([answer(failed(0), status: 404), answer(failed(code))])
      guard case .failure(let error) = result else { return XCTFail("logged in with \(code)") }
      XCTAssertEqual(error, .passwordOnly(code: code, message: "m"))
      XCTAssertTrue(error.description.contains("storing the password"), error.description)
    }
  }

  func testAnUnreachableServerFailsAtTheFirstRequest() async {
    let login = SubsonicLogin(server: server, user: "ann")
    let http = SubsonicClient.httpClient(transport: FailingTransport())
    do {
      _ = try await login.perform(secret: "x", salt: "y", http: http)
      XCTFail("logged in")
    } catch {
      XCTAssertEqual(
        error.description,
        "could not reach the server (connection refused); check the address and that it is running"
      )
    }
  }

  func testAnUntrustedCertificateSaysToSetSSLCertFile() {
    let mapped = URLSessionTransport.map(URLError(.serverCertificateUntrusted))
    guard case .transport(let detail) = mapped else { return XCTFail("\(mapped)") }
    XCTAssertTrue(URLSessionTransport.isTLSFailure(detail), detail)
    let line = SubsonicError.network(mapped).description
    XCTAssertTrue(line.hasPrefix("the server's TLS certificate was not accepted"), line)
    XCTAssertTrue(line.contains("SSL_CERT_FILE"), line)
    XCTAssertFalse(
      URLSessionTransport.isTLSFailure("connection refused"), "a refused connection is not TLS")
  }

  // MARK: - Error codes

  func testEveryErrorCodeIsOnePlainLine() {
    let expected: [Int: String] = [
      0: "the server reported an error (code 0): boom",
      10: "the server says a required parameter is missing (boom); please report it",
      20: "the server needs a newer Subsonic client than this Refrain; update Refrain",
      30: "the server's Subsonic API is too old for Refrain; update the server",
      40: "wrong user name or password: the server did not accept them",
      41: "the server does not take token logins for this (LDAP) account",
      42: "the server does not accept this way of logging in",
      43: "the request mixed two ways of logging in; please report it",
      44: "the server did not accept the API key; make a new one in its settings",
      50: "this user may not do that on the server; ask its administrator",
      70: "the server has no such item; it may have been removed",
    ]
    for (code, line) in expected {
      XCTAssertEqual(SubsonicError.server(code: code, message: "boom").description, line)
    }
    let hostile = SubsonicError.server(code: 0, message: "a\u{1B}[2Jb\nc").description
    XCTAssertFalse(hostile.contains("\u{1B}") || hostile.contains("\n"), hostile)
  }
}

/// A transport whose server is never there.
private struct FailingTransport: HTTPTransport {
  func send(_ request: URLRequest) async throws(NetworkError) -> HTTPResponse {
    throw .transport("connection refused")
  }
}
