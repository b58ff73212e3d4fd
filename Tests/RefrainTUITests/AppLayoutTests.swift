import RefrainCatalog
import RefrainCore
import XCTest

@testable import RefrainTUI

/// The frame around the panes: sizes, the help overlay, the `:` prompt, status and quitting.
final class AppLayoutTests: XCTestCase {
  private func home() -> TUIHarness {
    let harness = TUIHarness()
    harness.waitForHome()
    return harness
  }

  // MARK: - Sizes

  func testFortyByTwelveIsTheSmallestFullLayout() {
    let harness = home()
    assertScreen(
      harness.screen(40, 12),
      """
      1 Home  2 Search  3 Library  4 Player  …
       New releases
        ◉ 밤의 편지 — 달빛 우체국        2025
        ◉ Tidewater Signals — Harbor Li… 2024
        ◉ ブルーアワー — 青い自転車      2023
       Top tracks
        ♪ 우산 하나 — 달빛 우체국 · 밤…  0:32
        ♪ 첫눈 오는 날 — 달빛 우체국 · … 0:30
        ♪ 夜のトラム — 青い自転車 · ブ…  0:30
        ♪ Lighthouse Radio — Harbor Lig… 0:27
       ■ stopped
       ? help  / search  l lyrics  space pla…
      """)
  }

  func testBelowFortyByTwelveTheScreenSaysItIsTooSmall() {
    let harness = home()
    for (width, height) in [(39, 12), (40, 11), (30, 8)] {
      let grid = harness.app.draw(width: width, height: height)
      XCTAssertEqual(grid.row(0), "terminal too small", "\(width)×\(height)")
      XCTAssertEqual(grid.row(1), "(\(width)×\(height), needs 40×12)")
      XCTAssertEqual((2..<height).map { grid.row($0) }.joined(), "", "nothing else is drawn")
    }
    XCTAssertEqual(harness.app.draw(width: 10, height: 2).text, "terminal …\n(10×2, ne…")
    XCTAssertEqual(harness.app.draw(width: 1, height: 1).text, "…")
    XCTAssertEqual(harness.app.draw(width: 0, height: 0).text, "")
  }

  func testGrowingBackKeepsThePaneAndItsState() {
    let harness = home()
    harness.press("/")
    harness.type("우산")
    harness.press("enter")
    harness.waitForSearch()
    harness.app.handle(key: .resize)
    XCTAssertEqual(harness.screen(30, 8).components(separatedBy: "\n").first, "terminal too small")
    harness.app.handle(key: .resize)
    let grid = harness.app.draw(width: 100, height: 30)
    XCTAssertEqual(grid.row(1), " / 우산")
    XCTAssertEqual(grid.row(3), aligned("  ♪ 우산 하나 — 달빛 우체국 · 밤의 편지", "0:32", width: 100))
    XCTAssertEqual(
      grid.row(0),
      "1 Home  2 Search  3 Library  4 Player  5 Queue" + String(repeating: " ", count: 40)
        + "Refrain · fake", "the catalog's name shows when there is room")
  }

  func testNoRowIsWiderThanTheScreenAtAnySize() {
    let harness = TUIHarness(lyrics: [
      "fake:umbrella": .found(TestLyrics.umbrella, source: .sidecar)
    ])
    harness.waitForHome()
    harness.playFromHome("우산 하나", duration: 32.7)
    harness.player.position = 13
    for keys in [["1"], ["2"], ["3"], ["4"], ["5"], ["4", "l"], ["?"]] {
      for key in keys { harness.press(key) }
      for width in [40, 41, 57, 60, 80, 100, 133] {
        for height in [12, 13, 16, 24, 30] {
          let grid = harness.app.draw(width: width, height: height)
          for y in 0..<height {
            XCTAssertLessThanOrEqual(
              DisplayWidth.of(grid.row(y)), width, "\(keys) at \(width)×\(height), row \(y)")
          }
        }
      }
      harness.press("esc")
    }
  }

  // MARK: - Help

  func testQuestionMarkShowsTheKeysForThisPane() {
    let harness = home()
    harness.press("?")
    assertScreen(
      harness.screen(60, 16),
      """
      1 Home  2 Search  3 Library  4 Player  5 Queue

        +- Keys (any key closes) ------------------------------+
        | P         play all (queue the list)                  |
        | c         new playlist                               |
        | R         rename the playlist                        |
        | d         delete the playlist (asks first)           |
        | x         remove from the playlist / queue           |
        | J         move the entry down                        |
        | K         move the entry up                          |
        | I         import your Spotify library                |
        | 1         Home pane                                  |
        | … 36 more: refrain keys                              |
        +------------------------------------------------------+
       ■ stopped
       ? help  / search  l lyrics  space play/pause  q back
      """)
    harness.press("esc")
    XCTAssertNil(harness.app.overlay)
    XCTAssertEqual(harness.app.pane, .home, "Esc only closed the help")
  }

  func testAtOneHundredByThirtyTheHelpShowsEveryKeyInTwoColumns() {
    let harness = home()
    harness.size = (100, 30)
    harness.press("?")
    let screen = harness.screen()
    for binding in KeyMap.standard.bindings(in: .lists) where binding.command != .show(.room) {
      XCTAssertTrue(
        screen.contains(binding.help), "\(binding.key): \(binding.help) is missing\n\(screen)")
    }
    XCTAssertFalse(screen.contains("Room view"), "the Room tab's key outside a room\n\(screen)")
    XCTAssertFalse(screen.contains("more: refrain keys"))
    let rows = screen.components(separatedBy: "\n")
    XCTAssertTrue(
      rows.contains {
        $0.contains("play all (queue the list)") && $0.contains("repeat: off → all → one")
      },
      "two columns\n\(screen)")
    XCTAssertTrue(screen.contains("j, down   down"), "keys for one command share a line")
    XCTAssertTrue(screen.contains("G, end    last item"))
    XCTAssertTrue(
      screen.contains("p         previous track (restarts after 3 s)"), "nothing is cut")
  }

  func testHelpOnThePlayerPaneListsOnlyKeysThatWorkThere() {
    let harness = home()
    harness.size = (100, 30)
    harness.playFromHome("우산 하나", duration: 32.7)
    harness.press("4", "?")
    let screen = harness.screen()
    for gone in [
      "play all (queue the list)", "new playlist", "rename the playlist", "delete the playlist",
      "remove from the playlist", "move the entry", "import your Spotify", "Room view",
      "open / play this", "add the selection", "first item",
    ] {
      XCTAssertFalse(screen.contains(gone), "\(gone) is listed on the Player pane\n\(screen)")
    }
    for kept in ["play / pause", "next track", "save the album / like the track", "Player pane"] {
      XCTAssertTrue(screen.contains(kept), "\(kept) is missing\n\(screen)")
    }
  }

  func testHelpInTheLyricsViewStartsWithItsOwnKeys() {
    let harness = home()
    harness.playFromHome("우산 하나", duration: 32.7)
    harness.press("l", "?")
    let grid = harness.redraw()
    XCTAssertTrue(grid.row(3).contains("s         seek mode on / off"), grid.row(3))
    XCTAssertTrue(grid.row(4).contains("f         follow the current line again"), grid.row(4))
    XCTAssertTrue(
      grid.row(5).contains("enter     seek to the line (seek mode) or close"), grid.row(5))
    XCTAssertFalse(grid.text.contains("open / play this"), "the global Enter does not apply here")
  }

  func testAnUnboundKeyClosesTheHelpToo() {
    let harness = home()
    harness.press("?")
    XCTAssertNotNil(harness.app.overlay)
    harness.press("w")
    XCTAssertNil(harness.app.overlay, "the help says any key closes it")
    XCTAssertEqual(harness.app.pane, .home)
  }

  func testABoundKeyClosesTheHelpAndStillWorks() {
    let harness = home()
    harness.press("?", "j")
    XCTAssertNil(harness.app.overlay)
    XCTAssertEqual(harness.selectedRow, "◉ Tidewater Signals — Harbor Lights")
  }

  // MARK: - The : prompt

  func testThePromptEchoesWhatIsTypedOnTheStatusLine() {
    let harness = home()
    harness.press(":")
    XCTAssertEqual(harness.row(15), ": ▏")
    harness.type("show queue")
    XCTAssertEqual(harness.row(15), ": show queue▏")
    harness.press("enter")
    XCTAssertEqual(harness.app.pane, .queue)
    XCTAssertEqual(harness.row(15), " ? help  / search  l lyrics  space play/pause  q back")
  }

  func testParseErrorsAppearOnTheStatusLine() {
    let harness = home()
    harness.size = (100, 30)
    let cases = [
      ("seek abc", "expected 'seek ±SEC', 'seek SEC' or 'seek mm:ss'"),
      ("frobnicate", "unknown command 'frobnicate'"),
      ("volume 150", "expected 'volume ±N' or 'volume N' (0 to 100)"),
      ("show nowhere", "expected 'show' and one of: home, search, library, player, queue, room"),
      ("next please", "'next' takes no argument"),
    ]
    for (input, message) in cases {
      harness.press(":")
      harness.type(input)
      harness.press("enter")
      let grid = harness.redraw()
      XCTAssertEqual(grid.row(29), " \(message)", input)
      XCTAssertEqual(grid[1, 29].style, .error, input)
    }
    XCTAssertEqual(harness.app.pane, .home)
  }

  func testPromptCommandsAct() {
    let harness = home()
    harness.press(":")
    harness.type("volume 40")
    harness.press("enter")
    XCTAssertEqual(harness.player.calls.last, .setVolume(40))
    XCTAssertEqual(harness.row(15), " volume 40%")
    harness.press(":")
    harness.type("search 夜の")
    harness.press("enter")
    harness.waitForSearch()
    XCTAssertEqual(harness.row(1), " / 夜の")
    XCTAssertEqual(harness.row(3), aligned("  ♪ 夜のトラム — 青い自転車 · ブルーアワー", "0:30", width: 60))
  }

  func testEscAndAnEmptyLineLeaveThePromptWithoutAnError() {
    let harness = home()
    harness.press(":")
    harness.type("quit")
    harness.press("esc")
    XCTAssertFalse(harness.app.shouldQuit)
    harness.press(":", "enter")
    XCTAssertEqual(harness.row(15), " ? help  / search  l lyrics  space play/pause  q back")
  }

  // MARK: - Status and quitting

  func testStatusMessagesGoAwayAfterTheirTime() {
    let harness = home()
    harness.press("=")
    XCTAssertEqual(harness.row(15), " volume 100%")
    harness.clock.now += 3.9
    XCTAssertEqual(harness.row(15), " volume 100%")
    harness.clock.now += 0.2
    XCTAssertEqual(harness.row(15), " ? help  / search  l lyrics  space play/pause  q back")
  }

  func testAStartupNoticeIsShownAsAnError() {
    let harness = TUIHarness(notice: "no audio server: set PULSE_SERVER — playing silently")
    harness.waitForHome()
    let grid = harness.redraw()
    XCTAssertEqual(grid.row(15), " no audio server: set PULSE_SERVER — playing silently")
    XCTAssertEqual(grid[1, 15].style, .error)
  }

  func testQQuitsFromHomeAtOnceWhenNothingPlays() {
    let harness = home()
    harness.press("3", "q")
    XCTAssertEqual(harness.app.pane, .home, "q goes back to Home first")
    XCTAssertFalse(harness.app.shouldQuit)
    harness.press("q")
    XCTAssertTrue(harness.app.shouldQuit)
  }

  func testQAsksFirstWhileMusicPlays() {
    let harness = home()
    harness.playFromHome("우산 하나", duration: 32.7)
    harness.press("q")
    XCTAssertEqual(harness.row(15), "Quit while music is playing? (y/n)")
    XCTAssertEqual(
      harness.app.draw(width: 40, height: 12).row(11), "Quit while music is playing? (y/n)",
      "the question fits the smallest screen")
    harness.press("n")
    XCTAssertFalse(harness.app.shouldQuit)
    harness.press("q", "y")
    XCTAssertTrue(harness.app.shouldQuit)
  }

  func testTabCyclesThroughThePanes() {
    let harness = home()
    var seen: [Command.Pane] = []
    for _ in 0..<5 {
      harness.press("tab")
      seen.append(harness.app.pane)
    }
    XCTAssertEqual(seen, [.search, .library, .player, .queue, .home])
  }

  func testTheActiveTabIsMarked() {
    let harness = home()
    harness.press("3")
    let grid = harness.redraw()
    XCTAssertEqual(grid[18, 0].text, "3")
    XCTAssertEqual(grid[18, 0].style, .tabActive)
    XCTAssertEqual(grid[0, 0].style, .tabInactive)
  }
}
