import RefrainCatalog
import RefrainCore
import XCTest

@testable import RefrainTUI

/// The main loop's one timer: it wakes for the next visible change, and only then.
final class AppWakeTests: XCTestCase {
  private func playing(lyrics: LyricsDocument? = nil) -> TUIHarness {
    let found = lyrics.map { ["fake:umbrella": LyricsResult.found($0, source: .sidecar)] } ?? [:]
    let harness = TUIHarness(lyrics: found)
    harness.waitForHome()
    harness.playFromHome("우산 하나", duration: 60)
    harness.clock.now += 10  // let the "loading" status expire
    harness.redraw()
    return harness
  }

  private func wake(_ harness: TUIHarness) -> Double? {
    harness.app.nextWake()
  }

  func testAnIdlePlayerNeverWakes() {
    let harness = TUIHarness()
    harness.waitForHome()
    XCTAssertNil(wake(harness))
  }

  func testAStatusMessageWakesWhenItExpires() {
    let harness = TUIHarness()
    harness.waitForHome()
    harness.press("=")
    XCTAssertEqual(try XCTUnwrap(wake(harness)), 4, accuracy: 0.001)
    harness.clock.now += 1.5
    XCTAssertEqual(try XCTUnwrap(wake(harness)), 2.5, accuracy: 0.001)
  }

  func testPlayingWakesOnTheNextWholeSecondOfTheProgressBar() {
    let harness = playing()
    harness.player.position = 10.3
    harness.redraw()
    XCTAssertEqual(try XCTUnwrap(wake(harness)), 0.7, accuracy: 0.001)
  }

  func testASecondThatBeganAfterTheFrameWasDrawnIsDueAtOnce() {
    // The frame was drawn at 9.9995 (0:09, the old line); the clock passed 10.0 before the
    // loop asked when to wake. Counting from now would sleep until 11.0 with 0:09 and the
    // old line on screen; counting from what was drawn wakes at once.
    let harness = playing(lyrics: TestLyrics.umbrella)
    harness.player.position = 9.9995
    harness.redraw()
    harness.player.position = 10.0005
    XCTAssertEqual(try XCTUnwrap(wake(harness)), 0, accuracy: 0.001)
    harness.redraw()
    XCTAssertEqual(try XCTUnwrap(wake(harness)), 0.9995, accuracy: 0.001)
  }

  func testALyricLineThatBeganAfterTheFrameWasDrawnIsDueAtOnce() {
    let harness = playing(lyrics: TestLyrics.umbrella)
    harness.player.position = 9.54  // 우산 하나에 두 사람 starts at 9.55
    harness.redraw()
    harness.player.position = 9.56
    XCTAssertEqual(try XCTUnwrap(wake(harness)), 0, accuracy: 0.001)
  }

  func testAfterASeekBackTheWakeCountsFromTheNewPosition() {
    let harness = playing()
    harness.player.position = 40.2
    harness.redraw()
    harness.player.position = 5.6  // a seek back, not drawn yet
    XCTAssertEqual(try XCTUnwrap(wake(harness)), 0.4, accuracy: 0.001)
  }

  func testPlayingWakesOnTheNextLyricLineWhenThatComesFirst() {
    let harness = playing(lyrics: TestLyrics.umbrella)
    harness.player.position = 9.2  // 우산 하나에 두 사람 starts at 9.55
    harness.redraw()
    XCTAssertEqual(try XCTUnwrap(wake(harness)), 0.35, accuracy: 0.001)
  }

  func testPlayingBeforeTheAudibleClockStartsLooksAgainSoon() {
    // PulseAudio can take a second to take the first audio; until then the clock has no
    // answer. The loop must not sleep until a key press, or the screen freezes at 0:00.
    let harness = playing(lyrics: TestLyrics.umbrella)
    harness.player.clockRunning = false
    let delay = wake(harness)
    XCTAssertNotNil(delay, "the loop would sleep until a key press")
    XCTAssertLessThanOrEqual(delay ?? .infinity, 0.25)
  }

  func testPausedWithNothingToAnimateSleepsUntilInput() {
    let harness = playing(lyrics: TestLyrics.umbrella)
    harness.press("space")
    XCTAssertEqual(harness.player.state, .paused)
    harness.clock.now += 10
    XCTAssertNil(wake(harness))
  }

  func testAScrolledLyricsViewWakesToFollowAgain() {
    let harness = playing(lyrics: TestLyrics.umbrella)
    harness.press("space")  // paused: only the lyrics view's idle timer is left
    harness.clock.now += 10
    harness.press("l", "j")
    harness.clock.now += 2
    XCTAssertEqual(try XCTUnwrap(wake(harness)), 3, accuracy: 0.001)
  }
}
