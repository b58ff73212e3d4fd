import Foundation
import RefrainCore
import XCTest

@testable import RefrainCatalog
@testable import RefrainLRCLIB

/// End-to-end tests of `LRCLIBLyricsSource` against `server.py` on 127.0.0.1.
final class LRCLIBLyricsSourceTests: XCTestCase {
  private var server: LRCLIBFixtureServer?

  override func setUpWithError() throws {
    server = try LRCLIBFixtureServer()
  }

  override func tearDown() {
    server?.stop()
    server = nil
  }

  /// The recorded track: "I Want to Live" by Borislav Slavov, 233 s.
  private func query(duration: Double? = 233.4) -> LyricsQuery {
    LyricsQuery(
      title: "I Want to Live", artist: "Borislav Slavov",
      album: "Baldur's Gate 3 (Original Game Soundtrack)", duration: duration)
  }

  private func source(_ scenario: String, timeout: Double = 5) throws -> LRCLIBLyricsSource {
    let server = try XCTUnwrap(server)
    return LRCLIBLyricsSource(baseURL: server.baseURL(scenario), timeout: timeout)
  }

  private func lyrics(_ scenario: String, duration: Double? = 233.4) async throws -> LyricsResult {
    try await source(scenario).lyrics(for: query(duration: duration))
  }

  /// The document found for `scenario`; fails the test when there is none.
  private func document(_ scenario: String, duration: Double? = 233.4) async throws
    -> LyricsDocument
  {
    let result = try await lyrics(scenario, duration: duration)
    return try XCTUnwrap(result.document, "\(result)")
  }

  // MARK: - /api/get

  func test_get_synced_returnsSyncedLyrics() async throws {
    let result = try await lyrics("synced")
    let document = try XCTUnwrap(result.document)
    XCTAssertEqual(result.source, .online)
    XCTAssertTrue(document.isSynced)
    XCTAssertEqual(document.lines.first?.ms, 17_120)
    XCTAssertEqual(document.lines.first?.text, "I feel your breath upon my neck")
  }

  func test_get_plainOnly_returnsPlainLyrics() async throws {
    let document = try await document("plain")
    XCTAssertFalse(document.isSynced)
    XCTAssertEqual(document.lines.first?.text, "I feel your breath upon my neck")
    XCTAssertEqual(document.lines.first?.ms, 0)
  }

  func test_get_instrumental_returnsInstrumental() async throws {
    let result = try await lyrics("instrumental")
    XCTAssertEqual(result, .instrumental(source: .online))
  }

  func test_get_sendsUserAgentAndEncodedQuery() async throws {
    let document = try await document("echo")
    let text = document.lines.map(\.text)
    XCTAssertEqual(
      text,
      [
        "User-Agent: Refrain/0.1 (terminal music player)",
        "Query: track_name=I%20Want%20to%20Live&artist_name=Borislav%20Slavov"
          + "&album_name=Baldur%27s%20Gate%203%20%28Original%20Game%20Soundtrack%29"
          + "&duration=233",
      ])
  }

  func test_get_escapesPlusAndAmpersand_andLeavesOutAMissingAlbum() async throws {
    let query = LyricsQuery(title: "A+B & C=D", artist: "Ünïcode", duration: nil)
    let result = try await source("echo").lyrics(for: query)
    let document = try XCTUnwrap(result.document)
    XCTAssertEqual(
      document.lines.last?.text,
      "Query: track_name=A%2BB%20%26%20C%3DD&artist_name=%C3%9Cn%C3%AFcode")
  }

  // MARK: - Search fallback

  func test_notFound_fallsBackToSearch_andPicksTheClosestSyncedRecord() async throws {
    let document = try await document("fallback", duration: 233)
    XCTAssertTrue(document.isSynced)
    // 17.10 s is the search record (album "."), not the /api/get record (17.12 s).
    XCTAssertEqual(document.lines.first?.ms, 17_100)
  }

  func test_search_ranksByDuration_withinTwoSeconds() async throws {
    // 239.84 s: only an instrumental record is within 2 s.
    let near240 = try await lyrics("fallback", duration: 241)
    XCTAssertEqual(near240, .instrumental(source: .online))
    // 1 s: the junk duplicate that has plain lyrics only.
    let plain = try await document("fallback", duration: 1.4)
    XCTAssertFalse(plain.isSynced)
    // Nothing within 2 s of 5:00.
    let none = try await lyrics("fallback", duration: 300)
    XCTAssertEqual(none.reasons, ["the lyrics service has no match within 2 s of 5:00"])
  }

  func test_getWithAWrongDuration_isIgnored_andSearchIsUsed() async throws {
    let document = try await document("far", duration: 233)
    XCTAssertEqual(document.lines.first?.ms, 17_100)
  }

  func test_notFound_withEmptySearch_isNotFound() async throws {
    let result = try await lyrics("empty")
    XCTAssertEqual(result, .notFound(reasons: ["the lyrics service has no match"]))
  }

  func test_missingArtist_isNotFound_withoutAsking() async throws {
    let offline = LRCLIBLyricsSource(baseURL: try XCTUnwrap(URL(string: "http://127.0.0.1:1")))
    let result = try await offline.lyrics(for: LyricsQuery(title: "Untagged", artist: nil))
    XCTAssertEqual(result.reasons, ["the lyrics service needs the title and the artist"])
  }

  // MARK: - Failures

  func test_malformedJSON_throwsAClearError() async throws {
    do {
      _ = try await lyrics("malformed")
      XCTFail("expected an error")
    } catch let error as LRCLIBError {
      guard case .malformedResponse = error else { return XCTFail("got \(error)") }
      XCTAssertTrue(
        error.description.hasPrefix("the lyrics service sent a response Refrain cannot read"),
        error.description)
    }
  }

  func test_httpError_carriesTheServiceMessage() async throws {
    do {
      _ = try await lyrics("validation")
      XCTFail("expected an error")
    } catch let error as LRCLIBError {
      XCTAssertEqual(error, .httpStatus(400, message: "duration: must be between 1 and 3600"))
    }
  }

  func test_serverThatNeverAnswers_timesOutAsOfflineOrSlow() async throws {
    let slow = try source("hang", timeout: 0.5)
    let started = Date()
    do {
      _ = try await slow.lyrics(for: query())
      XCTFail("expected a time-out")
    } catch let error as LRCLIBError {
      guard case .offlineOrSlow = error else { return XCTFail("got \(error)") }
      XCTAssertTrue(error.description.hasPrefix("offline or slow: "), error.description)
    }
    XCTAssertLessThan(Date().timeIntervalSince(started), 4)
  }

  func test_refusedConnection_isOfflineOrSlow() async throws {
    let closed = LRCLIBLyricsSource(baseURL: try XCTUnwrap(URL(string: "http://127.0.0.1:1")))
    do {
      _ = try await closed.lyrics(for: query())
      XCTFail("expected an error")
    } catch let error as LRCLIBError {
      XCTAssertTrue(error.description.hasPrefix("offline or slow: "), error.description)
    }
  }
}
