import Foundation
import RefrainCore
import XCTest

@testable import RefrainCatalog
@testable import RefrainLRCLIB

/// Tests of the LRCLIB request paths and of record ranking, without a server.
final class LRCLIBConfigurationTests: XCTestCase {
  // MARK: - Base URL

  func test_requestPaths_keepTheBaseURLPath() async throws {
    let source = LRCLIBLyricsSource(
      baseURL: try XCTUnwrap(URL(string: "http://127.0.0.1:9/prefix")), timeout: 2)
    XCTAssertEqual(source.baseURL.path, "/prefix")
    XCTAssertEqual(source.timeout, 2)
  }

  // MARK: - Ranking

  private let synced = "[00:01.00] hello"
  private let plain = "hello"

  func test_best_prefersSyncedOverACloserPlainRecord() {
    let records = [
      LRCLIBRecord(id: 1, duration: 200.0, plainLyrics: plain),
      LRCLIBRecord(id: 2, duration: 201.5, plainLyrics: plain, syncedLyrics: synced),
    ]
    XCTAssertEqual(records.best(duration: 200, tolerance: 2)?.id, 2)
  }

  func test_best_amongEquals_picksTheClosestDuration_thenTheServiceOrder() {
    let records = [
      LRCLIBRecord(id: 1, duration: 198.5, syncedLyrics: synced),
      LRCLIBRecord(id: 2, duration: 200.4, syncedLyrics: synced),
      LRCLIBRecord(id: 3, duration: 199.6, syncedLyrics: synced),
    ]
    XCTAssertEqual(records.best(duration: 200, tolerance: 2)?.id, 2)
    XCTAssertEqual(records.best(duration: nil, tolerance: 2)?.id, 1)
  }

  func test_best_skipsRecordsWithoutLyricsOrOutsideTheTolerance() {
    let records = [
      LRCLIBRecord(id: 1, duration: 200, plainLyrics: "", syncedLyrics: nil),
      LRCLIBRecord(id: 2, duration: 203, syncedLyrics: synced),
      LRCLIBRecord(id: 3, duration: 200, instrumental: true),
    ]
    XCTAssertEqual(records.best(duration: 200, tolerance: 2)?.id, 3)
    XCTAssertNil(Array(records.prefix(2)).best(duration: 200, tolerance: 2))
  }

  func test_record_syncedLyricsWithoutTimes_fallBackToPlain() {
    let record = LRCLIBRecord(plainLyrics: "line one\nline two", syncedLyrics: "no times here")
    XCTAssertEqual(record.tier, 1)
    XCTAssertEqual(record.result?.document?.lines.map(\.text), ["line one", "line two"])
  }

  func test_record_decodesRecordedFixtures() throws {
    let folder = LRCLIBFixtureServer.fixtures
    let get = try JSONDecoder().decode(
      LRCLIBRecord.self, from: Data(contentsOf: folder.appendingPathComponent("get_200.json")))
    XCTAssertEqual(get.id, 3_396_226)
    XCTAssertEqual(get.duration, 233.0)
    XCTAssertEqual(get.tier, 0)
    let search = try JSONDecoder().decode(
      [LRCLIBRecord].self,
      from: Data(contentsOf: folder.appendingPathComponent("search_fields_trimmed.json")))
    XCTAssertEqual(search.map(\.id), [7_621_759, 9_920_915, 15_192_645, 20_137_299])
    XCTAssertEqual(search.map(\.tier), [0, 1, 2, 2])
  }
}
