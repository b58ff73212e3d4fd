import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainSession

/// Editing the queue through the presenter while Refrain plays.
final class PresenterQueueTests: XCTestCase {
  private let a = QueueFixture.track("a")
  private let b = QueueFixture.track("b")
  private let c = QueueFixture.track("c")
  private let x = QueueFixture.track("x")

  // MARK: - Adding

  func testEnqueueOnLastTrackPreparesAddedTrack() {
    let (presenter, player) = PresenterFixture.playing("a")
    presenter.enqueue([x])
    XCTAssertEqual(player.calls, [.prepareNext(x)])
    XCTAssertEqual(presenter.queue.tracks, [a, x])
  }

  func testEnqueueBehindSuccessorKeepsPreparedTrack() {
    let (presenter, player) = PresenterFixture.playing("a", "b")
    presenter.enqueue([x])
    XCTAssertEqual(player.calls, [])
  }

  func testEnqueueNextPreparesInsertedTrack() {
    let (presenter, player) = PresenterFixture.playing("a", "b")
    presenter.enqueueNext([x])
    XCTAssertEqual(player.calls, [.prepareNext(x)])
    presenter.handle(.trackEnded(a))
    XCTAssertEqual(presenter.queue.current, x)
    XCTAssertEqual(player.played, [])
  }

  func testEnqueueAfterFinishThenPlayStartsAtTop() {
    let (presenter, player) = PresenterFixture.playing("a")
    presenter.handle(.trackEnded(a))
    presenter.enqueue([x])
    XCTAssertEqual(player.calls, [.stop])
    presenter.togglePlay()
    XCTAssertEqual(player.played, [a])
  }

  // MARK: - Jumping

  func testJumpPlaysPickedTrack() {
    let (presenter, player) = PresenterFixture.playing("a", "b", "c")
    presenter.jump(to: 2)
    XCTAssertEqual(player.calls, [.prepareNext(nil), .play(c, startAt: 0)])
    XCTAssertEqual(presenter.queue.current, c)
  }

  func testJumpToInvalidIndexDoesNothing() {
    let (presenter, player) = PresenterFixture.playing("a", "b")
    presenter.jump(to: 5)
    XCTAssertEqual(player.calls, [])
    XCTAssertEqual(presenter.queue.current, a)
  }

  func testJumpRetriesFailedTrack() {
    let (presenter, player) = PresenterFixture.playing("a", "b")
    presenter.handle(.failed(a, message: "timeout"))
    presenter.jump(to: 0)
    XCTAssertEqual(player.played.last, a)
    XCTAssertTrue(presenter.queue.isPlayable(at: 0))
  }

  // MARK: - Removing

  func testRemovePreparedTrackPreparesTheOneAfter() {
    let (presenter, player) = PresenterFixture.playing("a", "b", "c")
    presenter.removeFromQueue(at: 1)
    XCTAssertEqual(player.calls, [.prepareNext(c)])
  }

  func testRemoveEarlierTrackKeepsPlaying() {
    let (presenter, player) = PresenterFixture.playing("a", "b", "c", startAt: 1)
    presenter.removeFromQueue(at: 0)
    XCTAssertEqual(player.calls, [])
    XCTAssertEqual(presenter.queue.currentIndex, 0)
    XCTAssertEqual(presenter.snapshot.index, 0)
  }

  func testRemovePlayingTrackPlaysNext() {
    let (presenter, player) = PresenterFixture.playing("a", "b", "c")
    presenter.removeFromQueue(at: 0)
    XCTAssertEqual(player.played, [b])
    XCTAssertEqual(presenter.queue.current, b)
  }

  func testRemovePlayingLastTrackStops() {
    let (presenter, player) = PresenterFixture.playing("a", "b", startAt: 1)
    presenter.removeFromQueue(at: 1)
    XCTAssertEqual(player.calls, [.stop])
    XCTAssertEqual(presenter.state, .stopped)
    XCTAssertFalse(presenter.isFinished)
  }

  func testRemoveCurrentWhileStoppedDoesNotStartPlayback() {
    let (presenter, player) = PresenterFixture.playing("a", "b")
    presenter.stop()
    player.resetCalls()
    presenter.removeFromQueue(at: 0)
    XCTAssertEqual(player.calls, [])
    XCTAssertEqual(presenter.queue.current, b)
  }

  func testRemoveInvalidIndexDoesNothing() {
    let (presenter, player) = PresenterFixture.playing("a")
    let before = presenter.snapshot
    presenter.removeFromQueue(at: 3)
    XCTAssertEqual(player.calls, [])
    XCTAssertEqual(presenter.snapshot, before)
  }

  // MARK: - Moving and clearing

  func testMoveInQueueUpdatesPreparedSuccessor() {
    let (presenter, player) = PresenterFixture.playing("a", "b", "c")
    presenter.moveInQueue(from: 2, to: 0)
    XCTAssertEqual(presenter.queue.tracks, [c, a, b])
    XCTAssertEqual(presenter.queue.current, a)
    XCTAssertEqual(player.calls, [])
    presenter.moveInQueue(from: 2, to: 0)
    XCTAssertEqual(presenter.queue.tracks, [b, c, a])
    XCTAssertEqual(player.calls, [.prepareNext(nil)])
  }

  func testMovePlayingTrackKeepsItPlaying() {
    let (presenter, player) = PresenterFixture.playing("a", "b", "c")
    presenter.moveInQueue(from: 0, to: 2)
    XCTAssertEqual(presenter.queue.current, a)
    XCTAssertEqual(presenter.state, .playing)
    XCTAssertEqual(player.played, [])
  }

  func testClearQueueStops() {
    let (presenter, player) = PresenterFixture.playing("a", "b")
    presenter.clearQueue()
    XCTAssertEqual(player.calls, [.stop])
    XCTAssertTrue(presenter.queue.isEmpty)
    XCTAssertNil(presenter.snapshot.track)
  }
}
