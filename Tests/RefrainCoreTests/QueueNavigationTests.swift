import RefrainCore
import RefrainTestSupport
import XCTest

/// Moving through Refrain's queue: next, previous, peek and repeat.
final class QueueNavigationTests: XCTestCase {
  private let a = QueueFixture.track("a")
  private let b = QueueFixture.track("b")
  private let c = QueueFixture.track("c")

  // MARK: - Starting

  func testNewQueueHasNoCurrentTrack() {
    let queue = PlayQueue()
    XCTAssertNil(queue.current)
    XCTAssertNil(queue.currentIndex)
    XCTAssertTrue(queue.isEmpty)
    XCTAssertEqual(queue.count, 0)
  }

  func testStartAtMakesTrackCurrent() {
    let queue = QueueFixture.queue("a", "b", "c", startAt: 1)
    XCTAssertEqual(queue.current, b)
    XCTAssertEqual(queue.currentIndex, 1)
  }

  func testInvalidStartAtMeansNoCurrentTrack() {
    let queue = QueueFixture.queue("a", "b", startAt: 7)
    XCTAssertNil(queue.current)
  }

  func testTracksAreInAlbumOrder() {
    let queue = QueueFixture.queue("a", "b", "c")
    XCTAssertEqual(queue.tracks, [a, b, c])
    XCTAssertEqual(queue.playOrder, [0, 1, 2])
  }

  func testTrackAtInvalidIndexIsNil() {
    let queue = QueueFixture.queue("a")
    XCTAssertEqual(queue.track(at: 0), a)
    XCTAssertNil(queue.track(at: 1))
    XCTAssertNil(queue.track(at: -1))
  }

  // MARK: - Next

  func testNextWithoutCurrentStartsAtFirstTrack() {
    var queue = QueueFixture.queue("a", "b", startAt: nil)
    XCTAssertEqual(queue.next(), a)
    XCTAssertEqual(queue.currentIndex, 0)
  }

  func testNextAdvancesInAlbumOrder() {
    var queue = QueueFixture.queue("a", "b", "c")
    XCTAssertEqual(queue.next(), b)
    XCTAssertEqual(queue.next(), c)
    XCTAssertEqual(queue.currentIndex, 2)
  }

  func testNextAtEndWithRepeatOffReturnsNil() {
    var queue = QueueFixture.queue("a", "b", startAt: 1)
    XCTAssertNil(queue.next())
  }

  func testNextAtEndWithRepeatOffKeepsCurrentTrack() {
    var queue = QueueFixture.queue("a", "b", startAt: 1)
    queue.next()
    XCTAssertEqual(queue.current, b)
  }

  func testNextAtEndWithRepeatAllWraps() {
    var queue = QueueFixture.queue("a", "b", startAt: 1, repeatMode: .all)
    XCTAssertEqual(queue.next(), a)
    XCTAssertEqual(queue.currentIndex, 0)
  }

  func testNextWithRepeatOneStillAdvances() {
    var queue = QueueFixture.queue("a", "b", repeatMode: .one)
    XCTAssertEqual(queue.next(), b)
  }

  func testNextAtEndWithRepeatOneReturnsNil() {
    var queue = QueueFixture.queue("a", "b", startAt: 1, repeatMode: .one)
    XCTAssertNil(queue.next())
    XCTAssertEqual(queue.current, b)
  }

  func testNextOnEmptyQueueReturnsNil() {
    var queue = PlayQueue(repeatMode: .all)
    XCTAssertNil(queue.next())
  }

  func testSingleTrackWithRepeatAllNextReturnsSameTrack() {
    var queue = QueueFixture.queue("a", repeatMode: .all)
    XCTAssertEqual(queue.next(), a)
    XCTAssertEqual(queue.currentIndex, 0)
  }

  func testDuplicateTracksAreDistinctEntries() {
    var queue = QueueFixture.queue("a", "a", "b")
    XCTAssertEqual(queue.next(), a)
    XCTAssertEqual(queue.currentIndex, 1)
    XCTAssertEqual(queue.next(), b)
  }

  // MARK: - Natural end

  func testNextAfterTrackEndWithRepeatOffAdvances() {
    var queue = QueueFixture.queue("a", "b")
    XCTAssertEqual(queue.nextAfterTrackEnd(), b)
  }

  func testNextAfterTrackEndAtEndWithRepeatOffReturnsNil() {
    var queue = QueueFixture.queue("a", "b", startAt: 1)
    XCTAssertNil(queue.nextAfterTrackEnd())
  }

  func testNextAfterTrackEndAtEndWithRepeatAllWraps() {
    var queue = QueueFixture.queue("a", "b", startAt: 1, repeatMode: .all)
    XCTAssertEqual(queue.nextAfterTrackEnd(), a)
  }

  func testNextAfterTrackEndWithRepeatOneRepeatsCurrent() {
    var queue = QueueFixture.queue("a", "b", repeatMode: .one)
    XCTAssertEqual(queue.nextAfterTrackEnd(), a)
    XCTAssertEqual(queue.currentIndex, 0)
  }

  func testNextAfterTrackEndWithRepeatOneOnLastTrackRepeatsIt() {
    var queue = QueueFixture.queue("a", "b", startAt: 1, repeatMode: .one)
    XCTAssertEqual(queue.nextAfterTrackEnd(), b)
  }

  // MARK: - Previous

  func testPreviousGoesBack() {
    var queue = QueueFixture.queue("a", "b", "c", startAt: 2)
    XCTAssertEqual(queue.previous(), b)
    XCTAssertEqual(queue.previous(), a)
  }

  func testPreviousAtStartWithRepeatOffReturnsNil() {
    var queue = QueueFixture.queue("a", "b")
    XCTAssertNil(queue.previous())
    XCTAssertEqual(queue.current, a)
  }

  func testPreviousAtStartWithRepeatOneReturnsNil() {
    var queue = QueueFixture.queue("a", "b", repeatMode: .one)
    XCTAssertNil(queue.previous())
  }

  func testPreviousAtStartWithRepeatAllWrapsToLast() {
    var queue = QueueFixture.queue("a", "b", "c", repeatMode: .all)
    XCTAssertEqual(queue.previous(), c)
    XCTAssertEqual(queue.currentIndex, 2)
  }

  func testPreviousWithoutCurrentReturnsNil() {
    var queue = QueueFixture.queue("a", "b", startAt: nil)
    XCTAssertNil(queue.previous())
    XCTAssertNil(queue.current)
  }

  // MARK: - Peek

  func testPeekNextDoesNotMove() {
    let queue = QueueFixture.queue("a", "b", "c")
    XCTAssertEqual(queue.peekNext(), b)
    XCTAssertEqual(queue.peekNextIndex(), 1)
    XCTAssertEqual(queue.current, a)
  }

  func testPeekNextAtEndWithRepeatOffIsNil() {
    let queue = QueueFixture.queue("a", "b", startAt: 1)
    XCTAssertNil(queue.peekNext())
    XCTAssertNil(queue.peekNextIndex())
  }

  func testPeekNextAtEndWithRepeatAllIsFirst() {
    let queue = QueueFixture.queue("a", "b", startAt: 1, repeatMode: .all)
    XCTAssertEqual(queue.peekNext(), a)
  }

  func testPeekNextWithRepeatOneIsCurrent() {
    let queue = QueueFixture.queue("a", "b", repeatMode: .one)
    XCTAssertEqual(queue.peekNext(), a)
    XCTAssertEqual(queue.peekNextIndex(), 0)
  }

  func testPeekNextWithoutCurrentIsFirstTrack() {
    let queue = QueueFixture.queue("a", "b", startAt: nil)
    XCTAssertEqual(queue.peekNext(), a)
  }

  func testPeekNextOnEmptyQueueIsNil() {
    XCTAssertNil(PlayQueue(repeatMode: .all).peekNext())
  }

  func testPeekNextMatchesNextAfterTrackEndInEveryMode() {
    for mode in RepeatMode.allCases {
      for shuffled in [false, true] {
        for start in 0..<4 {
          var queue = PlayQueue(
            QueueFixture.tracks("a", "b", "c", "d"), startAt: start, repeatMode: mode,
            random: SeededRandom(seed: 7))
          queue.setShuffle(shuffled)
          queue.markUnplayable(at: 2, reason: "corrupt")
          let peeked = queue.peekNext()
          let peekedIndex = queue.peekNextIndex()
          XCTAssertEqual(
            queue.nextAfterTrackEnd(), peeked, "mode \(mode), shuffled \(shuffled), start \(start)")
          if peeked != nil {
            XCTAssertEqual(queue.currentIndex, peekedIndex)
          }
        }
      }
    }
  }

  // MARK: - Select and rewind

  func testSelectMakesTrackCurrent() {
    var queue = QueueFixture.queue("a", "b", "c")
    XCTAssertEqual(queue.select(at: 2), c)
    XCTAssertEqual(queue.currentIndex, 2)
    XCTAssertEqual(queue.previous(), b)
  }

  func testSelectInvalidIndexReturnsNilAndKeepsCurrent() {
    var queue = QueueFixture.queue("a", "b")
    XCTAssertNil(queue.select(at: 5))
    XCTAssertEqual(queue.current, a)
  }

  func testRewindGoesToFirstTrack() {
    var queue = QueueFixture.queue("a", "b", "c", startAt: 2)
    XCTAssertEqual(queue.rewind(), a)
    XCTAssertEqual(queue.currentIndex, 0)
  }

  func testRewindOnEmptyQueueReturnsNil() {
    var queue = PlayQueue()
    XCTAssertNil(queue.rewind())
  }

  // MARK: - Repeat mode

  func testCycleRepeatGoesOffAllOneOff() {
    var queue = QueueFixture.queue("a")
    XCTAssertEqual(queue.repeatMode, .off)
    queue.cycleRepeat()
    XCTAssertEqual(queue.repeatMode, .all)
    queue.cycleRepeat()
    XCTAssertEqual(queue.repeatMode, .one)
    queue.cycleRepeat()
    XCTAssertEqual(queue.repeatMode, .off)
  }

  func testRepeatModeDescriptionsAreStatusBarLabels() {
    XCTAssertEqual(
      RepeatMode.allCases.map(\.description), ["repeat off", "repeat all", "repeat one"])
  }
}
