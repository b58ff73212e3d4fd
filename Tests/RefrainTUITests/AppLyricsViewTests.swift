import RefrainCatalog
import RefrainCore
import XCTest

@testable import RefrainTUI

/// The full lyrics view: following the clock, scrolling by hand, seek mode.
final class AppLyricsViewTests: XCTestCase {
  /// The row of the screen holding `text` (trimmed), if any.
  private func rowIndex(of text: String, in grid: ScreenGrid) -> Int? {
    (0..<grid.height).first { grid.row($0).trimmingCharacters(in: .whitespaces).hasSuffix(text) }
  }

  // MARK: - Following

  func testTheCurrentLineStaysCentredWhileFollowing() {
    let harness = TUIHarness.playingNumbered()
    harness.player.position = 21
    harness.press("l")
    assertScreen(
      harness.screen(60, 16),
      """
      1 Home  2 Search  3 Library  4 Player  5 Queue
       Lyrics — seek mode ON (s) · following · Esc closes
        Line 4
        Line 5
        Line 6
        Line 7
        Line 8
        Line 9
      ▶ Line 10
        Line 11
        Line 12
        Line 13
        Line 14
        Line 15
       ▶ 우산 하나 — 달빛 우체국                      0:21 / 1:00
       ? help  / search  l lyrics  space play/pause  q back
      """)
    let grid = harness.redraw()
    XCTAssertEqual(grid[0, 8].style, .marker, "Line 10 is marked")
    XCTAssertEqual(grid[2, 8].style, .normal, "its text keeps its look")
    XCTAssertEqual(grid[0, 9].text, " ")

    harness.player.position = 31
    let later = harness.redraw()
    XCTAssertEqual(later.row(8), "▶ Line 15", "the view moved on with the clock")
    XCTAssertEqual(later.row(7), "  Line 14", "the marker left the line before")
  }

  func testTheLineStyleColoursTheWholeCurrentLine() {
    let harness = TUIHarness.playingNumbered(lyricHighlight: .line)
    harness.player.position = 21
    harness.press("l")
    let grid = harness.redraw()
    XCTAssertEqual(grid.row(8), "  Line 10", "the colour marks it: no ▶")
    XCTAssertEqual((2..<9).map { grid[$0, 8].style }, Array(repeating: .current, count: 7))
    XCTAssertEqual(grid[2, 9].style, .normal)
    harness.press("j")
    let scrolled = harness.redraw()
    XCTAssertEqual(scrolled.row(8), "› Line 11")
    XCTAssertEqual(scrolled[2, 7].style, .current, "the playing line is still highlighted")
  }

  func testWordTimedLinesHighlightTheWordBeingSung() {
    for highlight in LyricHighlight.allCases {
      let harness = TUIHarness(
        lyrics: ["fake:umbrella": .found(TestLyrics.wordTimed, source: .sidecar)],
        lyricHighlight: highlight)
      harness.waitForHome()
      harness.playFromHome("우산 하나", duration: 30)
      harness.press("l")
      // 비가 (columns 2–5), a space, 내리는 (7–12), a space, 밤 (14–15).
      for (position, sung) in [(2.5, 2), (3.5, 7), (4.5, 14)] {
        harness.player.position = position
        let grid = harness.redraw()
        let row = highlight == .marker ? "▶ 비가 내리는 밤" : "  비가 내리는 밤"
        XCTAssertEqual(grid.row(8), row, "\(highlight) at \(position) s")
        XCTAssertEqual(grid[sung, 8].style, .currentWord, "\(highlight) at \(position) s")
        let others = [2, 7, 14].filter { $0 != sung }.map { grid[$0, 8].style }
        let rest: Style = highlight == .marker ? .normal : .current
        XCTAssertEqual(others, [rest, rest], "\(highlight) at \(position) s")
      }
    }
  }

  func testTheSungLineIsBoldInItsColourByDefault() {
    let harness = TUIHarness.playingNumbered(lyricHighlight: .line)
    XCTAssertEqual(
      AppDependencies(
        session: harness.app.session, provider: FakeCatalog()
      ).lyricHighlight, .line, "the line style is the default")
    harness.player.position = 5
    harness.press("l")
    let grid = harness.redraw()
    XCTAssertEqual(grid.row(8), "  Line 2")
    XCTAssertEqual((2..<8).map { grid[$0, 8].style }, Array(repeating: .current, count: 6))
  }

  func testWithoutColourTheBoldSungLineHasTheMarkerBesideIt() {
    let harness = TUIHarness.playingNumbered(lyricHighlight: .line, colors: false)
    harness.player.position = 5
    harness.press("l")
    let grid = harness.redraw()
    XCTAssertEqual(grid.row(8), "▶ Line 2", "NO_COLOR: bold alone could be missed")
    XCTAssertEqual(grid[0, 8].style, .marker)
    XCTAssertEqual((2..<8).map { grid[$0, 8].style }, Array(repeating: .current, count: 6))
  }

  func testTheFirstLinesStartHalfWayDown() {
    let harness = TUIHarness.playingNumbered()
    harness.player.position = 0.5
    harness.press("l")
    let grid = harness.redraw()
    XCTAssertEqual(rowIndex(of: "Line 1", in: grid), 8, "Line 1 waits in the middle")
    XCTAssertEqual(grid.row(7), "")
    XCTAssertEqual(grid[2, 8].style, .normal, "nothing is current before the first line")
    XCTAssertFalse(grid.row(8).contains("▶"), "and nothing is marked")
  }

  func testLongLinesWrapByDisplayWidthAndStayOnScreen() {
    let long = LRCParser.parse(
      """
      [00:01.00]첫눈이 오면 편지를 쓸게 하얀 길 위에 너의 이름을 적어 둘게
      [00:05.00]short
      """)
    let harness = TUIHarness(lyrics: ["fake:umbrella": .found(long, source: .sidecar)])
    harness.waitForHome()
    harness.playFromHome("우산 하나", duration: 30)
    harness.player.position = 2
    harness.size = (40, 12)
    harness.press("l")
    let grid = harness.redraw()
    let lines = (2..<9).map { grid.row($0).trimmingCharacters(in: .whitespaces) }.filter {
      !$0.isEmpty
    }
    // The body is 36 columns wide: the first line fills it exactly.
    XCTAssertEqual(lines, ["▶ 첫눈이 오면 편지를 쓸게 하얀 길 위에", "▏ 너의 이름을 적어 둘게", "short"])
    for y in 0..<grid.height { XCTAssertLessThanOrEqual(DisplayWidth.of(grid.row(y)), 40) }
  }

  // MARK: - Moving by hand

  func testJSelectsTheLineAfterTheHighlightedOne() {
    let harness = TUIHarness.playingNumbered()
    harness.player.position = 21  // Line 10 (index 9)
    harness.press("l", "j")
    let grid = harness.redraw()
    XCTAssertTrue(
      grid.row(1).hasPrefix(" Lyrics — seek mode ON (s) · scrolled: f follows"), grid.row(1))
    XCTAssertEqual(grid.row(8), "› Line 11", "the selection is centred and marked")
    XCTAssertEqual(grid[2, 8].style, .selected)
    XCTAssertEqual(grid.row(7), "▶ Line 10", "the playing line is still marked")
    harness.press("k", "k")
    XCTAssertEqual(harness.redraw().row(8), "› Line 9")
  }

  func testEnterInSeekModeSeeksToTheSelectedLinesTime() {
    let harness = TUIHarness.playingNumbered()
    harness.player.position = 21
    harness.press("l", "j", "j", "j")
    harness.press("enter")
    XCTAssertEqual(harness.player.seeks.last, 26, "Line 13 starts at 0:26")
    XCTAssertNotNil(harness.app.lyricsView, "the view stays open")
    let grid = harness.redraw()
    XCTAssertEqual(grid.row(1), " Lyrics — seek mode ON (s) · following · Esc closes")
    XCTAssertEqual(grid.row(8), "▶ Line 13")
    XCTAssertEqual(grid.row(14), aligned(" ▶ 우산 하나 — 달빛 우체국", "0:26 / 1:00", width: 60))
  }

  func testEnterWhileFollowingActsOnTheHighlightedLineNotAnOldOne() {
    let harness = TUIHarness.playingNumbered()
    harness.player.position = 5  // Line 2 when the view opens
    harness.press("l")
    harness.player.position = 21  // the song moved on to Line 10
    harness.press("enter")
    XCTAssertEqual(harness.player.seeks.last, 20, "Enter restarts the line being heard")
  }

  func testUpAndDownStopAtTheFirstAndLastLines() {
    let harness = TUIHarness.playingNumbered()
    harness.player.position = 3
    harness.press("l", "g", "k", "enter")
    XCTAssertEqual(harness.player.seeks.last, 2)
    harness.press("G", "j", "enter")
    XCTAssertEqual(harness.player.seeks.last, 40)
  }

  func testFAndFiveIdleSecondsReturnToFollowing() {
    let harness = TUIHarness.playingNumbered()
    harness.player.position = 21
    harness.press("l", "k", "k", "k")
    XCTAssertEqual(harness.redraw().row(8), "› Line 7")
    harness.press("f")
    XCTAssertEqual(harness.redraw().row(8), "▶ Line 10")
    XCTAssertEqual(harness.app.lyricsView?.following, true)

    harness.press("j")
    XCTAssertEqual(harness.app.nextWake().map { $0 <= 5 }, true)
    harness.clock.now += 4.9
    harness.app.resumeFollowingIfIdle()
    XCTAssertEqual(harness.app.lyricsView?.following, false, "still scrolled after 4.9 s")
    harness.clock.now += 0.2
    harness.app.resumeFollowingIfIdle()
    XCTAssertEqual(harness.app.lyricsView?.following, true, "following again after 5 s")
    XCTAssertEqual(harness.redraw().row(8), "▶ Line 10")
  }

  func testSTurnsSeekModeOffSoEnterClosesTheView() {
    let harness = TUIHarness.playingNumbered()
    harness.player.position = 21
    harness.press("l", "s")
    XCTAssertEqual(harness.row(1), " Lyrics — seek mode off (s) · following · Esc closes")
    XCTAssertEqual(harness.row(15), " seek mode off: Enter closes")
    harness.press("j", "enter")
    XCTAssertNil(harness.app.lyricsView)
    XCTAssertEqual(harness.player.seeks, [], "nothing was sought")
    harness.press("l")
    XCTAssertEqual(
      harness.row(1), " Lyrics — seek mode off (s) · following · Esc closes", "remembered")
    harness.press("s")
    XCTAssertEqual(harness.row(15), " seek mode on: Enter seeks to the line")
  }

  func testEscQAndLCloseTheView() {
    let harness = TUIHarness.playingNumbered()
    for key in ["esc", "q", "l"] {
      harness.press("l")
      XCTAssertNotNil(harness.app.lyricsView)
      harness.press(key)
      XCTAssertNil(harness.app.lyricsView, key)
      XCTAssertFalse(harness.app.shouldQuit)
    }
  }

  func testTheViewWithoutLyricsShowsWhy() {
    let harness = TUIHarness()
    harness.waitForHome()
    harness.playFromHome("Lighthouse Radio", duration: 27.5)
    harness.press("l")
    XCTAssertEqual(
      harness.row(8).trimmingCharacters(in: .whitespaces), "no lyrics: no lyrics in the test")
    harness.press("j", "enter")
    XCTAssertEqual(harness.player.seeks, [])
  }

  // MARK: - Nudging

  func testBracketsNudgeTheLyricsAndThePlayerSaysBy() {
    let harness = TUIHarness.playingNumbered()
    harness.player.position = 19.95  // just before Line 10 at 0:20
    harness.press("4")
    harness.size = (100, 30)
    XCTAssertEqual(harness.row(25).trimmingCharacters(in: .whitespaces), "Line 9")
    harness.press("]")
    XCTAssertEqual(harness.row(29), " lyrics offset +100 ms")
    XCTAssertEqual(
      harness.row(25).trimmingCharacters(in: .whitespaces), "Line 10", "lines show earlier")
    XCTAssertEqual(
      harness.row(6),
      "  |" + String(repeating: " ", count: 38)
        + "|   vol 100%  shuffle off  repeat off  lyrics +100 ms")
    harness.press("[", "[")
    XCTAssertEqual(harness.row(29), " lyrics offset -100 ms")
    XCTAssertEqual(harness.row(25).trimmingCharacters(in: .whitespaces), "Line 9")
  }
}

/// Translations and romanization in the lyrics view and the Player pane.
final class AppLyricsTranslationTests: XCTestCase {
  private static let translated = LRCParser.parse(
    """
    [00:01.00]너를 사랑해
    [00:01.00]I love you
    [00:05.00]같이 걸어요
    [00:05.00]같이 걸어요
    [00:05.00]Let's walk together
    [00:09.00]끝
    """)

  private func playing(romanize: Bool = false) -> TUIHarness {
    let harness = TUIHarness(
      lyrics: ["fake:umbrella": .found(Self.translated, source: .sidecar)], lyricHighlight: .line)
    harness.app.romanizes = romanize
    harness.waitForHome()
    harness.playFromHome("우산 하나", duration: 30)
    return harness
  }

  /// The lyric rows, without the cursor's › and the edge marks.
  private func body(_ grid: ScreenGrid) -> [String] {
    (2..<13).map { String(grid.row($0).dropFirst(2)).trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
  }

  func testATranslationIsSungWithItsLineAndARepeatIsHidden() {
    let harness = playing()
    harness.player.position = 5.5
    harness.press("l")
    let grid = harness.redraw()
    XCTAssertEqual(
      body(grid), ["너를 사랑해", "I love you", "같이 걸어요", "Let's walk together", "끝"])
    let sung = (0..<grid.height).first { grid.row($0).contains("같이 걸어요") } ?? 0
    XCTAssertEqual(grid[2, sung].style, .current, "the original is the sung line")
    XCTAssertEqual(grid[2, sung + 1].style, .normal, "its translation is lit with it")
    let earlier = (0..<grid.height).first { grid.row($0).contains("I love you") } ?? 0
    XCTAssertEqual(grid[2, earlier].style, .dim, "another line's translation is dimmer")
  }

  func testTHidesTranslationsAndTheCursorMovesBetweenOriginals() {
    let harness = playing()
    harness.player.position = 1.5
    harness.press("l")
    harness.press("T")
    XCTAssertEqual(body(harness.redraw()), ["너를 사랑해", "같이 걸어요", "끝"])
    harness.press("j")
    XCTAssertTrue(harness.redraw().row(8).hasPrefix("› 같이 걸어요"), harness.screen())
    harness.press("T")
    harness.press("j")
    XCTAssertTrue(
      harness.screen().contains("› 끝"), "j skips the translation: \(harness.screen())")
  }

  func testTShowsARomanizationLineUnderKoreanLines() {
    let harness = playing()
    harness.player.position = 1.5
    harness.press("l")
    harness.press("t")
    let lines = body(harness.redraw())
    XCTAssertEqual(Array(lines.prefix(4)), ["너를 사랑해", "neoreul saranghae", "I love you", "같이 걸어요"])
    XCTAssertTrue(lines.contains("gachi georeoyo"), "\(lines)")
    harness.press("t")
    XCTAssertFalse(body(harness.redraw()).contains("neoreul saranghae"))
  }

  func testThePlayerPaneShowsTheSungLineWithItsTranslationOrRomanization() {
    let harness = playing()
    harness.player.position = 1.5
    harness.press("4")
    XCTAssertTrue(harness.screen().contains("너를 사랑해"))
    XCTAssertTrue(harness.screen().contains("I love you"), harness.screen())
    harness.press("T")
    harness.press("t")
    XCTAssertTrue(harness.screen().contains("neoreul saranghae"), harness.screen())
    XCTAssertFalse(harness.screen().contains("I love you"))
  }
}
