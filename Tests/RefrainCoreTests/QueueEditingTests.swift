import RefrainCore
import RefrainTestSupport
import XCTest

/// Editing Refrain's queue while keeping the current track right.
final class QueueEditingTests: XCTestCase {
  private let a = QueueFixture.track("a")
  private let b = QueueFixture.track("b")
  private let c = QueueFixture.track("c")
  private let d = QueueFixture.track("d")
  private let x = QueueFixture.track("x")
  private let y = QueueFixture.track("y")

  // MARK: - Append

  func testAppendAddsAtEnd() {
    var queue = QueueFixture.queue("a", "b")
    queue.append(x)
    XCTAssertEqual(queue.tracks, [a, b, x])
    XCTAssertEqual(queue.current, a)
  }

  func testAppendContentsOfKeepsOrder() {
    var queue = QueueFixture.queue("a")
    queue.append(contentsOf: [x, y])
    XCTAssertEqual(queue.tracks, [a, x, y])
  }

  func testAppendToEmptyQueueLeavesNoCurrentTrack() {
    var queue = PlayQueue()
    queue.append(a)
    XCTAssertNil(queue.current)
    XCTAssertEqual(queue.next(), a)
  }

  func testAppendAfterEndLetsNextContinue() {
    var queue = QueueFixture.queue("a", "b", startAt: 1)
    XCTAssertNil(queue.next())
    queue.append(x)
    XCTAssertEqual(queue.next(), x)
  }

  // MARK: - Insert next

  func testInsertNextPlaysAfterCurrent() {
    var queue = QueueFixture.queue("a", "b", "c")
    queue.insertNext(x)
    XCTAssertEqual(queue.tracks, [a, x, b, c])
    XCTAssertEqual(queue.current, a)
    XCTAssertEqual(queue.next(), x)
    XCTAssertEqual(queue.next(), b)
  }

  func testInsertNextKeepsOrderOfInsertedTracks() {
    var queue = QueueFixture.queue("a", "b", startAt: 1)
    queue.insertNext(contentsOf: [x, y])
    XCTAssertEqual(queue.tracks, [a, b, x, y])
    XCTAssertEqual(queue.next(), x)
    XCTAssertEqual(queue.next(), y)
  }

  func testInsertNextWithoutCurrentGoesToTop() {
    var queue = QueueFixture.queue("a", "b", startAt: nil)
    queue.insertNext(x)
    XCTAssertEqual(queue.tracks, [x, a, b])
    XCTAssertEqual(queue.next(), x)
  }

  // MARK: - Remove

  func testRemoveReturnsRemovedTrack() {
    var queue = QueueFixture.queue("a", "b", "c")
    XCTAssertEqual(queue.remove(at: 1), b)
    XCTAssertEqual(queue.tracks, [a, c])
  }

  func testRemoveBeforeCurrentKeepsCurrentTrack() {
    var queue = QueueFixture.queue("a", "b", "c", startAt: 2)
    queue.remove(at: 0)
    XCTAssertEqual(queue.current, c)
    XCTAssertEqual(queue.currentIndex, 1)
  }

  func testRemoveAfterCurrentKeepsCurrentTrack() {
    var queue = QueueFixture.queue("a", "b", "c")
    queue.remove(at: 2)
    XCTAssertEqual(queue.current, a)
    XCTAssertEqual(queue.currentIndex, 0)
    XCTAssertEqual(queue.next(), b)
    XCTAssertNil(queue.next())
  }

  func testRemoveCurrentMakesFollowingTrackCurrent() {
    var queue = QueueFixture.queue("a", "b", "c", startAt: 1)
    queue.remove(at: 1)
    XCTAssertEqual(queue.current, c)
    XCTAssertEqual(queue.currentIndex, 1)
  }

  func testRemoveCurrentLastTrackLeavesNoCurrent() {
    var queue = QueueFixture.queue("a", "b", startAt: 1)
    queue.remove(at: 1)
    XCTAssertNil(queue.current)
    XCTAssertEqual(queue.tracks, [a])
  }

  func testRemoveCurrentLastTrackWithRepeatAllWrapsToFirst() {
    var queue = QueueFixture.queue("a", "b", startAt: 1, repeatMode: .all)
    queue.remove(at: 1)
    XCTAssertEqual(queue.current, a)
  }

  func testRemoveCurrentSkipsUnplayableSuccessor() {
    var queue = QueueFixture.queue("a", "b", "c")
    queue.markUnplayable(at: 1, reason: "gone")
    queue.remove(at: 0)
    XCTAssertEqual(queue.current, c)
  }

  func testRemoveOnlyTrackEmptiesQueue() {
    var queue = QueueFixture.queue("a", repeatMode: .all)
    queue.remove(at: 0)
    XCTAssertTrue(queue.isEmpty)
    XCTAssertNil(queue.current)
  }

  func testRemoveInvalidIndexReturnsNil() {
    var queue = QueueFixture.queue("a", "b")
    XCTAssertNil(queue.remove(at: 2))
    XCTAssertNil(queue.remove(at: -1))
    XCTAssertEqual(queue.tracks, [a, b])
  }

  func testRemoveOneOfTwoDuplicatesKeepsTheOther() {
    var queue = QueueFixture.queue("a", "b", "a", startAt: 2)
    queue.remove(at: 0)
    XCTAssertEqual(queue.currentIndex, 1)
    XCTAssertEqual(queue.current, a)
  }

  // MARK: - Move

  func testMoveCurrentTrackKeepsItCurrent() {
    var queue = QueueFixture.queue("a", "b", "c", "d")
    queue.move(from: 0, to: 2)
    XCTAssertEqual(queue.tracks, [b, c, a, d])
    XCTAssertEqual(queue.current, a)
    XCTAssertEqual(queue.currentIndex, 2)
  }

  func testMoveTrackFromBeforeToAfterCurrentKeepsCurrent() {
    var queue = QueueFixture.queue("a", "b", "c", "d", startAt: 2)
    queue.move(from: 0, to: 3)
    XCTAssertEqual(queue.tracks, [b, c, d, a])
    XCTAssertEqual(queue.current, c)
    XCTAssertEqual(queue.currentIndex, 1)
  }

  func testMoveTrackFromAfterToBeforeCurrentKeepsCurrent() {
    var queue = QueueFixture.queue("a", "b", "c", "d", startAt: 1)
    queue.move(from: 3, to: 0)
    XCTAssertEqual(queue.tracks, [d, a, b, c])
    XCTAssertEqual(queue.current, b)
    XCTAssertEqual(queue.currentIndex, 2)
  }

  func testMoveChangesWhatPlaysNext() {
    var queue = QueueFixture.queue("a", "b", "c", "d")
    queue.move(from: 3, to: 1)
    XCTAssertEqual(queue.peekNext(), d)
    XCTAssertEqual(queue.next(), d)
  }

  func testMoveKeepsUnplayableMarkWithTrack() {
    var queue = QueueFixture.queue("a", "b", "c")
    queue.markUnplayable(at: 2, reason: "corrupt")
    queue.move(from: 2, to: 1)
    XCTAssertEqual(queue.unplayableReason(at: 1), "corrupt")
    XCTAssertNil(queue.unplayableReason(at: 2))
  }

  func testMoveToSameIndexChangesNothing() {
    var queue = QueueFixture.queue("a", "b")
    XCTAssertTrue(queue.move(from: 1, to: 1))
    XCTAssertEqual(queue.tracks, [a, b])
  }

  func testMoveInvalidIndexChangesNothing() {
    var queue = QueueFixture.queue("a", "b")
    let before = queue
    XCTAssertFalse(queue.move(from: 0, to: 2))
    XCTAssertFalse(queue.move(from: -1, to: 0))
    XCTAssertEqual(queue, before)
  }

  // MARK: - Clear and replace

  func testClearEmptiesQueueAndCurrent() {
    var queue = QueueFixture.queue("a", "b")
    queue.clear()
    XCTAssertTrue(queue.isEmpty)
    XCTAssertNil(queue.current)
    XCTAssertNil(queue.next())
  }

  func testClearKeepsRepeatMode() {
    var queue = QueueFixture.queue("a", repeatMode: .one)
    queue.clear()
    XCTAssertEqual(queue.repeatMode, .one)
  }

  func testReplaceAllSetsTracksAndCurrent() {
    var queue = QueueFixture.queue("a", "b")
    queue.replaceAll(with: [x, y], startAt: 1)
    XCTAssertEqual(queue.tracks, [x, y])
    XCTAssertEqual(queue.current, y)
  }

  func testReplaceAllResetsUnplayableMarks() {
    var queue = QueueFixture.queue("a", "b")
    queue.markUnplayable(at: 0, reason: "gone")
    queue.replaceAll(with: [a, b], startAt: 0)
    XCTAssertNil(queue.unplayableReason(at: 0))
  }
}
