import Foundation
import XCTest

@testable import RefrainCore
@testable import RefrainTags

/// Tests of `LyricsResolver`: source order, the plain fallback, caching and time limits.
final class LyricsSourcesResolverTests: XCTestCase {
  private var folder = URL(fileURLWithPath: "/nonexistent")

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-resolver-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDown() {
    try? FileManager.default.removeItem(at: folder)
  }

  private let query = LyricsQuery(title: "Song", artist: "Band", album: "Album", duration: 200)
  private let synced = LRCParser.parse("[00:01.00]one\n[00:02.00]two")
  private let plain = LRCParser.parse("one\ntwo")

  // MARK: - Order

  func test_syncedSidecar_winsAndLaterSourcesAreNotAsked() async {
    let online = StubSource(.online, .found(synced, source: .online))
    let resolver = LyricsResolver(sources: [
      StubSource(.sidecar, .found(synced, source: .sidecar)),
      StubSource(.embedded, .found(plain, source: .embedded)), online,
    ])
    let result = await resolver.resolve(query)
    XCTAssertEqual(result, .found(synced, source: .sidecar))
    XCTAssertEqual(online.calls, 0)
  }

  func test_sourcesAreAskedInOrder_untilSyncedLyrics() async {
    let log = CallLog()
    let resolver = LyricsResolver(sources: [
      StubSource(.sidecar, .notFound(reasons: ["no .lrc"]), log: log),
      StubSource(.embedded, .notFound(reasons: ["no tags"]), log: log),
      StubSource(.cache, .notFound(reasons: ["no cache"]), log: log),
      StubSource(.online, .found(synced, source: .online), log: log),
    ])
    let result = await resolver.resolve(query)
    XCTAssertEqual(result.source, .online)
    XCTAssertEqual(log.kinds, [.sidecar, .embedded, .cache, .online])
  }

  func test_localPlainLyrics_areKept_whileOnlineSyncedLyricsWin() async {
    let resolver = LyricsResolver(sources: [
      StubSource(.embedded, .found(plain, source: .embedded)),
      StubSource(.online, .found(synced, source: .online)),
    ])
    let result = await resolver.resolve(query)
    XCTAssertEqual(result, .found(synced, source: .online))
  }

  func test_localPlainLyrics_areTheFallback_whenNothingIsSynced() async {
    let online = LRCParser.parse("other words")
    for answer: LyricsResult in [
      .found(online, source: .online), .instrumental(source: .online),
      .notFound(reasons: ["the lyrics service has no match"]),
    ] {
      let resolver = LyricsResolver(sources: [
        StubSource(.embedded, .found(plain, source: .embedded)), StubSource(.online, answer),
      ])
      let result = await resolver.resolve(query)
      XCTAssertEqual(result, .found(plain, source: .embedded), "\(answer)")
    }
  }

  func test_cacheHit_endsTheSearch_evenForPlainLyrics() async {
    let online = StubSource(.online, .found(synced, source: .online))
    let resolver = LyricsResolver(sources: [
      StubSource(.cache, .found(plain, source: .cache)), online,
    ])
    let result = await resolver.resolve(query)
    XCTAssertEqual(result, .found(plain, source: .cache))
    XCTAssertEqual(online.calls, 0)
  }

  func test_nothingFound_collectsEveryReason() async {
    let resolver = LyricsResolver(sources: [
      StubSource(.sidecar, .notFound(reasons: ["no .lrc next to the file"])),
      StubSource(.online, error: StubError(text: "offline: no network")),
    ])
    let result = await resolver.resolve(query)
    XCTAssertEqual(
      result, .notFound(reasons: ["no .lrc next to the file", "offline: no network"]))
  }

  // MARK: - Cache

  func test_onlineAnswers_areStoredInTheCache() async {
    let cache = LyricsCache(directory: folder)
    let resolver = LyricsResolver(
      sources: [
        CachedLyricsSource(cache: cache), StubSource(.online, .found(synced, source: .online)),
      ],
      cache: cache)
    _ = await resolver.resolve(query)
    XCTAssertEqual(cache.lookup(query), .hit(.lyrics(synced)))

    let offline = LyricsResolver(
      sources: [
        CachedLyricsSource(cache: cache), StubSource(.online, error: StubError(text: "x")),
      ],
      cache: cache)
    let again = await offline.resolve(query)
    XCTAssertEqual(again, .found(synced, source: .cache))
  }

  func test_localAnswers_areNotCached() async {
    let cache = LyricsCache(directory: folder)
    let resolver = LyricsResolver(
      sources: [StubSource(.sidecar, .found(synced, source: .sidecar))], cache: cache)
    _ = await resolver.resolve(query)
    XCTAssertEqual(cache.lookup(query), .miss)
  }

  func test_standardOrder() {
    let resolver = LyricsResolver.standard(
      cache: LyricsCache(directory: folder), online: StubSource(.online, .notFound(reasons: [])))
    XCTAssertEqual(resolver.sources.map(\.kind), [.sidecar, .embedded, .cache, .online])
    let offline = LyricsResolver.standard(cache: nil, online: nil)
    XCTAssertEqual(offline.sources.map(\.kind), [.sidecar, .embedded])
  }

  // MARK: - Time limits

  func test_aSourceThatNeverAnswers_isCutOffAtTheTotalTimeout() async {
    let resolver = LyricsResolver(
      sources: [
        StubSource(.embedded, .found(plain, source: .embedded)),
        StubSource(.online, hangsIgnoringCancellation: true),
      ], timeout: 0.3)
    let started = Date()
    let result = await resolver.resolve(query)
    XCTAssertLessThan(Date().timeIntervalSince(started), 2)
    XCTAssertEqual(result, .found(plain, source: .embedded))

    let alone = LyricsResolver(
      sources: [StubSource(.online, hangsIgnoringCancellation: true)], timeout: 0.2)
    let reasons = await alone.resolve(query).reasons
    XCTAssertEqual(
      reasons, ["offline or slow: the online lyrics service did not answer within 0.2 s"])
  }

  func test_cancellingTheCaller_endsTheLookup() async {
    let resolver = LyricsResolver(
      sources: [StubSource(.online, hangsIgnoringCancellation: true)], timeout: 30)
    let query = self.query
    let task = Task { await resolver.resolve(query) }
    try? await Task.sleep(nanoseconds: 50_000_000)
    task.cancel()
    let result = await task.value
    XCTAssertEqual(result.reasons, ["the lyrics lookup was cancelled"])
  }

  func test_deadline_returnsTheValue_whenInTime() async {
    let outcome = await LyricsDeadline.run(seconds: 5) { 42 }
    guard case .value(42) = outcome else { return XCTFail("\(outcome)") }
  }
}

// MARK: - Stubs

/// A lyrics source with a fixed answer, counting how often it is asked.
private final class StubSource: LyricsSource, @unchecked Sendable {
  let kind: LyricsSourceKind
  private let answer: LyricsResult?
  private let error: (any Error)?
  private let hangs: Bool
  private let log: CallLog?
  private let lock = NSLock()
  private var count = 0

  init(_ kind: LyricsSourceKind, _ answer: LyricsResult, log: CallLog? = nil) {
    (self.kind, self.answer, self.error, self.hangs, self.log) = (kind, answer, nil, false, log)
  }

  init(_ kind: LyricsSourceKind, error: any Error) {
    (self.kind, self.answer, self.error, self.hangs, self.log) = (kind, nil, error, false, nil)
  }

  init(_ kind: LyricsSourceKind, hangsIgnoringCancellation: Bool) {
    (self.kind, self.answer, self.error, self.hangs, self.log) = (kind, nil, nil, true, nil)
  }

  /// How many times the source was asked.
  var calls: Int { lock.withLock { count } }

  func lyrics(for query: LyricsQuery) async throws -> LyricsResult {
    lock.withLock { count += 1 }
    log?.append(kind)
    if hangs {
      // Ignores cancellation on purpose (a detached task is not cancelled with its caller),
      // like a network call that never checks; it gives up after 5 s.
      await Task.detached { try? await Task.sleep(nanoseconds: 5_000_000_000) }.value
    }
    if let error { throw error }
    return answer ?? .notFound(reasons: [])
  }
}

/// The order in which stub sources were asked.
private final class CallLog: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [LyricsSourceKind] = []

  func append(_ kind: LyricsSourceKind) { lock.withLock { entries.append(kind) } }
  var kinds: [LyricsSourceKind] { lock.withLock { entries } }
}

/// An error whose description is its text.
private struct StubError: Error, CustomStringConvertible {
  var text: String
  var description: String { text }
}
