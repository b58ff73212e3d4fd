import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainSession

/// Seeking, volume, shuffle and repeat: commands that adjust what plays.
final class PresenterAdjustmentTests: XCTestCase {
  private let a = QueueFixture.track("a")
  private let b = QueueFixture.track("b")
  private let c = QueueFixture.track("c")

  // MARK: - Seeking

  func testSeekToMovesPosition() {
    let (presenter, player) = PresenterFixture.playing("a")
    presenter.seek(to: 61.5)
    XCTAssertEqual(player.calls, [.seek(61.5)])
  }

  func testSeekToClampsToDuration() {
    let (presenter, player) = PresenterFixture.playing("a")
    presenter.seek(to: 999)
    XCTAssertEqual(player.lastSeek, 180)
  }

  func testSeekToClampsToZero() {
    let (presenter, player) = PresenterFixture.playing("a")
    presenter.seek(to: -5)
    XCTAssertEqual(player.lastSeek, 0)
  }

  func testSeekByAddsToPosition() {
    let (presenter, player) = PresenterFixture.playing("a")
    player.position = 30
    presenter.seek(by: 5)
    XCTAssertEqual(player.lastSeek, 35)
    // The player is now at 35, where the first seek landed.
    presenter.seek(by: -10)
    XCTAssertEqual(player.lastSeek, 25)
  }

  func testSeekByClampsBelowZero() {
    let (presenter, player) = PresenterFixture.playing("a")
    player.position = 3
    presenter.seek(by: -10)
    XCTAssertEqual(player.lastSeek, 0)
  }

  func testSeekByClampsAboveDuration() {
    let (presenter, player) = PresenterFixture.playing("a")
    player.position = 178
    presenter.seek(by: 10)
    XCTAssertEqual(player.lastSeek, 180)
  }

  func testSeekUsesDurationFromStartedEvent() {
    let player = FakePlayer()
    let presenter = PlaybackPresenter(player: player)
    presenter.playSingle(a)
    presenter.handle(.started(a, duration: 30))
    presenter.seek(to: 100)
    XCTAssertEqual(player.lastSeek, 30)
  }

  func testSeekWithoutKnownDurationOnlyClampsBelow() {
    let stream = QueueFixture.track("stream", duration: nil)
    let player = FakePlayer()
    let presenter = PlaybackPresenter(player: player)
    presenter.playSingle(stream)
    presenter.handle(.started(stream, duration: nil))
    presenter.seek(to: 5_000)
    XCTAssertEqual(player.lastSeek, 5_000)
    presenter.seek(to: -1)
    XCTAssertEqual(player.lastSeek, 0)
  }

  func testSeekWhenStoppedDoesNothing() {
    let (presenter, player) = PresenterFixture.playing("a")
    presenter.stop()
    player.resetCalls()
    presenter.seek(to: 10)
    presenter.seek(by: 5)
    XCTAssertEqual(player.calls, [])
  }

  func testSeekWhileLoadingDoesNothing() {
    let player = FakePlayer()
    let presenter = PlaybackPresenter(player: player)
    presenter.playSingle(a)
    player.resetCalls()
    presenter.seek(to: 10)
    XCTAssertEqual(player.calls, [])
  }

  func testSeekWhilePausedSeeks() {
    let (presenter, player) = PresenterFixture.playing("a")
    presenter.pause()
    presenter.seek(to: 12)
    XCTAssertEqual(player.lastSeek, 12)
    XCTAssertEqual(presenter.state, .paused)
  }

  // MARK: - Volume

  func testSetVolumeSendsToPlayer() {
    let (presenter, player) = PresenterFixture.playing("a")
    presenter.setVolume(35)
    XCTAssertEqual(player.calls, [.setVolume(35)])
    XCTAssertEqual(presenter.volume, 35)
  }

  func testSetVolumeClampsTo100() {
    let (presenter, player) = PresenterFixture.playing("a")
    presenter.setVolume(250)
    XCTAssertEqual(presenter.volume, 100)
    XCTAssertEqual(player.lastVolume, 100)
  }

  func testSetVolumeClampsToZero() {
    let (presenter, player) = PresenterFixture.playing("a")
    presenter.setVolume(-20)
    XCTAssertEqual(presenter.volume, 0)
    XCTAssertEqual(player.lastVolume, 0)
  }

  func testAdjustVolumeStepsAndClamps() {
    let (presenter, _) = PresenterFixture.playing("a")
    presenter.adjustVolume(by: -30)
    XCTAssertEqual(presenter.volume, 70)
    presenter.adjustVolume(by: 50)
    XCTAssertEqual(presenter.volume, 100)
  }

  // MARK: - Shuffle and repeat

  func testToggleShuffleKeepsTrackPlaying() {
    let (presenter, player) = PresenterFixture.playing("a", "b", "c", "d", "e")
    presenter.toggleShuffle()
    XCTAssertTrue(presenter.queue.isShuffled)
    XCTAssertEqual(presenter.queue.current, a)
    XCTAssertEqual(player.played, [])
    XCTAssertEqual(presenter.state, .playing)
  }

  func testToggleShufflePreparesNewSuccessor() {
    let (presenter, player) = PresenterFixture.playing("a", "b", "c", "d", "e")
    presenter.toggleShuffle()
    let preparedNow = player.prepared.last ?? b
    XCTAssertEqual(preparedNow, presenter.queue.peekNext())
    XCTAssertLessThanOrEqual(player.prepared.count, 1)
  }

  func testToggleShuffleOffReturnsToAlbumOrder() {
    let (presenter, _) = PresenterFixture.playing("a", "b", "c", "d", "e")
    presenter.toggleShuffle()
    presenter.toggleShuffle()
    XCTAssertFalse(presenter.queue.isShuffled)
    XCTAssertEqual(presenter.queue.peekNext(), b)
  }

  func testCycleRepeatCyclesQueueMode() {
    let (presenter, _) = PresenterFixture.playing("a")
    presenter.cycleRepeat()
    XCTAssertEqual(presenter.queue.repeatMode, .all)
    presenter.cycleRepeat()
    XCTAssertEqual(presenter.queue.repeatMode, .one)
    presenter.cycleRepeat()
    XCTAssertEqual(presenter.queue.repeatMode, .off)
  }

  func testCycleRepeatToAllOnLastTrackPreparesFirst() {
    let (presenter, player) = PresenterFixture.playing("a", "b", startAt: 1)
    presenter.cycleRepeat()
    XCTAssertEqual(player.prepared, [a])
  }

  func testCycleRepeatToOnePreparesCurrentTrack() {
    let (presenter, player) = PresenterFixture.playing("a", "b", repeatMode: .all)
    presenter.cycleRepeat()
    XCTAssertEqual(player.prepared, [a])
  }

  func testSetRepeatOffOnLastTrackClearsPreparedSuccessor() {
    let (presenter, player) = PresenterFixture.playing("a", "b", startAt: 1, repeatMode: .all)
    presenter.setRepeat(.off)
    XCTAssertEqual(player.prepared, [nil])
  }

  func testModeChangeWhileLoadingWaitsForStarted() {
    let player = FakePlayer()
    let presenter = PlaybackPresenter(player: player)
    presenter.playAll([a, b])
    player.resetCalls()
    presenter.cycleRepeat()
    XCTAssertEqual(player.calls, [])
  }
}
