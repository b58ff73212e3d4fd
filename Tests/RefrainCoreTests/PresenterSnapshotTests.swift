import RefrainCore
import RefrainTestSupport
import XCTest

/// Snapshots for Refrain's panes, and redrawing only on change.
final class PresenterSnapshotTests: XCTestCase {
  private let a = QueueFixture.track("a")
  private let b = QueueFixture.track("b")

  // MARK: - Contents

  func testSnapshotOfIdlePresenter() {
    let presenter = PlaybackPresenter(player: FakePlayer(), volume: 60)
    let expected = PlaybackSnapshot(
      state: .idle, track: nil, index: nil, queueCount: 0, position: 0, duration: nil,
      volume: 60, isShuffled: false, repeatMode: .off, lastError: nil, warning: nil,
      isFinished: false)
    XCTAssertEqual(presenter.snapshot, expected)
  }

  func testSnapshotReflectsPlayingTrack() {
    let (presenter, player) = PresenterFixture.playing("a", "b", startAt: 1, repeatMode: .all)
    presenter.toggleShuffle()
    presenter.setVolume(80)
    player.position = 12.5
    let expected = PlaybackSnapshot(
      state: .playing, track: b, index: 1, queueCount: 2, position: 12.5, duration: 180,
      volume: 80, isShuffled: true, repeatMode: .all, lastError: nil, warning: nil,
      isFinished: false)
    XCTAssertEqual(presenter.snapshot, expected)
  }

  func testSnapshotPositionComesFromPlayer() {
    let (presenter, player) = PresenterFixture.playing("a")
    player.position = 42.25
    XCTAssertEqual(presenter.snapshot.position, 42.25)
  }

  func testSnapshotPositionIsZeroWhenStopped() {
    let (presenter, player) = PresenterFixture.playing("a")
    player.position = 42
    presenter.stop()
    XCTAssertEqual(presenter.snapshot.position, 0)
    XCTAssertEqual(presenter.snapshot.state, .stopped)
  }

  func testSnapshotAfterFinishIsStoppedAndFinished() {
    let (presenter, _) = PresenterFixture.playing("a")
    presenter.handle(.trackEnded(a))
    XCTAssertEqual(presenter.snapshot.state, .stopped)
    XCTAssertTrue(presenter.snapshot.isFinished)
  }

  // MARK: - Change tracking

  func testVersionGrowsOnChange() {
    let (presenter, _) = PresenterFixture.playing("a")
    let version = presenter.version
    presenter.pause()
    XCTAssertEqual(presenter.version, version + 1)
  }

  func testVersionStaysWhenNothingChanged() {
    let (presenter, _) = PresenterFixture.playing("a")
    let version = presenter.version
    presenter.resume()
    presenter.setVolume(100)
    presenter.next()
    XCTAssertEqual(presenter.version, version)
  }

  func testPositionAloneIsNotAChange() {
    let (presenter, player) = PresenterFixture.playing("a")
    let version = presenter.version
    player.position = 99
    presenter.handlePendingEvents()
    XCTAssertEqual(presenter.version, version)
  }

  func testSeekCountsAsChange() {
    let (presenter, _) = PresenterFixture.playing("a")
    let version = presenter.version
    presenter.seek(to: 10)
    presenter.seek(to: 10)
    XCTAssertEqual(presenter.version, version + 2)
  }

  func testQueueMoveCountsAsChange() {
    let (presenter, _) = PresenterFixture.playing("a", "b", "c")
    let version = presenter.version
    presenter.moveInQueue(from: 1, to: 2)
    XCTAssertEqual(presenter.version, version + 1)
  }

  func testRepeatedFailureWithSameMessageCountsAsChange() {
    let (presenter, _) = PresenterFixture.playing("a", "a", "a")
    presenter.handle(.failed(a, message: "offline"))
    let version = presenter.version
    presenter.handle(.failed(a, message: "offline"))
    XCTAssertGreaterThan(presenter.version, version)
  }

  func testOnChangeReceivesNewSnapshot() {
    let (presenter, _) = PresenterFixture.playing("a")
    var received: [PlaybackSnapshot] = []
    presenter.onChange = { received.append($0) }
    presenter.setVolume(30)
    XCTAssertEqual(received.map(\.volume), [30])
    XCTAssertEqual(received.last, presenter.snapshot)
  }

  func testOnChangeNotCalledForNoOp() {
    let (presenter, _) = PresenterFixture.playing("a")
    var calls = 0
    presenter.onChange = { _ in calls += 1 }
    presenter.resume()
    presenter.setVolume(100)
    presenter.handle(.trackEnded(b))
    presenter.handle(.started(b, duration: 10))
    XCTAssertEqual(calls, 0)
  }

  func testOnChangeCalledOncePerCommand() {
    let (presenter, _) = PresenterFixture.playing("a", "b")
    var states: [PlayerState] = []
    presenter.onChange = { states.append($0.state) }
    presenter.next()
    presenter.handle(.started(b, duration: 180))
    XCTAssertEqual(states, [.loading, .playing])
  }
}
