import Foundation
import RefrainCore
import RefrainTags
import XCTest

@testable import RefrainCatalog
@testable import RefrainLRCLIB

/// The resolver with the LRCLIB source and a real cache folder: online answers are cached,
/// and a slow service never holds the lookup past its time limit.
final class LRCLIBResolverTests: XCTestCase {
  private var server: LRCLIBFixtureServer?
  private var folder: URL?

  override func setUpWithError() throws {
    server = try LRCLIBFixtureServer()
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-lrclib-\(UUID().uuidString)")
    self.folder = folder
  }

  override func tearDown() {
    server?.stop()
    if let folder { try? FileManager.default.removeItem(at: folder) }
  }

  private let query = LyricsQuery(
    title: "I Want to Live", artist: "Borislav Slavov", album: "Baldur's Gate 3", duration: 233)

  private func resolver(_ scenario: String, clientTimeout: Double = 5, total: Double = 8) throws
    -> LyricsResolver
  {
    let server = try XCTUnwrap(server)
    let cache = LyricsCache(directory: try XCTUnwrap(folder))
    let online = LRCLIBLyricsSource(baseURL: server.baseURL(scenario), timeout: clientTimeout)
    return LyricsResolver.standard(cache: cache, online: online, timeout: total)
  }

  // MARK: - Caching

  func test_onlineAnswer_isCached_andServedOfflineNextTime() async throws {
    let first = try await resolver("synced").resolve(query)
    XCTAssertEqual(first.source, .online)

    // The service now never answers, but the cache does.
    let second = try await resolver("hang", clientTimeout: 0.3).resolve(query)
    XCTAssertEqual(second.source, .cache)
    XCTAssertEqual(second.document?.lines, first.document?.lines)
  }

  func test_instrumentalAnswer_isCached() async throws {
    _ = try await resolver("instrumental").resolve(query)
    let again = try await resolver("hang", clientTimeout: 0.3).resolve(query)
    XCTAssertEqual(again, .instrumental(source: .cache))
  }

  func test_withALibrary_answersAreCachedInItsDatabase() async throws {
    let server = try XCTUnwrap(server)
    let library = try LibraryTestSupport.makeStore(self)
    let cache = LyricsCache(storage: LibraryLyricsCache(store: library))
    func resolver(_ scenario: String, _ timeout: Double) -> LyricsResolver {
      LyricsResolver.standard(
        cache: cache,
        online: LRCLIBLyricsSource(baseURL: server.baseURL(scenario), timeout: timeout),
        timeout: 8)
    }
    let first = try await resolver("synced", 5).resolve(query)
    XCTAssertEqual(first.source, .online)
    let row = try XCTUnwrap(library.lyrics.cachedLyrics(for: LyricsCache.key(for: query)))
    XCTAssertTrue(row.text.contains("\"lyrics\""), row.text)

    let second = try await resolver("hang", 0.3).resolve(query)
    XCTAssertEqual(second.source, .cache)
    XCTAssertEqual(second.document?.lines, first.document?.lines)

    // A damaged row is dropped and reported, and the track is looked up again.
    try library.lyrics.cacheLyrics("{not json", for: LyricsCache.key(for: query))
    XCTAssertEqual(
      cache.lookup(query),
      .unreadable(reason: "the cached lyrics were unreadable and were discarded"))
    XCTAssertNil(try library.lyrics.cachedLyrics(for: LyricsCache.key(for: query)))
  }

  // MARK: - Slow service

  func test_slowService_isCutOffByTheTotalTimeout() async throws {
    let started = Date()
    let result = try await resolver("hang", clientTimeout: 10, total: 0.5).resolve(query)
    XCTAssertLessThan(Date().timeIntervalSince(started), 3)
    XCTAssertNil(result.document)
    XCTAssertTrue(
      result.reasons.contains { $0.hasPrefix("offline or slow: ") }, "\(result.reasons)")
  }

  func test_malformedAnswer_becomesAReason() async throws {
    let result = try await resolver("malformed").resolve(query)
    XCTAssertTrue(
      result.reasons.contains { $0.contains("Refrain cannot read") }, "\(result.reasons)")
  }
}
