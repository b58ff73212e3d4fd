import Foundation
import RefrainCore
import XCTest

@testable import RefrainSession
@testable import RefrainTUI

/// The panes as their own types: a render that writes nothing but its grid, and command
/// handlers that change only the pane and say what the shell must do.
final class PaneTests: XCTestCase {
  // MARK: - The list pane

  private func content(queue: PlayQueue = PlayQueue(), library: Bool = true) -> ListContent {
    var browsing = Browsing()
    browsing.home = [
      HomeSection(
        id: "new", title: "New releases", kind: .other,
        items: [
          .track(FakeCatalog.umbrella), .track(FakeCatalog.firstSnow),
          .album(FakeCatalog.letters),
        ])
    ]
    browsing.homeState = ""
    browsing.library = LibrarySnapshot(
      playlists: [
        LibraryPlaylist(
          id: 7, name: "Night walk", trackCount: 2, createdAt: Date(timeIntervalSince1970: 0),
          updatedAt: Date(timeIntervalSince1970: 0))
      ], recentSearches: [])
    return ListContent(
      providerName: "fake", browsing: browsing, searchBox: SearchBox(), libraryAvailable: library,
      queue: QueueView(queue, canRestart: false),
      catalogTrack: { CatalogTrack(id: $0.id, provider: "file", title: $0.title) })
  }

  func testEnterOnATrackRowAsksTheShellToActivateItAndChangesNothingElse() {
    var pane = ListPane(.home)
    let content = content()
    let rows = pane.rows(content)
    pane.cursor.move(.down, rows: rows, page: 10)
    XCTAssertEqual(rows[pane.cursor.selection].text, "♪ 우산 하나 — 달빛 우체국 · 밤의 편지")
    guard
      case .effect(.activate(.item(.track(let track)))) = pane.handle(
        .open, rows: rows, page: 10, content)
    else { return XCTFail("Enter on a track row should ask to activate the track") }
    XCTAssertEqual(track.id, "umbrella")
    XCTAssertFalse(pane.hasDetail, "the shell pushes views, not the pane")
  }

  func testMovesAreTheListsOwnAndHeadersAreSkipped() {
    var pane = ListPane(.home)
    let content = content()
    let rows = pane.rows(content)
    guard case .handled = pane.handle(.move(.bottom), rows: rows, page: 10, content) else {
      return XCTFail("a move is handled by the list")
    }
    XCTAssertEqual(rows[pane.cursor.selection].text, "◉ 밤의 편지 — 달빛 우체국")
    _ = pane.handle(.move(.top), rows: rows, page: 10, content)
    XCTAssertFalse(rows[pane.cursor.selection].isHeader, "the first selectable row, not a header")
  }

  func testAddOnAHeaderSaysWhyAndAddOnATrackAsksToEnqueueIt() {
    var pane = ListPane(.home)
    let content = content()
    let rows = pane.rows(content)
    guard case .status(let text, let error) = pane.handle(.add, rows: rows, page: 10, content)
    else { return XCTFail("adding a header is explained") }
    XCTAssertEqual(text, "nothing here to add: select a track or a list")
    XCTAssertFalse(error)
    pane.cursor.move(.down, rows: rows, page: 10)
    guard
      case .effect(.enqueue(.now(let tracks))) = pane.handle(
        .add, rows: rows, page: 10, content)
    else { return XCTFail("a track row is enqueued") }
    XCTAssertEqual(tracks.map(\.id), ["umbrella"])
  }

  func testDeleteOnALibraryPlaylistOpensAQuestionAndWithoutALibraryAddToPlaylistIsAnError() {
    var pane = ListPane(.library)
    let content = content()
    let rows = pane.rows(content)
    pane.cursor.move(.top, rows: rows, page: 10)
    XCTAssertEqual(rows[pane.cursor.selection].text, "≡ Night walk")
    guard
      case .overlay(.confirm(let question, .deletePlaylist(7))) = pane.handle(
        .delete, rows: rows, page: 10, content)
    else { return XCTFail("delete asks first") }
    XCTAssertEqual(question, "Delete the playlist Night walk? (y/n)")

    let noLibrary = self.content(library: false)
    guard
      case .status(let text, error: true) = pane.handle(
        .addToPlaylist, rows: pane.rows(noLibrary), page: 10, noLibrary)
    else { return XCTFail("no library: an error") }
    XCTAssertEqual(text, "the library is not available")
  }

  func testBackPopsAnOpenDetailAndIsIgnoredWithoutOne() {
    var pane = ListPane(.home)
    let content = content()
    guard case .ignored = pane.handle(.back, rows: pane.rows(content), page: 10, content) else {
      return XCTFail("with nothing pushed, back is the shell's")
    }
    pane.details.append(DetailState(content: .tracks("Liked", [FakeCatalog.umbrella])))
    XCTAssertEqual(pane.rows(content).first?.text, "Liked")
    guard case .handled = pane.handle(.back, rows: pane.rows(content), page: 10, content) else {
      return XCTFail("back pops the detail")
    }
    XCTAssertFalse(pane.hasDetail)
  }

  func testMovingAQueueEntryMovesTheCursorWithIt() {
    let queue = PlayQueue(
      [FakeCatalog.umbrella, FakeCatalog.firstSnow].map {
        Track(id: $0.id, location: URL(fileURLWithPath: "/music/\($0.id).mp3"), title: $0.title)
      }, startAt: 0)
    var pane = ListPane(.queue)
    let content = content(queue: queue)
    let rows = pane.rows(content)
    pane.cursor.move(.top, rows: rows, page: 10)
    guard
      case .effect(.moveInQueue(from: 0, to: 1)) = pane.handle(
        .moveItemDown, rows: rows, page: 10, content)
    else { return XCTFail("J on the first entry moves it down") }
    XCTAssertEqual(pane.cursor.selection, 2, "the cursor follows the entry (row 0 is the header)")
  }

  // MARK: - The lyrics view

  private func lyrics(at position: Double) -> LyricsModel {
    LyricsModel(
      timeline: LyricFollower(document: TestLyrics.numbered).timeline, position: position,
      notice: nil, highlight: .line, colors: true)
  }

  func testEnterInSeekModeAsksTheSessionToSeekToTheSelectedLine() {
    var view = LyricsPane()
    _ = view.handle(.move(.down), model: lyrics(at: 4.5), page: 20)
    XCTAssertEqual(view.selection, 2, "one below the sung line (Line 2, index 1)")
    guard case .session(.lyricLine(2)) = view.handle(.open, model: lyrics(at: 4.5), page: 20)
    else { return XCTFail("Enter seeks through the session") }
    XCTAssertTrue(view.following)
    guard case .close = view.handle(.back, model: lyrics(at: 4.5), page: 20) else {
      return XCTFail("Esc closes the view")
    }
    guard case .status(let text, _) = view.handle(.seekMode, model: lyrics(at: 4.5), page: 20)
    else { return XCTFail("s says what it did") }
    XCTAssertEqual(text, "seek mode off: Enter closes")
    guard case .close = view.handle(.open, model: lyrics(at: 4.5), page: 20) else {
      return XCTFail("with seek mode off, Enter closes")
    }
  }

  func testTheLyricsViewDrawsTheSungLineAndRecordsWhereEachLineIs() {
    let view = LyricsPane()
    var grid = ScreenGrid(width: 40, height: 10)
    var layout = FrameLayout()
    view.render(
      lyrics(at: 6.2), into: &grid, in: Rect(x: 0, y: 0, width: 40, height: 10), layout: &layout)
    let sung = (0..<10).first { grid.row($0).contains("Line 3") }
    XCTAssertNotNil(sung)
    XCTAssertEqual(grid[2, sung ?? 0].style, .current, "the sung line is drawn in its style")
    XCTAssertEqual(layout.lyricLines[sung ?? 0], 2, "a click on that row means line 3")
  }

  // MARK: - Pure rendering

  func testAFrameWritesNothingAndDrawingKeepsTheLayoutAndDropsAnExpiredStatus() {
    let harness = TUIHarness.playingNumbered()
    harness.press("1")
    harness.press("G")
    harness.app.setStatus("saved", seconds: 1)
    harness.clock.now += 2
    let cursor = harness.app.cursor
    let first = harness.app.frame(width: 60, height: 16)
    let second = harness.app.frame(width: 60, height: 16)
    XCTAssertEqual(first.grid, second.grid, "the same state gives the same frame")
    XCTAssertFalse(first.grid.text.contains("saved"), "an expired message is not shown")
    XCTAssertNotNil(harness.app.status, "computing a frame did not clear it")
    XCTAssertEqual(harness.app.cursor.selection, cursor.selection)
    XCTAssertEqual(harness.app.draw(width: 60, height: 16), first.grid)
    XCTAssertNil(harness.app.status, "drawing drops the expired message")
  }

  func testThePlayerPaneIsAFunctionOfItsModel() {
    let track = Track(
      id: "t", location: URL(fileURLWithPath: "/music/t.mp3"), title: "Harbor Song",
      artist: "Tidewater", album: "Signals")
    let model = PlayerModel(
      snapshot: PlaybackSnapshot(
        state: .paused, track: track, index: 0, queueCount: 3, position: 65, duration: 180,
        volume: 80, isShuffled: false, repeatMode: .off, lastError: nil, warning: nil,
        isFinished: false),
      lyrics: LyricsModel(
        timeline: nil, position: 65, notice: nil, highlight: .line, colors: true),
      lyricOffsetMs: -150)
    var grid = ScreenGrid(width: 80, height: 20)
    var layout = FrameLayout()
    PlayerPane().render(
      model, into: &grid, in: Rect(x: 0, y: 0, width: 80, height: 20), layout: &layout)
    XCTAssertNil(layout.cover, "no cover is asked for when the terminal shows no pictures")
    let text = grid.text
    for expected in [
      "Harbor Song", "Tidewater", "Signals", "vol 80%", "lyrics -150 ms", "track 1 of 3  paused",
      "1:05", "3:00", "no lyrics",
    ] {
      XCTAssertTrue(text.contains(expected), "the pane shows \(expected):\n\(text)")
    }
  }

  func testThePlayerPaneShowsTheReplayGainApplied() {
    let track = Track(
      id: "t", location: URL(fileURLWithPath: "/music/t.flac"), title: "Harbor Song")
    func modes(_ gain: Double?) -> String {
      let model = PlayerModel(
        snapshot: PlaybackSnapshot(
          state: .playing, track: track, index: 0, queueCount: 1, position: 5, duration: 180,
          volume: 100, isShuffled: false, repeatMode: .off, lastError: nil, warning: nil,
          isFinished: false, replayGain: gain),
        lyrics: LyricsModel(
          timeline: nil, position: 5, notice: nil, highlight: .line, colors: true),
        lyricOffsetMs: 0)
      var grid = ScreenGrid(width: 80, height: 20)
      var layout = FrameLayout()
      PlayerPane().render(
        model, into: &grid, in: Rect(x: 0, y: 0, width: 80, height: 20), layout: &layout)
      return grid.text
    }
    XCTAssertTrue(modes(-6.2049).contains("repeat off  RG −6.2 dB"), modes(-6.2049))
    XCTAssertTrue(modes(4).contains("RG +4.0 dB"), modes(4))
    XCTAssertFalse(modes(nil).contains("RG"), modes(nil))
  }
}
