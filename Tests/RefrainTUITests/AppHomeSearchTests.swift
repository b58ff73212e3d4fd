import RefrainCatalog
import RefrainCore
import XCTest

@testable import RefrainTUI

/// The Home and Search panes, rendered to text as the user sees them.
final class AppHomeSearchTests: XCTestCase {
  // MARK: - Home

  func testHomeListsTheCatalogsSectionsWithDurationsInOneColumn() {
    let harness = TUIHarness()
    harness.waitForHome()
    assertScreen(
      harness.screen(60, 16),
      """
      1 Home  2 Search  3 Library  4 Player  5 Queue
       New releases
        ◉ 밤의 편지 — 달빛 우체국                            2025
        ◉ Tidewater Signals — Harbor Lights                  2024
        ◉ ブルーアワー — 青い自転車                          2023
       Top tracks
        ♪ 우산 하나 — 달빛 우체국 · 밤의 편지                0:32
        ♪ 첫눈 오는 날 — 달빛 우체국 · 밤의 편지             0:30
        ♪ 夜のトラム — 青い自転車 · ブルーアワー             0:30
        ♪ Lighthouse Radio — Harbor Lights · Tidewater Sign… 0:27
        ♪ Lost Tape — Harbor Lights · Tidewater Signa… unplayable



       ■ stopped
       ? help  / search  l lyrics  space play/pause  q back
      """)
    let rows = harness.app.draw(width: 60, height: 16)
    for y in 2..<11 where y != 5 {
      XCTAssertEqual(DisplayWidth.of(rows.row(y)), 59, "row \(y) ends in the right-hand column")
    }
  }

  func testTheSelectedRowIsHighlightedAcrossTheWholeWidth() {
    let harness = TUIHarness()
    harness.waitForHome()
    harness.press("j")
    let grid = harness.app.draw(width: 60, height: 16)
    XCTAssertEqual(harness.selectedRow, "◉ Tidewater Signals — Harbor Lights")
    for x in 0..<60 {
      XCTAssertEqual(grid[x, 3].style, .selected, "column \(x) of the selected row")
      XCTAssertNotEqual(grid[x, 2].style, .selected, "column \(x) of the row above")
    }
  }

  func testHomeShowsLoadingUntilTheCatalogAnswersThenAnError() {
    let harness = TUIHarness(
      catalog: FakeCatalog(homeError: .unavailable("the server did not answer")))
    XCTAssertEqual(harness.row(1), " Loading fake…")
    harness.waitForHome()
    XCTAssertEqual(harness.row(1), " Home could not load: the server did not answer")
    XCTAssertEqual(harness.row(15), " Home could not load: the server did not answer")
  }

  func testCursorMovesSkipHeadersAndStopAtTheEnds() {
    let harness = TUIHarness()
    harness.waitForHome()
    XCTAssertEqual(harness.selectedRow, "◉ 밤의 편지 — 달빛 우체국")
    harness.press("k")
    XCTAssertEqual(harness.selectedRow, "◉ 밤의 편지 — 달빛 우체국")
    harness.press("j", "j", "j")
    XCTAssertEqual(harness.selectedRow, "♪ 우산 하나 — 달빛 우체국 · 밤의 편지", "the header is skipped")
    harness.press("G")
    XCTAssertEqual(harness.selectedRow, "♪ Lost Tape — Harbor Lights · Tidewater Signals")
    harness.press("j")
    XCTAssertEqual(harness.selectedRow, "♪ Lost Tape — Harbor Lights · Tidewater Signals")
    harness.press("g")
    XCTAssertEqual(harness.selectedRow, "◉ 밤의 편지 — 달빛 우체국")
  }

  func testALongListScrollsToKeepTheSelectionVisible() {
    let harness = TUIHarness()
    harness.waitForHome()
    harness.press("G")
    // 40×12 leaves 9 rows for the list: the last row must be on screen and selected.
    let grid = harness.app.draw(width: 40, height: 12)
    XCTAssertEqual(grid.row(9), "  ♪ Lost Tape — Harbor Ligh… unplayable")
    XCTAssertEqual(grid[2, 9].style, .selected)
    XCTAssertFalse(grid.text.contains("New releases"), "the top scrolled away")
  }

  func testEnterOnAnAlbumOpensItsTracksAndEscGoesBack() {
    let harness = TUIHarness()
    harness.waitForHome()
    harness.press("enter")
    harness.waitFor("the album") { harness.app.currentRows().count > 1 }
    assertScreen(
      harness.screen(60, 12),
      """
      1 Home  2 Search  3 Library  4 Player  5 Queue
       ‹ 밤의 편지
       밤의 편지 — 달빛 우체국
        ▶ Play all
        ♪ 우산 하나 — 달빛 우체국 · 밤의 편지                0:32
        ♪ 첫눈 오는 날 — 달빛 우체국 · 밤의 편지             0:30




       ■ stopped
       ? help  / search  l lyrics  space play/pause  q back
      """)
    harness.press("esc")
    XCTAssertEqual(harness.row(1), " New releases")
  }

  // MARK: - Search

  func testSearchBoxTakesHangulBackspaceRemovesOneCharacterAndCtrlUClears() {
    let harness = TUIHarness()
    harness.waitForHome()
    harness.press("/")
    XCTAssertEqual(harness.row(1), " / ▏")
    harness.type("우산 하나")
    XCTAssertEqual(harness.row(1), " / 우산 하나▏")
    harness.press("backspace")
    XCTAssertEqual(harness.row(1), " / 우산 하▏", "one syllable, not one jamo or one byte")
    harness.press("backspace", "backspace")
    XCTAssertEqual(harness.row(1), " / 우산▏")
    harness.press("ctrl-u")
    XCTAssertEqual(harness.row(1), " / ▏")
    harness.type("첫눈")
    XCTAssertEqual(harness.row(1), " / 첫눈▏")
  }

  func testKeysThatAreCommandsElsewhereAreTextInTheSearchBox() {
    let harness = TUIHarness()
    harness.waitForHome()
    harness.press("/")
    harness.type("q1 lj?")
    XCTAssertEqual(harness.row(1), " / q1 lj?▏")
    XCTAssertEqual(harness.app.pane, .search)
    XCTAssertFalse(harness.app.shouldQuit)
  }

  func testEnterSearchesAndShowsResultsByKind() {
    let harness = TUIHarness()
    harness.waitForHome()
    harness.press("/")
    harness.type("달빛")
    harness.press("enter")
    harness.waitForSearch()
    assertScreen(
      harness.screen(60, 14),
      """
      1 Home  2 Search  3 Library  4 Player  5 Queue
       / 달빛
       Tracks
        ♪ 우산 하나 — 달빛 우체국 · 밤의 편지                0:32
        ♪ 첫눈 오는 날 — 달빛 우체국 · 밤의 편지             0:30
       Albums
        ◉ 밤의 편지 — 달빛 우체국                            2025
       Artists
        ☺ 달빛 우체국



       ■ stopped
       ? help  / search  l lyrics  space play/pause  q back
      """)
  }

  func testASearchWithNoResultsSaysSo() {
    let harness = TUIHarness()
    harness.waitForHome()
    harness.press("/")
    harness.type("zzz")
    harness.press("enter")
    harness.waitForSearch()
    XCTAssertEqual(harness.row(2), " No results for zzz")
  }

  func testEscLeavesTheSearchBoxAndKeysAreCommandsAgain() {
    let harness = TUIHarness()
    harness.waitForHome()
    harness.press("/")
    harness.type("우산")
    harness.press("enter")
    harness.waitForSearch()
    XCTAssertEqual(harness.row(1), " / 우산", "no caret once the search ran")
    harness.press("j", "1")
    XCTAssertEqual(harness.app.pane, .home)
    harness.press("2")
    XCTAssertEqual(harness.row(1), " / 우산", "the results stay")
    harness.press("/")
    XCTAssertEqual(harness.row(1), " / 우산▏", "/ edits the last query")
  }

  func testEnterOnASearchResultPlaysIt() {
    let harness = TUIHarness()
    harness.waitForHome()
    harness.press("/")
    harness.type("첫눈")
    harness.press("enter")
    harness.waitForSearch()
    harness.press("enter")
    harness.waitFor("the track to load") { !harness.player.played.isEmpty }
    XCTAssertEqual(harness.player.played.map(\.title), ["첫눈 오는 날"])
    XCTAssertEqual(harness.player.played.first?.location.path, "/music/first-snow.mp3")
  }

  func testRecentSearchesAreOfferedWhenTheSearchBoxIsEmpty() throws {
    let library = try TUIHarness.temporaryLibrary(self)
    let harness = TUIHarness(library: library)
    harness.waitForHome()
    for query in ["우산", "Harbor"] {
      harness.press("/", "ctrl-u")
      harness.type(query)
      harness.press("enter")
      harness.waitForSearch()
    }
    harness.waitForLibrary()
    let fresh = TUIHarness(library: library)
    fresh.waitForHome()
    fresh.press("2")
    fresh.press("esc")
    fresh.waitForLibrary()
    XCTAssertEqual(fresh.row(2), " Recent searches")
    XCTAssertEqual(fresh.row(3), "  Harbor")
    XCTAssertEqual(fresh.row(4), "  우산")
    fresh.press("j", "enter")
    fresh.waitForSearch()
    XCTAssertEqual(fresh.row(1), " / 우산")
    XCTAssertEqual(fresh.row(3), aligned("  ♪ 우산 하나 — 달빛 우체국 · 밤의 편지", "0:32", width: 60))
  }
}

/// The Search pane's Lyrics section: a phrase of a song's lyrics finds it, and Enter plays
/// from the line that was found.
final class AppLyricSearchTests: XCTestCase {
  func testALyricsPhraseFindsTheTrackAndEnterPlaysFromThatLine() {
    let harness = TUIHarness()
    harness.waitForHome()
    harness.press("/")
    harness.type("내리는")
    harness.press("enter")
    harness.waitForSearch()
    let screen = harness.screen(70, 14)
    XCTAssertTrue(screen.contains(" Lyrics"), screen)
    XCTAssertTrue(screen.contains("“비가 내리는 밤” — 우산 하나 · 달빛 우체국"), screen)
    harness.press("j")
    harness.press("enter")
    harness.waitFor("the track to play") { !harness.player.played.isEmpty }
    let plays = harness.player.calls.compactMap { call -> (Track, Double)? in
      if case .play(let track, let start) = call { return (track, start) }
      return nil
    }
    guard let (track, start) = plays.last else {
      return XCTFail("nothing played: \(harness.player.calls)")
    }
    XCTAssertEqual(track.title, "우산 하나")
    XCTAssertEqual(start, 2, accuracy: 0.001, "from the line that was found")
  }
}
