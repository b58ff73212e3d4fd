import Foundation
import XCTest

@testable import RefrainCatalog
@testable import RefrainDeezer
@testable import RefrainHTTP

final class HTTPClientCacheTests: XCTestCase {
  private var server: FixtureSession!
  private var directory: URL!

  override func setUpWithError() throws {
    server = try HTTPFixtureServer.deezerSession()
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-http-cache-\(UUID().uuidString)")
  }

  override func tearDown() {
    try? FileManager.default.removeItem(at: directory)
  }

  private func page(_ path: String, base: URL? = nil) -> Endpoint {
    Endpoint(baseURL: base ?? server.baseURL, path: path, isCacheable: true)
  }

  private func hits(_ suffix: String) async throws -> Int {
    try await server.requests(endingWith: suffix).count
  }

  // MARK: - Memory

  func testAFreshPageComesFromMemory() async throws {
    let (client, _) = makeTestClient { $0.cacheTTL = 60 }
    let first = try await client.data(for: page("/genre"))
    let second = try await client.data(for: page("/genre"))
    XCTAssertEqual(first, second)
    let requests = try await hits("/genre")
    XCTAssertEqual(requests, 1)
    let cacheHits = await client.cacheHits
    XCTAssertEqual(cacheHits, 1)
  }

  func testAnExpiredPageIsFetchedAgain() async throws {
    let (client, clock) = makeTestClient { $0.cacheTTL = 60 }
    _ = try await client.data(for: page("/genre"))
    clock.advance(by: 61)
    _ = try await client.data(for: page("/genre"))
    let requests = try await hits("/genre")
    XCTAssertEqual(requests, 2)
  }

  func testUncacheableEndpointsAlwaysGoToTheServer() async throws {
    let (client, _) = makeTestClient { $0.cacheTTL = 60 }
    let track = Endpoint(baseURL: server.baseURL, path: "/track/3135556")
    let first = try await client.data(for: track)
    let second = try await client.data(for: track)
    XCTAssertNotEqual(first, second, "each answer carries a new preview signature")
    let requests = try await hits("/track/3135556")
    XCTAssertEqual(requests, 2)
  }

  func testWithoutATTLNothingIsCached() async throws {
    let (client, _) = makeTestClient()
    _ = try await client.data(for: page("/genre"))
    _ = try await client.data(for: page("/genre"))
    let requests = try await hits("/genre")
    XCTAssertEqual(requests, 2)
  }

  // MARK: - What is not cached

  func testAPIErrorsAreNotCached() async throws {
    let (client, _) = makeTestClient {
      $0.cacheTTL = 60
      $0.apiErrors = DeezerErrors.parser
      $0.retry = .never
    }
    let endpoint = page("/genre", base: server.scenario("quota-then-ok"))
    _ = await networkError { try await client.data(for: endpoint) }
    _ = try await client.data(for: endpoint)
    _ = try await client.data(for: endpoint)
    let requests = try await hits("/genre")
    XCTAssertEqual(requests, 2, "the error was not kept; the success was")
  }

  func testABodyThatFailsToDecodeIsEvicted() async throws {
    let (client, _) = makeTestClient { $0.cacheTTL = 60 }
    let endpoint = page("/chart/0", base: server.scenario("malformed"))
    for _ in 0..<2 {
      _ = await networkError { try await client.decode(DeezerChart.self, from: endpoint) }
    }
    let requests = try await hits("/chart/0")
    XCTAssertEqual(requests, 2)
  }

  // MARK: - Disk

  func testTheDiskCacheServesANewClient() async throws {
    let (first, _) = makeTestClient {
      $0.cacheTTL = 60
      $0.cacheDirectory = self.directory
    }
    let body = try await first.data(for: page("/genre"))
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    XCTAssertEqual(files.count, 1)
    XCTAssertTrue(files[0].hasSuffix(".json"))

    let (second, _) = makeTestClient {
      $0.cacheTTL = 60
      $0.cacheDirectory = self.directory
    }
    let cached = try await second.data(for: page("/genre"))
    XCTAssertEqual(cached, body)
    let requests = try await hits("/genre")
    XCTAssertEqual(requests, 1)
  }

  func testExpiredDiskEntriesAreDeleted() throws {
    var cache = ResponseCache(ttl: 10, directory: directory)
    let start = Date(timeIntervalSince1970: 1_000)
    cache.store(Data("{}".utf8), for: "http://127.0.0.1:9/genre", now: start)
    var fresh = ResponseCache(ttl: 10, directory: directory)
    XCTAssertEqual(fresh.body(for: "http://127.0.0.1:9/genre", now: start + 5), Data("{}".utf8))
    var later = ResponseCache(ttl: 10, directory: directory)
    XCTAssertNil(later.body(for: "http://127.0.0.1:9/genre", now: start + 11))
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
  }

  func testMemoryIsBoundedOldestFirst() {
    var cache = ResponseCache(ttl: 60, memoryLimit: 2)
    let now = Date(timeIntervalSince1970: 1_000)
    cache.store(Data("a".utf8), for: "a", now: now)
    cache.store(Data("b".utf8), for: "b", now: now + 1)
    cache.store(Data("c".utf8), for: "c", now: now + 2)
    XCTAssertNil(cache.body(for: "a", now: now + 3))
    XCTAssertEqual(cache.body(for: "c", now: now + 3), Data("c".utf8))
  }

  func testTheDefaultDirectoryFollowsXDG() {
    XCTAssertEqual(
      ResponseCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/tmp/x"]).path,
      "/tmp/x/refrain/http")
    XCTAssertEqual(
      ResponseCache.defaultDirectory(environment: ["HOME": "/home/u"]).path,
      "/home/u/.cache/refrain/http")
    XCTAssertEqual(
      ResponseCache.defaultDirectory(environment: ["HOME": "/home/u", "XDG_CACHE_HOME": "rel"])
        .path,
      "/home/u/.cache/refrain/http", "a relative XDG path is ignored, as the spec says")
  }

  func testFileNamesAreStableHashes() {
    XCTAssertEqual(ResponseCache.fileName(for: ""), "cbf29ce484222325.json")
    XCTAssertEqual(ResponseCache.fileName(for: "a"), "af63dc4c8601ec8c.json")
  }
}
