import RefrainCatalog
import RefrainCore
import XCTest

@testable import RefrainTUI

/// Mouse input as the terminal layer reports it (`display.mouse = true`): the wheel and clicks.
final class AppMouseTests: XCTestCase {
  private func click(_ harness: TUIHarness, x: Int, y: Int) {
    harness.app.handle(key: .click(x: x, y: y))
    harness.redraw()
  }

  // MARK: - The wheel

  func testTheWheelIsBoundLikeJAndK() {
    XCTAssertEqual(KeyMap.standard.command(for: .wheelDown, in: .lists), .move(.down))
    XCTAssertEqual(KeyMap.standard.command(for: .wheelUp, in: .lyrics), .move(.up))
    XCTAssertEqual(Key(name: "wheeldown"), .wheelDown)
    XCTAssertEqual(Key(name: "wheel-up"), .wheelUp)
    XCTAssertNil(Key(name: Key.click(x: 1, y: 2).description), "a click has no name to bind")
  }

  func testTheWheelScrollsTheLyricsViewByHandAndStopsFollowing() {
    let harness = TUIHarness.playingNumbered()
    harness.player.position = 21  // Line 10
    harness.press("l", "wheeldown", "wheeldown")
    let grid = harness.redraw()
    XCTAssertTrue(
      grid.row(1).hasPrefix(" Lyrics — seek mode ON (s) · scrolled: f follows"), grid.row(1))
    XCTAssertEqual(grid.row(8), "› Line 12", "two notches down from the line being sung")
    harness.press("wheelup")
    XCTAssertEqual(harness.redraw().row(8), "› Line 11")
    XCTAssertEqual(harness.app.lyricsView?.lastInput, harness.clock.now, "the wheel is input")
    harness.press("f")
    XCTAssertEqual(harness.app.lyricsView?.following, true)
  }

  func testTheWheelMovesAListSelection() {
    let harness = TUIHarness()
    harness.waitForHome()
    XCTAssertEqual(harness.selectedRow, "◉ 밤의 편지 — 달빛 우체국")
    harness.press("wheeldown", "wheeldown")
    XCTAssertEqual(harness.selectedRow, "◉ ブルーアワー — 青い自転車")
    harness.press("wheelup")
    XCTAssertEqual(harness.selectedRow, "◉ Tidewater Signals — Harbor Lights")
  }

  func testTheWheelDoesNotAnswerAQuestion() throws {
    let harness = TUIHarness(library: try TUIHarness.temporaryLibrary(self))
    harness.waitForHome()
    harness.press("3", "c")
    harness.type("Drive")
    harness.press("enter")
    harness.waitForLibrary()
    harness.press("d")
    guard case .confirm? = harness.app.overlay else { return XCTFail("no question asked") }
    harness.press("wheeldown")
    click(harness, x: 3, y: 3)
    guard case .confirm? = harness.app.overlay else {
      return XCTFail("the mouse answered the question")
    }
    harness.press("n")
    harness.waitForLibrary()
    XCTAssertEqual(try harness.library?.playlists().map(\.name), ["Drive"])
  }

  // MARK: - Clicks

  func testAClickSelectsAListRowAndIgnoresHeaders() {
    let harness = TUIHarness()
    harness.waitForHome()
    // Rows: 1 "New releases", 2–4 albums, 5 "Top tracks", 6– tracks.
    click(harness, x: 10, y: 7)
    XCTAssertEqual(harness.selectedRow, "♪ 첫눈 오는 날 — 달빛 우체국 · 밤의 편지")
    XCTAssertEqual(harness.redraw()[10, 7].style, .selected)
    click(harness, x: 10, y: 5)
    XCTAssertEqual(harness.selectedRow, "♪ 첫눈 오는 날 — 달빛 우체국 · 밤의 편지", "a header")
    click(harness, x: 10, y: 14)
    XCTAssertEqual(harness.selectedRow, "♪ 첫눈 오는 날 — 달빛 우체국 · 밤의 편지", "the bottom lines")
  }

  func testAClickFollowsAScrolledList() {
    let harness = TUIHarness()
    harness.waitForHome()
    harness.size = (60, 12)  // ten rows in nine: the list scrolls
    harness.press("G")
    let grid = harness.redraw()
    let lastRow = (0..<grid.height).first { grid.row($0).contains("Lost Tape") }
    XCTAssertNotNil(lastRow)
    click(harness, x: 5, y: (lastRow ?? 0) - 1)
    XCTAssertEqual(harness.selectedRow, "♪ Lighthouse Radio — Harbor Lights · Tidewater Signals")
  }

  func testAClickOnATabShowsItsPane() {
    let harness = TUIHarness()
    harness.waitForHome()
    // "1 Home  2 Search  3 Library  4 Player  5 Queue": 3 Library is columns 18–26.
    click(harness, x: 20, y: 0)
    XCTAssertEqual(harness.app.pane, .library)
    click(harness, x: 7, y: 0)
    XCTAssertEqual(harness.app.pane, .library, "the gap between two tabs")
    click(harness, x: 44, y: 0)
    XCTAssertEqual(harness.app.pane, .queue)
  }

  func testAClickOnALyricLineSelectsIt() {
    let harness = TUIHarness.playingNumbered()
    harness.player.position = 21  // Line 10 on row 8
    harness.press("l")
    click(harness, x: 4, y: 10)
    XCTAssertEqual(harness.app.lyricsView?.following, false)
    XCTAssertEqual(harness.redraw().row(8), "› Line 12", "Line 12 is selected and centred")
    harness.press("enter")
    XCTAssertEqual(harness.player.seeks.last, 24, "Enter seeks to the clicked line")
  }

  func testAClickClosesTheHelpLikeAnyKey() {
    let harness = TUIHarness()
    harness.waitForHome()
    harness.press("?")
    click(harness, x: 20, y: 0)
    XCTAssertNil(harness.app.overlay)
    XCTAssertEqual(harness.app.pane, .home, "the click only closed the help")
  }
}
