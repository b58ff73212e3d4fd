import Foundation
import GRDB
import RefrainCore
import XCTest

@testable import RefrainCatalog
@testable import RefrainScrobble

/// The offline queue of listens, on a real SQLite file.
final class LibraryScrobbleQueueTests: XCTestCase {
  private let start = Date(timeIntervalSince1970: 1_700_000_000)

  private func listen(_ title: String = "Song", at offset: Double = 0) -> Listen {
    var track = Track(
      id: "local:\(title)", location: URL(fileURLWithPath: "/music/\(title).mp3"), title: title,
      artist: "Artist", album: "Album", duration: 200, provider: "local")
    track.queueEntry = 3
    return Listen(
      track: track, listenedAt: start.addingTimeInterval(offset), duration: 200,
      playedSeconds: 100)
  }

  private var later: Date { start.addingTimeInterval(3600) }

  // MARK: - Queuing

  func testEnqueueTwiceKeepsOneRowPerService() throws {
    let store = try LibraryTestSupport.makeStore(self)
    XCTAssertEqual(try store.enqueueListen(listen(), services: [.listenBrainz, .lastFM]), 2)
    XCTAssertEqual(try store.enqueueListen(listen(), services: [.listenBrainz, .lastFM]), 0)
    XCTAssertEqual(
      try store.scrobbleQueue.pendingListens(service: .listenBrainz, limit: 10, now: later).count, 1
    )
    XCTAssertEqual(
      try store.scrobbleQueue.pendingListens(service: .lastFM, limit: 10, now: later).count, 1)
  }

  func testQueuedListenKeepsTheTrack() throws {
    let store = try LibraryTestSupport.makeStore(self)
    try store.enqueueListen(listen(), services: [.lastFM])
    let queued = try store.scrobbleQueue.pendingListens(service: .lastFM, limit: 10, now: later)
    XCTAssertEqual(queued.map(\.title), ["Song"])
    XCTAssertEqual(queued.first?.artist, "Artist")
    XCTAssertEqual(queued.first?.album, "Album")
    XCTAssertEqual(queued.first?.duration, 200)
    XCTAssertEqual(queued.first?.trackKey, "local:Song")
    XCTAssertEqual(queued.first?.listenedAt, 1_700_000_000)
    XCTAssertEqual(queued.first?.attempts, 0)
  }

  func testListenWithoutArtistIsQueuedOnce() throws {
    let store = try LibraryTestSupport.makeStore(self)
    var unknown = listen()
    unknown.track.artist = nil
    unknown.track.album = nil
    try store.enqueueListen(unknown, services: [.listenBrainz])
    try store.enqueueListen(unknown, services: [.listenBrainz])
    let queued = try store.scrobbleQueue.pendingListens(
      service: .listenBrainz, limit: 10, now: later)
    XCTAssertEqual(queued.map(\.artist), [""])
  }

  func testPendingIsOldestFirstAndLimited() throws {
    let store = try LibraryTestSupport.makeStore(self)
    try store.enqueueListen(listen("c", at: 20), services: [.lastFM])
    try store.enqueueListen(listen("a", at: 0), services: [.lastFM])
    try store.enqueueListen(listen("b", at: 10), services: [.lastFM])
    XCTAssertEqual(
      try store.scrobbleQueue.pendingListens(service: .lastFM, limit: 2, now: later).map(\.title),
      ["a", "b"])
  }

  // MARK: - Restarts

  func testReopenedStoreStillHasPendingListens() throws {
    let file = try LibraryTestSupport.temporaryFolder(self).appendingPathComponent("lib.sqlite")
    do {
      let store = try LibraryStore(fileURL: file)
      try store.enqueueListen(listen(), services: [.listenBrainz])
    }
    let reopened = try LibraryStore(fileURL: file)
    XCTAssertEqual(
      try reopened.scrobbleQueue.pendingListens(service: .listenBrainz, limit: 10, now: later).map(
        \.title),
      ["Song"])
    // Queuing it again after the restart still adds nothing.
    XCTAssertEqual(try reopened.enqueueListen(listen(), services: [.listenBrainz]), 0)
  }

  // MARK: - Sending

  func testSentListensAreNeverPendingAgain() throws {
    let store = try LibraryTestSupport.makeStore(self)
    try store.enqueueListen(listen(), services: [.listenBrainz, .lastFM])
    let queued = try store.scrobbleQueue.pendingListens(
      service: .listenBrainz, limit: 10, now: later)
    try store.scrobbleQueue.markSent(ids: queued.map(\.id))
    XCTAssertEqual(
      try store.scrobbleQueue.pendingListens(service: .listenBrainz, limit: 10, now: later), [])
    XCTAssertEqual(
      try store.scrobbleQueue.pendingListens(service: .lastFM, limit: 10, now: later).count, 1)
    XCTAssertEqual(try store.enqueueListen(listen(), services: [.listenBrainz]), 0)
    XCTAssertEqual(
      try store.scrobbleQueue.pendingListens(service: .listenBrainz, limit: 10, now: later), [])
  }

  func testFailedListenWaitsUntilRetryTime() throws {
    let store = try LibraryTestSupport.makeStore(self)
    try store.enqueueListen(listen(), services: [.lastFM])
    let ids = try store.scrobbleQueue.pendingListens(service: .lastFM, limit: 10, now: start).map(
      \.id)
    let retryAt = start.addingTimeInterval(ScrobbleBackoff.delay(afterAttempts: 1))
    try store.scrobbleQueue.markFailed(ids: ids, error: "HTTP 503", retryAt: retryAt)
    XCTAssertEqual(
      try store.scrobbleQueue.pendingListens(
        service: .lastFM, limit: 10, now: retryAt.addingTimeInterval(-1)),
      [])
    let due = try store.scrobbleQueue.pendingListens(service: .lastFM, limit: 10, now: retryAt)
    XCTAssertEqual(due.map(\.attempts), [1])
    XCTAssertEqual(due.map(\.lastError), ["HTTP 503"])
  }

  func testSummaryCountsPerService() throws {
    let store = try LibraryTestSupport.makeStore(self)
    try store.enqueueListen(listen("a"), services: [.listenBrainz, .lastFM])
    try store.enqueueListen(listen("b", at: 10), services: [.lastFM])
    let sent = try store.scrobbleQueue.pendingListens(service: .listenBrainz, limit: 10, now: later)
    try store.scrobbleQueue.markSent(ids: sent.map(\.id))
    let failed = try store.scrobbleQueue.pendingListens(service: .lastFM, limit: 1, now: later)
    try store.scrobbleQueue.markFailed(
      ids: failed.map(\.id), error: "invalid session key", retryAt: later)
    XCTAssertEqual(
      try store.scrobbleQueue.scrobbleQueueSummary(),
      [
        ScrobbleQueueSummary(
          service: .lastFM, pending: 2, sent: 0, lastError: "invalid session key"),
        ScrobbleQueueSummary(service: .listenBrainz, pending: 0, sent: 1, lastError: nil),
      ])
  }

  func testSummaryOfEmptyQueueIsEmpty() throws {
    XCTAssertEqual(try LibraryTestSupport.makeStore(self).scrobbleQueue.scrobbleQueueSummary(), [])
  }
}
