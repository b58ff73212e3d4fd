import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainSession

/// The user's transport commands: start, play, pause, stop, next and previous.
final class PresenterTransportTests: XCTestCase {
  private let a = QueueFixture.track("a")
  private let b = QueueFixture.track("b")
  private let c = QueueFixture.track("c")

  // MARK: - Creating

  func testInitSendsVolumeToPlayer() {
    let player = FakePlayer()
    let presenter = PlaybackPresenter(player: player, volume: 70)
    XCTAssertEqual(player.calls, [.setVolume(70)])
    XCTAssertEqual(presenter.volume, 70)
    XCTAssertEqual(presenter.state, .idle)
  }

  func testInitClampsVolume() {
    XCTAssertEqual(PlaybackPresenter(player: FakePlayer(), volume: 180).volume, 100)
    XCTAssertEqual(PlaybackPresenter(player: FakePlayer(), volume: -4).volume, 0)
  }

  // MARK: - Starting

  func testPlaySingleStartsTrackFromZero() {
    let player = FakePlayer()
    let presenter = PlaybackPresenter(player: player)
    presenter.playSingle(a)
    XCTAssertEqual(player.calls.last, .play(a, startAt: 0))
    XCTAssertEqual(presenter.state, .loading)
    XCTAssertEqual(presenter.queue.tracks, [a])
  }

  func testAPlayAfterARestoredSessionIsPlayingNotPaused() {
    // Restored paused at start-up, then the user plays another track before resuming: the
    // player plays it, and the presenter must say so.
    let player = FakePlayer()
    let presenter = PlaybackPresenter(player: player)
    presenter.restore([a], startAt: 0, position: 12)
    presenter.playSingle(b)
    player.emit(.started(b, duration: 30))
    presenter.handlePendingEvents()
    XCTAssertEqual(presenter.state, .playing)
  }

  func testARestoredSessionStartsPaused() {
    let player = FakePlayer()
    let presenter = PlaybackPresenter(player: player)
    presenter.restore([a], startAt: 0, position: 12)
    player.emit(.started(a, duration: 30))
    presenter.handlePendingEvents()
    XCTAssertEqual(presenter.state, .paused)
  }

  func testPlaySingleReplacesQueue() {
    let (presenter, player) = PresenterFixture.playing("a", "b", "c")
    presenter.playSingle(c)
    XCTAssertEqual(presenter.queue.tracks, [c])
    XCTAssertEqual(player.played, [c])
  }

  func testPlaySingleDropsPreparedSuccessorBeforePlaying() {
    let (presenter, player) = PresenterFixture.playing("a", "b")
    presenter.playSingle(c)
    XCTAssertEqual(player.calls, [.prepareNext(nil), .play(c, startAt: 0)])
  }

  func testPlayAllStartsAtIndex() {
    let player = FakePlayer()
    let presenter = PlaybackPresenter(player: player)
    presenter.playAll([a, b, c], startAt: 1)
    XCTAssertEqual(player.played, [b])
    XCTAssertEqual(presenter.queue.currentIndex, 1)
  }

  func testPlayAllWithNilIndexStartsAtTop() {
    let player = FakePlayer()
    let presenter = PlaybackPresenter(player: player)
    presenter.playAll([a, b, c], startAt: nil)
    XCTAssertEqual(player.played, [a])
  }

  func testPlayAllWithInvalidIndexStartsAtTop() {
    let player = FakePlayer()
    let presenter = PlaybackPresenter(player: player)
    presenter.playAll([a, b], startAt: 9)
    XCTAssertEqual(player.played, [a])
  }

  func testPlayAllWithEmptyListStops() {
    let (presenter, player) = PresenterFixture.playing("a")
    presenter.playAll([])
    XCTAssertEqual(presenter.state, .stopped)
    XCTAssertEqual(player.calls.last, .stop)
    XCTAssertFalse(presenter.isFinished)
  }

  func testPlayAllKeepsShuffleAndRepeat() {
    let (presenter, _) = PresenterFixture.playing("a", "b", repeatMode: .all)
    presenter.toggleShuffle()
    presenter.playAll([a, b, c], startAt: 2)
    XCTAssertTrue(presenter.queue.isShuffled)
    XCTAssertEqual(presenter.queue.repeatMode, .all)
    XCTAssertEqual(presenter.queue.playOrder.first, 2)
  }

  func testPlayAllClearsLastErrorAndSkipped() {
    let (presenter, _) = PresenterFixture.playing("a", "b")
    presenter.handle(.failed(a, message: "corrupt"))
    XCTAssertNotNil(presenter.lastError)
    presenter.playAll([c])
    XCTAssertNil(presenter.lastError)
    XCTAssertTrue(presenter.skipped.isEmpty)
  }

  // MARK: - Play and pause

  func testTogglePlayPausesWhilePlaying() {
    let (presenter, player) = PresenterFixture.playing("a")
    presenter.togglePlay()
    XCTAssertEqual(player.calls, [.pause])
    XCTAssertEqual(presenter.state, .paused)
  }

  func testTogglePlayResumesWhilePaused() {
    let (presenter, player) = PresenterFixture.playing("a")
    presenter.togglePlay()
    presenter.togglePlay()
    XCTAssertEqual(player.calls, [.pause, .resume])
    XCTAssertEqual(presenter.state, .playing)
  }

  func testTogglePlayWhileLoadingDoesNothing() {
    let player = FakePlayer()
    let presenter = PlaybackPresenter(player: player)
    presenter.playSingle(a)
    player.resetCalls()
    presenter.togglePlay()
    XCTAssertEqual(player.calls, [])
    XCTAssertEqual(presenter.state, .loading)
  }

  func testTogglePlayWhenIdleStartsCurrentTrack() {
    let player = FakePlayer()
    let queue = PlayQueue([a, b], startAt: 1)
    let presenter = PlaybackPresenter(player: player, queue: queue)
    presenter.togglePlay()
    XCTAssertEqual(player.played, [b])
  }

  func testTogglePlayWhenIdleWithoutCurrentStartsAtTop() {
    let player = FakePlayer()
    let presenter = PlaybackPresenter(player: player, queue: PlayQueue([a, b]))
    presenter.togglePlay()
    XCTAssertEqual(player.played, [a])
  }

  func testTogglePlayWithEmptyQueueDoesNothing() {
    let player = FakePlayer()
    let presenter = PlaybackPresenter(player: player)
    player.resetCalls()
    presenter.togglePlay()
    XCTAssertEqual(player.calls, [])
    XCTAssertEqual(presenter.state, .idle)
  }

  func testTogglePlayAfterStopReplaysCurrentTrack() {
    let (presenter, player) = PresenterFixture.playing("a", "b", startAt: 1)
    presenter.stop()
    presenter.togglePlay()
    XCTAssertEqual(player.played, [b])
  }

  func testTogglePlayAfterFinishRestartsQueueFromTop() {
    let (presenter, player) = PresenterFixture.playing("a", "b", startAt: 1)
    presenter.handle(.trackEnded(b))
    XCTAssertTrue(presenter.isFinished)
    presenter.togglePlay()
    XCTAssertEqual(player.played, [a])
    XCTAssertFalse(presenter.isFinished)
  }

  func testPauseWhenNotPlayingDoesNothing() {
    let player = FakePlayer()
    let presenter = PlaybackPresenter(player: player)
    player.resetCalls()
    presenter.pause()
    XCTAssertEqual(player.calls, [])
    XCTAssertEqual(presenter.state, .idle)
  }

  func testResumeWhenNotPausedDoesNothing() {
    let (presenter, player) = PresenterFixture.playing("a")
    presenter.resume()
    XCTAssertEqual(player.calls, [])
    XCTAssertEqual(presenter.state, .playing)
  }

  func testPauseThenResume() {
    let (presenter, player) = PresenterFixture.playing("a")
    presenter.pause()
    presenter.resume()
    XCTAssertEqual(player.calls, [.pause, .resume])
  }

  func testStopStopsPlayerAndIsNotFinished() {
    let (presenter, player) = PresenterFixture.playing("a", "b")
    presenter.stop()
    XCTAssertEqual(player.calls, [.stop])
    XCTAssertEqual(presenter.state, .stopped)
    XCTAssertFalse(presenter.isFinished)
    XCTAssertEqual(presenter.queue.current, a)
  }

  // MARK: - Next and previous

  func testNextPlaysFollowingTrack() {
    let (presenter, player) = PresenterFixture.playing("a", "b")
    presenter.next()
    XCTAssertEqual(player.played, [b])
    XCTAssertEqual(presenter.queue.current, b)
    XCTAssertEqual(presenter.state, .loading)
  }

  func testNextAtEndWithRepeatOffKeepsPlaying() {
    let (presenter, player) = PresenterFixture.playing("a", "b", startAt: 1)
    presenter.next()
    XCTAssertEqual(player.calls, [])
    XCTAssertEqual(presenter.state, .playing)
  }

  func testNextAtEndWithRepeatAllWraps() {
    let (presenter, player) = PresenterFixture.playing("a", "b", startAt: 1, repeatMode: .all)
    presenter.next()
    XCTAssertEqual(player.played, [a])
  }

  func testNextWithRepeatOneAdvances() {
    let (presenter, player) = PresenterFixture.playing("a", "b", repeatMode: .one)
    presenter.next()
    XCTAssertEqual(player.played, [b])
  }

  func testPreviousAfterThreeSecondsRestartsTrack() {
    let (presenter, player) = PresenterFixture.playing("a", "b", startAt: 1)
    player.position = 42
    presenter.previous()
    XCTAssertEqual(player.calls, [.seek(0)])
    XCTAssertEqual(presenter.queue.current, b)
  }

  func testPreviousWithinThreeSecondsGoesBack() {
    let (presenter, player) = PresenterFixture.playing("a", "b", startAt: 1)
    player.position = 2.5
    presenter.previous()
    XCTAssertEqual(player.played, [a])
    XCTAssertEqual(presenter.queue.current, a)
  }

  func testPreviousAtExactlyThreeSecondsGoesBack() {
    let (presenter, player) = PresenterFixture.playing("a", "b", startAt: 1)
    player.position = 3
    presenter.previous()
    XCTAssertEqual(player.played, [a])
  }

  func testPreviousAtFirstTrackRestartsIt() {
    let (presenter, player) = PresenterFixture.playing("a", "b")
    player.position = 1
    presenter.previous()
    XCTAssertEqual(player.calls, [.seek(0)])
  }

  func testPreviousAtFirstTrackWithRepeatAllWrapsToLast() {
    let (presenter, player) = PresenterFixture.playing("a", "b", "c", repeatMode: .all)
    presenter.previous()
    XCTAssertEqual(player.played, [c])
  }

  func testPreviousWhilePausedAfterThreeSecondsRestartsTrack() {
    let (presenter, player) = PresenterFixture.playing("a", "b", startAt: 1)
    presenter.pause()
    player.position = 10
    presenter.previous()
    XCTAssertEqual(player.lastSeek, 0)
    XCTAssertEqual(presenter.state, .paused)
  }
}
