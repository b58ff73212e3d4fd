import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainSession

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
}
