import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainSession

/// Lyrics on the presenter: the highlighted line, seek-on-select and the offset nudge.
final class PresenterLyricsTests: XCTestCase {
  private let document = LRCParser.parse(
    """
    [offset:+200]
    [00:01.00]one
    [00:03.00]two
    [00:05.50]three
    """)

  private func playingWithLyrics(userOffsetMs: Int = 0) -> (PlaybackPresenter, FakePlayer) {
    let (presenter, player) = PresenterFixture.playing("a")
    presenter.setLyrics(document, userOffsetMs: userOffsetMs)
    return (presenter, player)
  }

  // MARK: - Following

  func testLyricChangeReportsEachLineOnce() {
    let (presenter, player) = playingWithLyrics()
    player.position = 0.5
    XCTAssertNil(presenter.lyricChange(), "before the first line")
    player.position = 0.8
    XCTAssertEqual(
      presenter.lyricChange(), .init(index: 0, text: "one"), "offset +200 shows it early")
    player.position = 1.5
    XCTAssertNil(presenter.lyricChange())
    player.position = 2.8
    XCTAssertEqual(presenter.lyricChange()?.index, 1)
  }

  func testNextLyricChangeIsTheNextEffectiveLineTime() throws {
    let (presenter, player) = playingWithLyrics()
    player.position = 1.0
    XCTAssertEqual(try XCTUnwrap(presenter.nextLyricChange()), 2.8, accuracy: 1e-9)
  }

  func testNoLyricChangeWhileNothingIsLoaded() {
    let presenter = PlaybackPresenter(player: FakePlayer())
    presenter.setLyrics(document)
    XCTAssertNil(presenter.lyricChange())
    XCTAssertNil(presenter.nextLyricChange())
  }

  // MARK: - Seek-on-select

  func testSeekToLineSeeksToTheLineMinusTheOffset() throws {
    let (presenter, player) = playingWithLyrics(userOffsetMs: 100)
    presenter.seekToLine(2)
    XCTAssertEqual(try XCTUnwrap(player.lastSeek), 5.2, accuracy: 1e-9)
  }

  func testSeekReportsTheCurrentLineAgainAtOnce() {
    let (presenter, player) = playingWithLyrics()
    player.position = 3.5
    XCTAssertEqual(presenter.lyricChange()?.index, 1)
    presenter.seekToLine(1)
    player.position = 2.8
    XCTAssertEqual(presenter.lyricChange()?.index, 1, "a seek re-evaluates even the same line")
  }

  func testSeekToLineWithoutSyncedLyricsDoesNothing() {
    let (presenter, player) = PresenterFixture.playing("a")
    presenter.setLyrics(LRCParser.parse("just words\nno times"))
    player.resetCalls()
    presenter.seekToLine(1)
    XCTAssertNil(player.lastSeek)
  }

  // MARK: - Nudge

  func testNudgeShiftsLinesEarlierAndReturnsTheOffset() {
    let (presenter, player) = playingWithLyrics()
    XCTAssertEqual(presenter.nudgeLyrics(by: 100), 100)
    XCTAssertEqual(presenter.nudgeLyrics(by: 100), 200)
    player.position = 0.6
    XCTAssertEqual(presenter.lyricChange()?.index, 0, "line one now shows at 0.6 s")
    XCTAssertEqual(presenter.lyricOffsetMs, 200)
  }

  func testNudgeBackwardShowsLinesLater() {
    let (presenter, player) = playingWithLyrics()
    presenter.nudgeLyrics(by: -300)
    player.position = 0.95
    XCTAssertNil(presenter.lyricChange(), "line one now shows at 1.1 s")
  }
}
