import Foundation
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainHTTP
@testable import RefrainSubsonic

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Every answer has a cap and a progress deadline (`Tests/Fixtures/ranges` on 127.0.0.1):
/// a body past the cap is refused with one line naming it, one that stops is ended.
final class AnswerLimitsTests: XCTestCase {
  private var server: FixtureServerProcess!

  override func setUpWithError() throws {
    server = try FixtureServerProcess(
      script: "ranges/range_server.py", arguments: [FileManager.default.temporaryDirectory.path])
  }

  override func tearDown() {
    server.stop()
    super.tearDown()
  }

  private func send(_ path: String, _ limits: AnswerLimits) async -> Result<
    HTTPResponse, NetworkError
  > {
    let transport = URLSessionTransport(timeout: 10, limits: limits)
    do throws(NetworkError) {
      return .success(try await transport.send(URLRequest(url: server.url(path))))
    } catch {
      return .failure(error)
    }
  }

  private let small = AnswerLimits(kind: "a test answer", maxBytes: 1 << 20, progressDeadline: 1)

  // MARK: - Caps

  func testAnAnswerWithinItsCapIsReadWhole() async throws {
    let body = try await send("/big/500000", small).get().body
    XCTAssertEqual(body.count, 500_000)
  }

  func testAnAnswerWhoseLengthIsOverTheCapIsRefusedNamingTheCap() async {
    let result = await send("/big/50000000", small)
    guard case .failure(let error) = result else { return XCTFail("a 50 MB answer was read") }
    XCTAssertEqual(error, .tooLarge(limit: "1 MiB", kind: "a test answer"))
    XCTAssertFalse(error.description.contains("\n"))
    XCTAssertTrue(error.description.contains("1 MiB"), error.description)
  }

  func testAnAnswerWithoutALengthIsCutAtTheCap() async {
    let result = await send("/bigchunked/5000000", small)
    guard case .failure(let error) = result else { return XCTFail("a 5 MB answer was read") }
    XCTAssertEqual(error, .tooLarge(limit: "1 MiB", kind: "a test answer"))
  }

  func testTheClientHoldsAnyTransportToItsCap() async {
    var configuration = HTTPClient.Configuration()
    configuration.limits = AnswerLimits(kind: "a catalog answer", maxBytes: 10)
    configuration.retry = RetryPolicy(maxAttempts: 1)
    let client = HTTPClient(
      configuration: configuration, transport: FixedTransport(body: Data(count: 11)))
    do {
      _ = try await client.data(
        for: Endpoint(
          baseURL: URL(string: "http://127.0.0.1:9") ?? URL(fileURLWithPath: "/"), path: "/x"))
      XCTFail("an answer over the cap was returned")
    } catch {
      XCTAssertEqual(error, .tooLarge(limit: "10 bytes", kind: "a catalog answer"))
    }
  }

  func testTheStatedCapsAreTheDocumentedOnes() {
    XCTAssertEqual(AnswerLimits.catalog.capText, "16 MiB")
    XCTAssertEqual(AnswerLimits.lyrics.capText, "1 MiB")
    XCTAssertEqual(AnswerLimits.service.capText, "1 MiB")
    XCTAssertEqual(AnswerLimits.cover.capText, "16 MiB")
    XCTAssertEqual(HTTPClient.Configuration().limits, .catalog)
  }

  // MARK: - Progress deadline

  func testAnAnswerThatStopsSendingEndsAfterItsDeadline() async {
    let started = Date()
    let result = await send("/stall/1000", small)
    guard case .failure(let error) = result else { return XCTFail("a stalled answer was read") }
    XCTAssertEqual(error, .stalled(seconds: 1))
    XCTAssertLessThan(Date().timeIntervalSince(started), 4)
  }

  // MARK: - Server numbers

  func testServerNumbersOutOfRangeAreDroppedNotTrapped() {
    XCTAssertNil(ServerNumber.milliseconds(1e19))
    XCTAssertNil(ServerNumber.offset(milliseconds: 1e19))
    XCTAssertNil(ServerNumber.offset(milliseconds: -1e19))
    XCTAssertNil(ServerNumber.seconds(.infinity))
    XCTAssertNil(ServerNumber.seconds(.nan))
    XCTAssertNil(ServerNumber.seconds(-1))
    XCTAssertNil(ServerNumber.seconds(1e19))
    XCTAssertNil(ServerNumber.seconds(milliseconds: Int.max))
    XCTAssertNil(ServerNumber.count(1e19))
    XCTAssertNil(ServerNumber.count(-3))
    XCTAssertNil(ServerNumber.count(Int.min))
    XCTAssertEqual(ServerNumber.count(7.9), 7)
    XCTAssertEqual(ServerNumber.milliseconds(2000), 2000)
    XCTAssertEqual(ServerNumber.offset(milliseconds: -100), -100)
    XCTAssertEqual(ServerNumber.seconds(milliseconds: 215_000), 215)
  }

  func testSubsonicLyricsWithHugeTimesKeepTheLinesThatAreTimes() throws {
    let json = """
      {"subsonic-response":{"status":"ok","version":"1.16.1","openSubsonic":true,
      "lyricsList":{"structuredLyrics":[
      {"lang":"eng","offset":1e19,"synced":true,
       "line":[{"start":0,"value":"First"},{"start":1e19,"value":"Never"},
               {"start":-1e19,"value":"Nor this"},{"start":2000,"value":"Second"}]},
      {"lang":"xxx","offset":-1e19,"synced":true,"line":[{"start":1000,"value":"Premier"}]}]}}}
      """
    let body = try JSONDecoder().decode(
      SubsonicResponse<SubsonicLyricsBody>.self, from: Data(json.utf8))
    let entries = body.body?.lyricsList?.structuredLyrics ?? []
    let text = try XCTUnwrap(SubsonicLyricsMapping.lrcText(entries))
    let document = LRCParser.parse(text)
    XCTAssertEqual(document.offsetMs, 0, "an offset out of range counts as none")
    XCTAssertEqual(document.lines.map(\.text), ["First", "Premier", "Second"])
  }

  func testASubsonicSongWithHugeNumbersKeepsItsNameAndDropsTheNumbers() throws {
    let json = """
      {"id":"7","title":"Song","duration":1e19,"track":-5,"year":1e300}
      """
    let song = try JSONDecoder().decode(SubsonicSong.self, from: Data(json.utf8))
    let api = SubsonicAPI(
      account: SubsonicAccount(
        server: URL(string: "http://127.0.0.1:9") ?? URL(fileURLWithPath: "/"), user: "ann",
        auth: .token(token: "tok", salt: "salt"), apiVersion: "1.16.1"))
    let track = SubsonicMapping(api: api).track(song)
    XCTAssertEqual(track.title, "Song")
    XCTAssertNil(track.duration)
    XCTAssertNil(track.trackNumber)
  }
}

/// A transport that answers every request with 200 and `body`.
private struct FixedTransport: HTTPTransport {
  let body: Data
  func send(_ request: URLRequest) async throws(NetworkError) -> HTTPResponse {
    HTTPResponse(status: 200, body: body)
  }
}
