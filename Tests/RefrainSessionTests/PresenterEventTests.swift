import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainSession

/// The player's events: started, gapless hand-over, natural ends and failures.
final class PresenterEventTests: XCTestCase {
  private let a = QueueFixture.track("a")
  private let b = QueueFixture.track("b")
  private let c = QueueFixture.track("c")

  /// A presenter that asked the player to play `ids` from the first track, not yet started.
  private func loading(_ ids: String..., repeatMode: RepeatMode = .off) -> (
    PlaybackPresenter, FakePlayer
  ) {
    let player = FakePlayer()
    let queue = PlayQueue(repeatMode: repeatMode, random: SeededRandom(seed: 42))
    let presenter = PlaybackPresenter(player: player, queue: queue)
    presenter.playAll(ids.map { QueueFixture.track($0) })
    player.resetCalls()
    return (presenter, player)
  }

  // MARK: - The same track queued twice

  func testAStaleStartOfTheSameTrackQueuedTwiceIsIgnored() throws {
    let (presenter, player) = loading("a", "a")
    let first = try XCTUnwrap(presenter.queue.current, "what the player was asked to play")
    presenter.next()  // before the first slot's start arrived
    let second = try XCTUnwrap(player.played.last)
    XCTAssertEqual(first, second, "the same recording")
    XCTAssertNotEqual(first.queueEntry, second.queueEntry, "from two queue slots")
    presenter.handle(.started(first, duration: 180))
    XCTAssertEqual(presenter.state, .loading, "the first slot's late start is stale")
    presenter.handle(.started(second, duration: 180))
    XCTAssertEqual(presenter.state, .playing)
    XCTAssertEqual(presenter.queue.currentIndex, 1)
  }

  func testTheSecondCopyIsPreparedForTheGaplessHandOver() throws {
    let (presenter, player) = loading("a", "a")
    let first = try XCTUnwrap(presenter.queue.current, "what the player was asked to play")
    presenter.handle(.started(first, duration: 180))
    let prepared = try XCTUnwrap(player.prepared.last ?? nil)
    XCTAssertEqual(prepared.queueEntry, presenter.queue.track(at: 1)?.queueEntry)
    presenter.handle(.trackEnded(first))
    presenter.handle(.started(prepared, duration: 180))
    XCTAssertEqual(presenter.state, .playing)
    XCTAssertEqual(presenter.queue.currentIndex, 1, "the hand-over reached the second slot")
  }

  // MARK: - Started

  func testStartedRecordsDurationAndPlays() {
    let (presenter, _) = loading("a", "b")
    presenter.handle(.started(a, duration: 201.5))
    XCTAssertEqual(presenter.state, .playing)
    XCTAssertEqual(presenter.duration, 201.5)
  }

  func testStartedWithoutDurationUsesTrackDuration() {
    let (presenter, _) = loading("a")
    presenter.handle(.started(a, duration: nil))
    XCTAssertEqual(presenter.duration, 180)
  }

  func testStartedPreparesNextTrack() {
    let (presenter, player) = loading("a", "b", "c")
    presenter.handle(.started(a, duration: 180))
    XCTAssertEqual(player.calls, [.prepareNext(b)])
  }

  func testStartedOnLastTrackPreparesNothing() {
    let (presenter, player) = loading("a")
    presenter.handle(.started(a, duration: 180))
    XCTAssertEqual(player.calls, [.prepareNext(nil)])
  }

  func testStartedOnLastTrackWithRepeatAllPreparesFirst() {
    let (presenter, player) = PresenterFixture.playing("a", "b", startAt: 1, repeatMode: .all)
    presenter.handle(.started(b, duration: 180))
    XCTAssertEqual(player.prepared, [a])
  }

  func testStartedWithRepeatOnePreparesSameTrack() {
    let (presenter, player) = loading("a", "b", repeatMode: .one)
    presenter.handle(.started(a, duration: 180))
    XCTAssertEqual(player.prepared, [a])
  }

  func testStartedForStaleTrackIsIgnored() {
    let (presenter, player) = loading("a", "b")
    presenter.next()
    player.resetCalls()
    presenter.handle(.started(a, duration: 180))
    XCTAssertEqual(presenter.state, .loading)
    XCTAssertEqual(player.calls, [])
  }

  func testStartedAfterStopIsIgnored() {
    let (presenter, player) = loading("a", "b")
    presenter.stop()
    player.resetCalls()
    presenter.handle(.started(a, duration: 180))
    XCTAssertEqual(presenter.state, .stopped)
    XCTAssertEqual(player.calls, [])
  }

  func testStartedWhilePausedIsIgnored() {
    let (presenter, player) = PresenterFixture.playing("a", "b")
    presenter.pause()
    player.resetCalls()
    presenter.handle(.started(a, duration: 180))
    XCTAssertEqual(presenter.state, .paused)
    XCTAssertEqual(player.calls, [])
  }

  // MARK: - Gapless hand-over

  func testTrackEndedWithPreparedSuccessorDoesNotCallPlay() {
    let (presenter, player) = PresenterFixture.playing("a", "b", "c")
    presenter.handle(.trackEnded(a))
    XCTAssertEqual(player.calls, [])
    XCTAssertEqual(presenter.queue.current, b)
    XCTAssertEqual(presenter.state, .loading)
  }

  func testGaplessHandOverStartedMakesSuccessorPlaying() {
    let (presenter, player) = PresenterFixture.playing("a", "b", "c")
    presenter.handle(.trackEnded(a))
    presenter.handle(.started(b, duration: 175))
    XCTAssertEqual(presenter.state, .playing)
    XCTAssertEqual(presenter.duration, 175)
    XCTAssertEqual(player.calls, [.prepareNext(c)])
  }

  func testGaplessHandOverThroughWholeQueue() {
    let (presenter, player) = PresenterFixture.playing("a", "b", "c")
    for (ended, started) in [(a, b), (b, c)] {
      player.emit(.trackEnded(ended), .started(started, duration: 180))
      presenter.handlePendingEvents()
    }
    player.emit(.trackEnded(c))
    presenter.handlePendingEvents()
    XCTAssertEqual(player.played, [])
    XCTAssertEqual(player.prepared, [c, nil])
    XCTAssertEqual(presenter.state, .stopped)
    XCTAssertTrue(presenter.isFinished)
  }

  func testTrackEndedWithRepeatAllWrapsGaplessly() {
    let (presenter, player) = PresenterFixture.playing("a", "b", startAt: 1, repeatMode: .all)
    presenter.handle(.trackEnded(b))
    XCTAssertEqual(player.calls, [])
    XCTAssertEqual(presenter.queue.current, a)
    presenter.handle(.started(a, duration: 180))
    XCTAssertEqual(presenter.state, .playing)
  }

  func testTrackEndedWithRepeatOneKeepsTrackAndDoesNotCallPlay() {
    let (presenter, player) = PresenterFixture.playing("a", "b", repeatMode: .one)
    presenter.handle(.trackEnded(a))
    XCTAssertEqual(player.calls, [])
    XCTAssertEqual(presenter.queue.current, a)
    presenter.handle(.started(a, duration: 180))
    XCTAssertEqual(player.calls, [.prepareNext(a)])
  }

  func testTrackEndedAfterQueueEditFollowsNewSuccessor() {
    let (presenter, player) = PresenterFixture.playing("a", "b", "c")
    presenter.moveInQueue(from: 2, to: 1)
    presenter.handle(.trackEnded(a))
    XCTAssertEqual(player.prepared, [c])
    XCTAssertEqual(player.played, [])
    XCTAssertEqual(presenter.queue.current, c)
  }

  func testUserSkipBeforeEndIsHandledIgnoresStaleEndAndStart() {
    let (presenter, player) = PresenterFixture.playing("a", "b", "c")
    presenter.next()
    presenter.handle(.trackEnded(a))
    presenter.handle(.started(b, duration: 180))
    XCTAssertEqual(player.played, [b])
    XCTAssertEqual(presenter.queue.current, b)
    XCTAssertEqual(presenter.state, .playing)
  }

  // MARK: - Natural end

  func testTrackEndedOnLastTrackFinishes() {
    let (presenter, player) = PresenterFixture.playing("a", "b", startAt: 1)
    presenter.handle(.trackEnded(b))
    XCTAssertEqual(presenter.state, .stopped)
    XCTAssertTrue(presenter.isFinished)
    XCTAssertEqual(player.calls, [.stop])
  }

  func testTrackEndedOnSingleTrackFinishes() {
    let player = FakePlayer()
    let presenter = PlaybackPresenter(player: player)
    presenter.playSingle(a)
    presenter.handle(.started(a, duration: 3))
    presenter.handle(.trackEnded(a))
    XCTAssertTrue(presenter.isFinished)
    XCTAssertEqual(player.played, [a])
  }

  func testTrackEndedForStaleTrackIsIgnored() {
    let (presenter, player) = PresenterFixture.playing("a", "b", "c", startAt: 1)
    presenter.handle(.trackEnded(a))
    XCTAssertEqual(presenter.queue.current, b)
    XCTAssertEqual(player.calls, [])
  }

  func testTrackEndedWhileLoadingIsIgnored() {
    let (presenter, player) = loading("a", "b")
    presenter.handle(.trackEnded(a))
    XCTAssertEqual(presenter.queue.current, a)
    XCTAssertEqual(player.calls, [])
  }

  func testTrackEndedAfterStopIsIgnored() {
    let (presenter, player) = PresenterFixture.playing("a", "b")
    presenter.stop()
    player.resetCalls()
    presenter.handle(.trackEnded(a))
    XCTAssertEqual(presenter.queue.current, a)
    XCTAssertFalse(presenter.isFinished)
    XCTAssertEqual(player.calls, [])
  }

  // MARK: - Failures

  func testFailedMarksTrackUnplayableWithReason() {
    let (presenter, _) = loading("a", "b")
    presenter.handle(.failed(a, message: "No such file: check the path"))
    XCTAssertEqual(presenter.queue.unplayableReason(at: 0), "No such file: check the path")
  }

  func testFailedRecordsSkippedAndLastError() {
    let (presenter, _) = loading("a", "b")
    presenter.handle(.failed(a, message: "corrupt MP3"))
    XCTAssertEqual(presenter.skipped, [SkippedTrack(track: a, reason: "corrupt MP3")])
    XCTAssertEqual(presenter.lastError, "Skipped Track a: corrupt MP3")
    XCTAssertEqual(presenter.snapshot.lastError, "Skipped Track a: corrupt MP3")
  }

  func testFailedPlaysNextPlayableTrack() {
    let (presenter, player) = loading("a", "b")
    presenter.handle(.failed(a, message: "corrupt"))
    XCTAssertEqual(player.played, [b])
    XCTAssertEqual(presenter.queue.current, b)
    XCTAssertEqual(presenter.state, .loading)
  }

  func testFailedWhilePlayingPlaysNextPlayableTrack() {
    let (presenter, player) = PresenterFixture.playing("a", "b")
    presenter.handle(.failed(a, message: "stream dropped"))
    XCTAssertEqual(player.calls, [.prepareNext(nil), .play(b, startAt: 0)])
  }

  func testFailedSkipsAlreadyUnplayableTracks() {
    let (presenter, player) = loading("a", "b", "c")
    presenter.handle(.failed(a, message: "corrupt"))
    presenter.handle(.failed(b, message: "corrupt"))
    XCTAssertEqual(player.played, [b, c])
    presenter.handle(.started(c, duration: 180))
    presenter.previous()
    XCTAssertEqual(player.lastSeek, 0)
    XCTAssertEqual(presenter.queue.current, c)
  }

  func testFailedOnLastTrackFinishes() {
    let (presenter, player) = PresenterFixture.playing("a", "b", startAt: 1)
    presenter.handle(.failed(b, message: "corrupt"))
    XCTAssertEqual(presenter.state, .stopped)
    XCTAssertTrue(presenter.isFinished)
    XCTAssertEqual(player.calls.last, .stop)
  }

  func testFailedWithRepeatOneSkipsToNext() {
    let (presenter, player) = PresenterFixture.playing("a", "b", repeatMode: .one)
    presenter.handle(.failed(a, message: "corrupt"))
    XCTAssertEqual(player.played, [b])
  }

  func testAllTracksFailingStopsWithoutLooping() {
    let (presenter, player) = loading("a", "b", "c", repeatMode: .all)
    for track in [a, b, c] {
      presenter.handle(.failed(track, message: "offline"))
    }
    XCTAssertEqual(player.played, [b, c])
    XCTAssertEqual(presenter.state, .stopped)
    XCTAssertTrue(presenter.isFinished)
    XCTAssertEqual(presenter.skipped.map(\.track), [a, b, c])
  }

  func testAllTracksFailingWithRepeatOneStops() {
    let (presenter, player) = loading("a", "b", repeatMode: .one)
    presenter.handle(.failed(a, message: "offline"))
    presenter.handle(.failed(b, message: "offline"))
    XCTAssertEqual(player.played, [b])
    XCTAssertTrue(presenter.isFinished)
  }

  func testTogglePlayAfterAllFailedDoesNotPlay() {
    let (presenter, player) = loading("a")
    presenter.handle(.failed(a, message: "offline"))
    player.resetCalls()
    presenter.togglePlay()
    XCTAssertEqual(player.calls, [])
  }

  func testFailedPreparedSuccessorPreparesTheOneAfter() {
    let (presenter, player) = PresenterFixture.playing("a", "b", "c")
    presenter.handle(.failed(b, message: "bad header"))
    XCTAssertEqual(player.calls, [.prepareNext(c)])
    XCTAssertEqual(presenter.queue.current, a)
    XCTAssertEqual(presenter.state, .playing)
    XCTAssertEqual(presenter.queue.unplayableReason(at: 1), "bad header")
    XCTAssertEqual(presenter.skipped, [SkippedTrack(track: b, reason: "bad header")])
  }

  func testGaplessSuccessorFailingAtHandOverIsSkipped() {
    let (presenter, player) = PresenterFixture.playing("a", "b", "c")
    presenter.handle(.trackEnded(a))
    presenter.handle(.failed(b, message: "bad header"))
    XCTAssertEqual(player.played, [c])
    XCTAssertEqual(presenter.queue.current, c)
  }

  func testFailedForStaleTrackIsIgnored() {
    let (presenter, player) = PresenterFixture.playing("a", "b", "c", startAt: 2)
    presenter.handle(.failed(a, message: "late"))
    XCTAssertEqual(player.calls, [])
    XCTAssertNil(presenter.lastError)
    XCTAssertTrue(presenter.queue.isPlayable(at: 0))
  }

  func testFailedAfterStopIsIgnored() {
    let (presenter, player) = PresenterFixture.playing("a", "b")
    presenter.stop()
    player.resetCalls()
    presenter.handle(.failed(a, message: "late"))
    XCTAssertEqual(player.calls, [])
    XCTAssertTrue(presenter.skipped.isEmpty)
  }

  // MARK: - Warnings and draining

  func testWarningIsShownInSnapshot() {
    let (presenter, _) = PresenterFixture.playing("a")
    presenter.handle(.warning("No PulseAudio server: playing silently; set PULSE_SERVER"))
    XCTAssertEqual(
      presenter.snapshot.warning, "No PulseAudio server: playing silently; set PULSE_SERVER")
    XCTAssertEqual(presenter.state, .playing)
  }

  func testHandlePendingEventsDrainsPlayerInOrder() {
    let (presenter, player) = loading("a", "b")
    player.emit(.started(a, duration: 180), .trackEnded(a), .started(b, duration: 90))
    presenter.handlePendingEvents()
    XCTAssertEqual(presenter.queue.current, b)
    XCTAssertEqual(presenter.duration, 90)
    XCTAssertEqual(presenter.state, .playing)
    XCTAssertEqual(player.drainEvents(), [])
  }
}
