import RefrainCore
import RefrainTestSupport
import XCTest

/// Shuffle in Refrain's queue: seeded, stable and kind to the current track.
final class QueueShuffleTests: XCTestCase {
  private func shuffledQueue(
    count: Int = 20, startAt: Int? = 0, seed: UInt64 = 42, repeatMode: RepeatMode = .off
  ) -> PlayQueue {
    var queue = PlayQueue(
      QueueFixture.numbered(count), startAt: startAt, repeatMode: repeatMode,
      random: SeededRandom(seed: seed))
    queue.setShuffle(true)
    return queue
  }

  // MARK: - Turning shuffle on

  func testShuffleKeepsCurrentTrackCurrent() {
    let queue = shuffledQueue(startAt: 5)
    XCTAssertTrue(queue.isShuffled)
    XCTAssertEqual(queue.currentIndex, 5)
  }

  func testShuffleOrderStartsWithCurrentTrack() {
    let queue = shuffledQueue(startAt: 5)
    XCTAssertEqual(queue.playOrder.first, 5)
  }

  func testShuffleOrderIsPermutationOfAllTracks() {
    let queue = shuffledQueue()
    XCTAssertEqual(queue.playOrder.sorted(), Array(0..<20))
  }

  func testShuffleChangesOrder() {
    XCTAssertNotEqual(shuffledQueue().playOrder, Array(0..<20))
  }

  func testShuffleWithSameSeedGivesSameOrder() {
    XCTAssertEqual(shuffledQueue(seed: 9).playOrder, shuffledQueue(seed: 9).playOrder)
  }

  func testShuffleWithDifferentSeedsGivesDifferentOrders() {
    XCTAssertNotEqual(shuffledQueue(seed: 1).playOrder, shuffledQueue(seed: 2).playOrder)
  }

  func testSetShuffleWhenAlreadyOnKeepsOrder() {
    var queue = shuffledQueue()
    let order = queue.playOrder
    queue.setShuffle(true)
    XCTAssertEqual(queue.playOrder, order)
  }

  func testShuffleWithoutCurrentTrackStartsAtTopOfPlayOrder() {
    var queue = shuffledQueue(startAt: nil)
    let first = queue.playOrder[0]
    queue.next()
    XCTAssertEqual(queue.currentIndex, first)
  }

  // MARK: - Playing shuffled

  func testShuffledNextFollowsPlayOrder() {
    var queue = shuffledQueue()
    let order = queue.playOrder
    for expected in order.dropFirst() {
      queue.next()
      XCTAssertEqual(queue.currentIndex, expected)
    }
  }

  func testShuffledQueuePlaysEveryTrackOnceBeforeEnd() {
    var queue = shuffledQueue(startAt: 3)
    var seen = [queue.currentIndex]
    while queue.next() != nil { seen.append(queue.currentIndex) }
    XCTAssertEqual(seen.compactMap { $0 }.sorted(), Array(0..<20))
  }

  func testShuffledRepeatAllWrapsToSameOrder() {
    var queue = shuffledQueue(repeatMode: .all)
    let order = queue.playOrder
    for _ in 0..<20 { queue.next() }
    XCTAssertEqual(queue.currentIndex, order[0])
    XCTAssertEqual(queue.playOrder, order)
  }

  func testShuffledPreviousWalksBackThroughPlayOrder() {
    var queue = shuffledQueue()
    let order = queue.playOrder
    queue.next()
    queue.next()
    XCTAssertEqual(queue.previous(), queue.track(at: order[1]))
    XCTAssertEqual(queue.previous(), queue.track(at: order[0]))
    XCTAssertNil(queue.previous())
  }

  func testShuffledPeekNextIsNextInPlayOrder() {
    let queue = shuffledQueue()
    XCTAssertEqual(queue.peekNextIndex(), queue.playOrder[1])
  }

  func testShuffleOrderIsStableWhileNavigating() {
    var queue = shuffledQueue()
    let order = queue.playOrder
    queue.next()
    queue.previous()
    queue.nextAfterTrackEnd()
    XCTAssertEqual(queue.playOrder, order)
  }

  // MARK: - Turning shuffle off

  func testUnshuffleKeepsCurrentTrack() {
    var queue = shuffledQueue()
    queue.next()
    queue.next()
    let current = queue.current
    queue.setShuffle(false)
    XCTAssertFalse(queue.isShuffled)
    XCTAssertEqual(queue.current, current)
  }

  func testUnshuffleReturnsToAlbumOrderFromCurrentTrack() {
    var queue = shuffledQueue()
    queue.next()
    let index = queue.currentIndex ?? -1
    queue.toggleShuffle()
    XCTAssertEqual(queue.playOrder, Array(0..<20))
    XCTAssertEqual(queue.next(), queue.track(at: index + 1))
  }

  // MARK: - Editing while shuffled

  func testSelectWhileShuffledPutsPickedTrackFirst() {
    var queue = shuffledQueue()
    queue.select(at: 11)
    XCTAssertEqual(queue.playOrder.first, 11)
    XCTAssertEqual(queue.playOrder.sorted(), Array(0..<20))
  }

  func testAppendWhileShuffledPlacesTrackAmongUpcoming() {
    var queue = shuffledQueue(startAt: 0)
    queue.next()
    queue.next()
    let extra = QueueFixture.track("extra")
    queue.append(extra)
    let order = queue.playOrder
    let extraPosition = order.firstIndex(of: 20) ?? -1
    let currentPosition = order.firstIndex(of: queue.currentIndex ?? -1) ?? -1
    XCTAssertGreaterThan(extraPosition, currentPosition)
    XCTAssertEqual(order.sorted(), Array(0...20))
  }

  func testAppendWhileShuffledKeepsExistingRelativeOrder() {
    var queue = shuffledQueue()
    let before = queue.playOrder
    queue.append(contentsOf: QueueFixture.tracks("x", "y"))
    XCTAssertEqual(queue.playOrder.filter { $0 < 20 }, before)
  }

  func testInsertNextWhileShuffledPlaysNext() {
    var queue = shuffledQueue()
    let extra = QueueFixture.track("extra")
    queue.insertNext(extra)
    XCTAssertEqual(queue.peekNext(), extra)
    XCTAssertEqual(queue.next(), extra)
  }

  func testRemoveWhileShuffledKeepsRestOfOrder() {
    var queue = shuffledQueue()
    let before = queue.playOrder.compactMap { queue.track(at: $0) }
    let removed = queue.remove(at: queue.playOrder[4])
    let after = queue.playOrder.compactMap { queue.track(at: $0) }
    XCTAssertEqual(after, before.filter { $0 != removed })
  }

  func testMoveWhileShuffledKeepsPlayOrder() {
    var queue = shuffledQueue()
    let before = queue.playOrder.compactMap { queue.track(at: $0) }
    queue.move(from: 0, to: 19)
    let after = queue.playOrder.compactMap { queue.track(at: $0) }
    XCTAssertEqual(after, before)
  }

  func testReplaceAllWhileShuffledStartsWithChosenTrack() {
    var queue = shuffledQueue()
    queue.replaceAll(with: QueueFixture.numbered(10), startAt: 4)
    XCTAssertTrue(queue.isShuffled)
    XCTAssertEqual(queue.currentIndex, 4)
    XCTAssertEqual(queue.playOrder.first, 4)
    XCTAssertEqual(queue.playOrder.sorted(), Array(0..<10))
  }

  func testClearWhileShuffledKeepsShuffleOn() {
    var queue = shuffledQueue()
    queue.clear()
    XCTAssertTrue(queue.isShuffled)
    queue.append(contentsOf: QueueFixture.numbered(3))
    XCTAssertEqual(queue.playOrder.sorted(), [0, 1, 2])
  }

  // MARK: - Seeded generator

  func testSeededRandomIsDeterministic() {
    var first = SeededRandom(seed: 123)
    var second = SeededRandom(seed: 123)
    let a = (0..<5).map { _ in first.next() }
    let b = (0..<5).map { _ in second.next() }
    XCTAssertEqual(a, b)
    XCTAssertEqual(Set(a).count, 5)
  }

  func testSeededRandomDiffersBySeed() {
    var first = SeededRandom(seed: 1)
    var second = SeededRandom(seed: 2)
    XCTAssertNotEqual(first.next(), second.next())
  }
}
