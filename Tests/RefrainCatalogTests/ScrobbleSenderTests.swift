import Foundation
import RefrainCore
import XCTest

@testable import RefrainCatalog
@testable import RefrainScrobble

/// A client that records what it was sent and fails as told.
final class FakeScrobbleClient: ScrobbleClient, @unchecked Sendable {
  let service: ScrobbleService
  let batchSize: Int
  private let lock = NSLock()
  private var failures: [ScrobbleFailure?]
  private var batches: [[QueuedListen]] = []
  private var announced: [NowPlaying] = []

  init(_ service: ScrobbleService, batchSize: Int = 50, failures: [ScrobbleFailure?] = []) {
    self.service = service
    self.batchSize = batchSize
    self.failures = failures
  }

  var sentBatches: [[QueuedListen]] { lock.withLock { batches } }
  var announcements: [NowPlaying] { lock.withLock { announced } }

  func nowPlaying(_ nowPlaying: NowPlaying) async throws(ScrobbleFailure) {
    lock.withLock { announced.append(nowPlaying) }
  }

  func submit(_ listens: [QueuedListen]) async throws(ScrobbleFailure) -> ScrobbleReceipt {
    let failure: ScrobbleFailure? = lock.withLock {
      let next = failures.isEmpty ? nil : failures.removeFirst()
      if next == nil { batches.append(listens) }
      return next
    }
    if let failure { throw failure }
    return ScrobbleReceipt()
  }
}

/// The send loop over a real library file.
final class ScrobbleSenderTests: XCTestCase {
  private let start = Date(timeIntervalSince1970: 1_700_000_000)

  private func listen(_ title: String, at offset: Double) -> Listen {
    let track = Track(
      id: "local:\(title)", location: URL(fileURLWithPath: "/music/\(title).mp3"), title: title,
      artist: "Artist", album: "Album", duration: 200, provider: "local")
    return Listen(
      track: track, listenedAt: start.addingTimeInterval(offset), duration: 200,
      playedSeconds: 100)
  }

  func testFlushSendsOldestFirstInBatchesAndMarksThemSent() async throws {
    let store = try LibraryTestSupport.makeStore(self)
    for (index, title) in ["c", "a", "b"].enumerated() {
      try store.enqueueListen(listen(title, at: Double(3 - index) * 60), services: [.lastFM])
    }
    let client = FakeScrobbleClient(.lastFM, batchSize: 2)
    let now = start.addingTimeInterval(1000)
    let sender = ScrobbleSender(store: store, clients: [client], lockFile: nil, now: { now })
    let reports = await sender.flush()
    XCTAssertEqual(client.sentBatches.map { $0.map(\.title) }, [["b", "a"], ["c"]])
    XCTAssertEqual(reports.first?.sent.count, 3)
    XCTAssertNil(reports.first?.failure)
    XCTAssertEqual(try store.scrobbleQueue.scrobbleQueueSummary().first?.pending, 0)
    // Sent listens are never sent again.
    _ = await sender.flush()
    XCTAssertEqual(client.sentBatches.count, 2)
  }

  func testFailureIsRecordedWithBackoffAndStopsTheService() async throws {
    let store = try LibraryTestSupport.makeStore(self)
    try store.enqueueListen(listen("a", at: 0), services: [.listenBrainz])
    let client = FakeScrobbleClient(
      .listenBrainz, failures: [.failed(service: .listenBrainz, detail: "down")])
    let now = start.addingTimeInterval(1000)
    let sender = ScrobbleSender(store: store, clients: [client], lockFile: nil, now: { now })
    let reports = await sender.flush()
    XCTAssertEqual(reports.first?.failure, .failed(service: .listenBrainz, detail: "down"))
    XCTAssertTrue(client.sentBatches.isEmpty)
    XCTAssertTrue(
      try store.scrobbleQueue.pendingListens(service: .listenBrainz, limit: 5, now: now).isEmpty)
    let retry = now.addingTimeInterval(ScrobbleBackoff.delay(afterAttempts: 1))
    let due = try store.scrobbleQueue.pendingListens(service: .listenBrainz, limit: 5, now: retry)
    XCTAssertEqual(due.map(\.attempts), [1])
    XCTAssertEqual(try store.scrobbleQueue.nextListenDue(services: [.listenBrainz]), retry)
    // flush sends it whatever the backoff says.
    _ = await sender.flush()
    XCTAssertEqual(client.sentBatches.map { $0.map(\.title) }, [["a"]])
  }

  func testRateLimitHoldsTheServiceWithoutCountingAnAttempt() async throws {
    let store = try LibraryTestSupport.makeStore(self)
    try store.enqueueListen(listen("a", at: 0), services: [.listenBrainz])
    let client = FakeScrobbleClient(
      .listenBrainz, failures: [.rateLimited(service: .listenBrainz, retryIn: 30)])
    let now = start.addingTimeInterval(1000)
    let sender = ScrobbleSender(store: store, clients: [client], lockFile: nil, now: { now })
    _ = await sender.flush()
    let pending = try store.scrobbleQueue.pendingListens(service: .listenBrainz, limit: 5, now: now)
    XCTAssertEqual(pending.map(\.attempts), [0])
    let again = await sender.flush()
    XCTAssertEqual(again.first?.failure, .rateLimited(service: .listenBrainz, retryIn: 30))
    XCTAssertTrue(client.sentBatches.isEmpty)
  }

  func testBackgroundRoundSendsAfterAListenIsQueued() throws {
    let store = try LibraryTestSupport.makeStore(self)
    let client = FakeScrobbleClient(.listenBrainz)
    let sender = ScrobbleSender(
      store: store, clients: [client],
      lockFile: try LibraryTestSupport.temporaryFolder(self).appendingPathComponent("lock"))
    try store.enqueueListen(listen("a", at: 0), services: [.listenBrainz, .lastFM])
    sender.listensQueued()
    let deadline = Date().addingTimeInterval(5)
    while client.sentBatches.isEmpty, Date() < deadline { usleep(10_000) }
    XCTAssertTrue(sender.waitUntilIdle(seconds: 5))
    XCTAssertEqual(client.sentBatches.map { $0.map(\.title) }, [["a"]])
    // The Last.fm row waits for a Last.fm client; it is not this sender's.
    XCTAssertEqual(try store.scrobbleQueue.scrobbleQueueSummary().map(\.pending), [1, 0])
    XCTAssertFalse(sender.isRetryScheduled, "nothing waits for this sender: no timer")
  }

  func testAFailedBackgroundSendLeavesOneRetryTimer() throws {
    let store = try LibraryTestSupport.makeStore(self)
    let client = FakeScrobbleClient(
      .listenBrainz, failures: [.failed(service: .listenBrainz, detail: "down")])
    let sender = ScrobbleSender(store: store, clients: [client], lockFile: nil)
    XCTAssertFalse(sender.isRetryScheduled)
    try store.enqueueListen(listen("a", at: 0), services: [.listenBrainz])
    sender.listensQueued()
    let deadline = Date().addingTimeInterval(5)
    while !sender.isRetryScheduled, Date() < deadline { usleep(10_000) }
    XCTAssertTrue(sender.waitUntilIdle(seconds: 5))
    XCTAssertTrue(sender.isRetryScheduled, "the failed listen is due again later")
    XCTAssertTrue(client.sentBatches.isEmpty)
  }
}
