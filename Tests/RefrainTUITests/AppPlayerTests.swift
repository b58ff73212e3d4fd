import RefrainCatalog
import RefrainCore
import XCTest

@testable import RefrainSession
@testable import RefrainTUI

/// The Player pane, the now-playing line and the Queue view.
final class AppPlayerTests: XCTestCase {
  private func playing(
    _ title: String = "우산 하나", duration: Double = 32.7,
    lyrics: [String: LyricsResult] = [
      "fake:umbrella": .found(TestLyrics.umbrella, source: .sidecar)
    ]
  ) -> TUIHarness {
    let harness = TUIHarness(lyrics: lyrics)
    harness.waitForHome()
    harness.playFromHome(title, duration: duration)
    return harness
  }

  // MARK: - Player pane

  func testThePlayerPaneSaysWhatToDoWhenNothingPlays() {
    let harness = TUIHarness()
    harness.waitForHome()
    harness.press("4")
    XCTAssertEqual(harness.row(7), " Nothing playing. Pick something on Home (1) or Search (2).")
    XCTAssertEqual(harness.row(14), " ■ stopped")
  }

  func testThePlayerShowsTheTrackProgressAndTwoLinesOfLyrics() {
    let harness = playing()
    harness.player.position = 10.2
    harness.press("4")
    assertScreen(
      harness.screen(60, 20),
      """
      1 Home  2 Search  3 Library  4 Player  5 Queue

        +------------------+   우산 하나
        |                  |   달빛 우체국
        |                  |   밤의 편지
        |                  |
        |        ♪         |   vol 100%  shuffle off  repeat off
        |      cover       |   track 1 of 1  playing
        |                  |
        |                  |
        |                  |
        +------------------+

        0:10 [=============-------------------------------] 0:32

                          우산 하나에 두 사람
                           젖은 어깨도 괜찮아

       ▶ 우산 하나 — 달빛 우체국                      0:10 / 0:32
       ? help  / search  l lyrics  space play/pause  q back
      """)
  }

  func testARadioStationShowsTheTitleOnAirAndSaysWhenItReconnects() throws {
    let harness = TUIHarness()
    harness.waitForHome()
    harness.presenter.playSingle(
      RadioStation(name: "Tones FM", url: "http://127.0.0.1:9/radio.mp3").track)
    let station = try XCTUnwrap(harness.presenter.queue.current)
    harness.player.setState(.playing)
    harness.app.handlePlayerEvents([
      .stream(station, .live), .stream(station, .title(StreamTitle(raw: "Ada - Engine Song"))),
      .started(station, duration: nil),
    ])
    harness.press("4")
    let screen = harness.screen(60, 20)
    XCTAssertTrue(screen.contains("Engine Song\n"), screen)
    XCTAssertTrue(screen.contains("Ada\n"), screen)
    XCTAssertTrue(screen.contains("Tones FM\n"), screen)
    XCTAssertTrue(screen.contains("▶ Engine Song — Ada"), screen)
    harness.app.handlePlayerEvents([
      .stream(station, .reconnecting(reason: "connection refused", retryIn: 4))
    ])
    XCTAssertTrue(
      harness.screen(60, 20).contains("stream lost (connection refused): reconnecting in 4.0 s"))
  }

  func testTheTwoLyricLinesFollowTheClock() {
    let harness = playing()
    harness.press("4")
    harness.size = (60, 20)
    let expectations: [(Double, String, String)] = [
      (1.0, "♪", "비가 내리는 버스 정류장"),
      (5.45, "비가 내리는 버스 정류장", "우산 하나에 두 사람"),
      (12.3, "젖은 어깨도 괜찮아", "네 노래가 들리니까"),
      (16.0, "네 노래가 들리니까", ""),
      (18.0, "♪", "조금 더 천천히 걸어요"),
      (30.0, "조금 더 천천히 걸어요", ""),
    ]
    for (position, current, next) in expectations {
      harness.player.position = position
      let grid = harness.redraw()
      XCTAssertEqual(grid.row(15).trimmingCharacters(in: .whitespaces), current, "at \(position) s")
      XCTAssertEqual(grid.row(16).trimmingCharacters(in: .whitespaces), next, "at \(position) s")
      let column = grid.row(15).prefix { $0 == " " }.count
      XCTAssertEqual(
        grid[column, 15].style, .current, "the current line is highlighted at \(position) s")
    }
    // 44 cells of bar; 30 of 32.7 s fills 40 of them.
    XCTAssertEqual(
      harness.row(13),
      "  0:30 [" + String(repeating: "=", count: 40) + String(repeating: "-", count: 4) + "] 0:32")
  }

  func testThePlayerSaysWhenThereAreNoLyrics() {
    let harness = playing("Lighthouse Radio", duration: 27.5, lyrics: [:])
    harness.press("4")
    harness.size = (60, 20)
    XCTAssertEqual(
      harness.row(15).trimmingCharacters(in: .whitespaces), "no lyrics: no lyrics in the test")
  }

  func testPlainLyricsAreNotFollowed() {
    var plain = TestLyrics.umbrella
    plain.isSynced = false
    let harness = playing(lyrics: ["fake:umbrella": .found(plain, source: .embedded)])
    harness.press("4")
    harness.size = (60, 20)
    XCTAssertEqual(
      harness.row(15).trimmingCharacters(in: .whitespaces), "plain lyrics (not synced)")
  }

  func testSpacePausesAndTheNowPlayingLineSaysSo() {
    let harness = playing()
    harness.player.position = 61
    XCTAssertEqual(harness.row(14), aligned(" ▶ 우산 하나 — 달빛 우체국", "1:01 / 0:32", width: 60))
    harness.press("space")
    XCTAssertEqual(harness.player.calls.last, .pause)
    XCTAssertEqual(harness.row(14), aligned(" ⏸ 우산 하나 — 달빛 우체국", "1:01 / 0:32", width: 60))
  }

  func testTheTickingTimeIsInTheDefaultStyle() {
    // A tick then reaches the terminal as the changed digit alone: no colour set and reset.
    let harness = playing()
    harness.player.position = 12
    harness.press("l")
    let grid = harness.redraw()
    let row = grid.row(14)
    XCTAssertTrue(row.hasSuffix("0:12 / 0:32"), row)
    for x in (60 - 1 - 11)..<(60 - 1) {
      XCTAssertEqual(grid[x, 14].style, .normal, "column \(x) of \(row)")
    }
  }

  func testTransportKeysReachThePlayer() {
    let harness = playing()
    harness.player.position = 10
    harness.press("right")
    XCTAssertEqual(harness.player.seeks.last, 15)
    harness.press("left", "left")
    XCTAssertEqual(harness.player.seeks.last, 5)
    harness.press("-")
    XCTAssertEqual(harness.row(15), " volume 95%")
    harness.press("z")
    XCTAssertEqual(harness.row(15), " shuffle on")
    harness.press("r")
    XCTAssertEqual(harness.row(15), " repeat all")
  }

  func testALongTitleIsCutBeforeTheTime() {
    let harness = playing()
    harness.size = (40, 12)
    XCTAssertEqual(harness.row(10), " ▶ 우산 하나 — 달빛 우체국  0:00 / 0:32")
    harness.size = (44, 12)
    XCTAssertEqual(harness.row(10), " ▶ 우산 하나 — 달빛 우체국      0:00 / 0:32")
  }

  // MARK: - Queue

  func testTheQueueListsItsTracksAndMarksTheCurrentOne() {
    let harness = playing()
    harness.press("1", "g")
    harness.select("첫눈 오는 날")
    harness.press("a")
    XCTAssertEqual(harness.row(15), " added 1 track to the queue")
    harness.select("Lighthouse Radio")
    harness.press("a", "5")
    assertScreen(
      harness.screen(60, 12),
      """
      1 Home  2 Search  3 Library  4 Player  5 Queue
       Queue (3)
        ▶ 우산 하나 — 달빛 우체국                            0:32
          첫눈 오는 날 — 달빛 우체국                         0:30
          Lighthouse Radio — Harbor Lights                   0:27





       ▶ 우산 하나 — 달빛 우체국                      0:00 / 0:32
       added 1 track to the queue
      """)
  }

  func testQueueEntriesMoveAndGo() {
    let harness = playing()
    harness.press("1", "g")
    for title in ["첫눈 오는 날", "Lighthouse Radio"] {
      harness.select(title)
      harness.press("a")
    }
    harness.press("5", "j")
    XCTAssertEqual(harness.selectedRow, "  첫눈 오는 날 — 달빛 우체국")
    harness.press("J")
    XCTAssertEqual(
      harness.presenter.queue.tracks.map(\.title), ["우산 하나", "Lighthouse Radio", "첫눈 오는 날"])
    XCTAssertEqual(harness.selectedRow, "  첫눈 오는 날 — 달빛 우체국", "the cursor follows the entry")
    harness.press("x")
    XCTAssertEqual(harness.presenter.queue.tracks.map(\.title), ["우산 하나", "Lighthouse Radio"])
    XCTAssertEqual(
      harness.selectedRow, "  Lighthouse Radio — Harbor Lights", "the cursor stays in the list")
    harness.press("enter")
    XCTAssertEqual(harness.player.played.last?.title, "Lighthouse Radio", "Enter plays the entry")
  }

  func testAnEmptyQueueSaysHowToFillIt() {
    let harness = TUIHarness()
    harness.waitForHome()
    harness.press("5")
    XCTAssertEqual(harness.row(1), " The queue is empty: press a on a track or P on a list.")
  }

  func testAnUnplayableTrackSaysWhy() {
    let harness = TUIHarness()
    harness.waitForHome()
    harness.select("Lost Tape")
    harness.press("enter")
    harness.waitFor("the error") { harness.row(15).contains("no preview") }
    XCTAssertEqual(harness.row(15), " Lost Tape: cannot play: no preview")
    XCTAssertEqual(harness.player.played, [])
  }
}

/// The Player pane at the smallest sizes: the two lyric lines stay, other rows give way.
final class AppPlayerSmallTests: XCTestCase {
  private func playing() -> TUIHarness {
    let harness = TUIHarness(lyrics: [
      "fake:umbrella": .found(TestLyrics.umbrella, source: .sidecar)
    ])
    harness.waitForHome()
    harness.playFromHome("우산 하나", duration: 32.7)
    harness.player.position = 10.2
    harness.press("4")
    return harness
  }

  func testAtFortyByTwelveThePlayerStillShowsTheTwoLyricLines() {
    let harness = playing()
    assertScreen(
      harness.screen(40, 12),
      """
      1 Home  2 Search  3 Library  4 Player  …

        우산 하나
        달빛 우체국
        vol 100%  shuffle off  repeat off
        track 1 of 1  playing

        0:10 [=======-----------------] 0:32
                우산 하나에 두 사람
                 젖은 어깨도 괜찮아
       ▶ 우산 하나 — 달빛 우체국  0:10 / 0:32
       ? help  / search  l lyrics  space pla…
      """)
    let grid = harness.app.draw(width: 40, height: 12)
    XCTAssertEqual(grid[10, 8].style, .current, "the current line is highlighted")
    XCTAssertEqual(grid[11, 9].style, .dim)
  }

  func testAtThirteenRowsTheAlbumLineGoesFirst() {
    let harness = playing()
    assertScreen(
      harness.screen(40, 13),
      """
      1 Home  2 Search  3 Library  4 Player  …

        우산 하나
        달빛 우체국

        vol 100%  shuffle off  repeat off
        track 1 of 1  playing

        0:10 [=======-----------------] 0:32
                우산 하나에 두 사람
                 젖은 어깨도 괜찮아
       ▶ 우산 하나 — 달빛 우체국  0:10 / 0:32
       ? help  / search  l lyrics  space pla…
      """)
  }

  func testFromFourteenRowsEveryRowShows() {
    let harness = playing()
    let grid = harness.app.draw(width: 40, height: 14)
    XCTAssertEqual(grid.row(4), "  밤의 편지", "the album is back")
    XCTAssertEqual(grid.row(9), "  0:10 [=======-----------------] 0:32")
    XCTAssertEqual(grid.row(10).trimmingCharacters(in: .whitespaces), "우산 하나에 두 사람")
    XCTAssertEqual(grid.row(11).trimmingCharacters(in: .whitespaces), "젖은 어깨도 괜찮아")
  }

  func testRowsGiveWayInOrderAndTheLyricsAlwaysStay() {
    XCTAssertEqual(PlayerRow.fitting(12), PlayerRow.all)
    XCTAssertEqual(
      PlayerRow.fitting(9), [.gap(0), .title, .artist, .modes, .queue, .gap(2), .progress, .lyrics])
    XCTAssertEqual(PlayerRow.fitting(4), [.title, .progress, .lyrics])
    XCTAssertEqual(PlayerRow.fitting(1), [.title, .progress, .lyrics], "never fewer")
  }
}
