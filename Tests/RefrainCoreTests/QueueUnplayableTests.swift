import RefrainCore
import RefrainTestSupport
import XCTest

/// Tracks that failed: marked with a reason and skipped, never looped over.
final class QueueUnplayableTests: XCTestCase {
  private let a = QueueFixture.track("a")
  private let b = QueueFixture.track("b")
  private let c = QueueFixture.track("c")

  // MARK: - Marking

  func testMarkUnplayableRecordsReason() {
    var queue = QueueFixture.queue("a", "b")
    queue.markUnplayable(at: 1, reason: "File not found: check the path")
    XCTAssertEqual(queue.unplayableReason(at: 1), "File not found: check the path")
    XCTAssertFalse(queue.isPlayable(at: 1))
    XCTAssertTrue(queue.isPlayable(at: 0))
  }

  func testMarkUnplayableInvalidIndexIsIgnored() {
    var queue = QueueFixture.queue("a")
    let before = queue
    queue.markUnplayable(at: 3, reason: "nope")
    XCTAssertEqual(queue, before)
    XCTAssertFalse(queue.isPlayable(at: 3))
    XCTAssertNil(queue.unplayableReason(at: 3))
  }

  func testSelectClearsUnplayableMark() {
    var queue = QueueFixture.queue("a", "b")
    queue.markUnplayable(at: 1, reason: "timeout")
    XCTAssertEqual(queue.select(at: 1), b)
    XCTAssertTrue(queue.isPlayable(at: 1))
  }

  // MARK: - Skipping

  func testNextSkipsUnplayableTrack() {
    var queue = QueueFixture.queue("a", "b", "c")
    queue.markUnplayable(at: 1, reason: "corrupt")
    XCTAssertEqual(queue.next(), c)
  }

  func testPreviousSkipsUnplayableTrack() {
    var queue = QueueFixture.queue("a", "b", "c", startAt: 2)
    queue.markUnplayable(at: 1, reason: "corrupt")
    XCTAssertEqual(queue.previous(), a)
  }

  func testPeekNextSkipsUnplayableTrack() {
    var queue = QueueFixture.queue("a", "b", "c")
    queue.markUnplayable(at: 1, reason: "corrupt")
    XCTAssertEqual(queue.peekNext(), c)
    XCTAssertEqual(queue.peekNextIndex(), 2)
  }

  func testNextWithOnlyUnplayableTracksLeftReturnsNil() {
    var queue = QueueFixture.queue("a", "b", "c")
    queue.markUnplayable(at: 1, reason: "corrupt")
    queue.markUnplayable(at: 2, reason: "corrupt")
    XCTAssertNil(queue.next())
    XCTAssertEqual(queue.current, a)
  }

  func testNextWithRepeatAllSkipsUnplayableWhenWrapping() {
    var queue = QueueFixture.queue("a", "b", "c", startAt: 2, repeatMode: .all)
    queue.markUnplayable(at: 0, reason: "corrupt")
    XCTAssertEqual(queue.next(), b)
  }

  func testNextWhenAllUnplayableReturnsNil() {
    var queue = QueueFixture.queue("a", "b", "c")
    for index in 0..<3 { queue.markUnplayable(at: index, reason: "corrupt") }
    XCTAssertNil(queue.next())
    XCTAssertNil(queue.peekNext())
  }

  func testNextWhenAllUnplayableWithRepeatAllReturnsNil() {
    var queue = QueueFixture.queue("a", "b", "c", repeatMode: .all)
    for index in 0..<3 { queue.markUnplayable(at: index, reason: "corrupt") }
    XCTAssertNil(queue.next())
    XCTAssertNil(queue.previous())
    XCTAssertNil(queue.nextAfterTrackEnd())
    XCTAssertNil(queue.peekNext())
  }

  func testNextWhenAllUnplayableWithoutCurrentReturnsNil() {
    var queue = QueueFixture.queue("a", "b", startAt: nil, repeatMode: .all)
    queue.markUnplayable(at: 0, reason: "corrupt")
    queue.markUnplayable(at: 1, reason: "corrupt")
    XCTAssertNil(queue.next())
    XCTAssertNil(queue.rewind())
  }

  func testRepeatAllWithOnlyCurrentPlayableReturnsCurrent() {
    var queue = QueueFixture.queue("a", "b", "c", startAt: 1, repeatMode: .all)
    queue.markUnplayable(at: 0, reason: "corrupt")
    queue.markUnplayable(at: 2, reason: "corrupt")
    XCTAssertEqual(queue.next(), b)
  }

  func testRepeatOneWithUnplayableCurrentMovesOnAtTrackEnd() {
    var queue = QueueFixture.queue("a", "b", repeatMode: .one)
    queue.markUnplayable(at: 0, reason: "corrupt")
    XCTAssertEqual(queue.peekNext(), b)
    XCTAssertEqual(queue.nextAfterTrackEnd(), b)
  }

  func testRewindSkipsUnplayableTracks() {
    var queue = QueueFixture.queue("a", "b", "c", startAt: 2)
    queue.markUnplayable(at: 0, reason: "corrupt")
    XCTAssertEqual(queue.rewind(), b)
  }

  func testLargeAllUnplayableQueueTerminates() {
    var queue = PlayQueue(QueueFixture.numbered(5_000), startAt: 0, repeatMode: .all)
    for index in 0..<5_000 { queue.markUnplayable(at: index, reason: "offline") }
    XCTAssertNil(queue.next())
    XCTAssertNil(queue.previous())
  }
}
