import RefrainCatalog
import RefrainCore
import XCTest

@testable import RefrainTUI

/// Overlays hide what is behind them: the help and the picker clear their box and a
/// one-cell margin around it; the prompt and questions take the whole status line.
final class AppOverlayTests: XCTestCase {
  private static let sizes = [
    (40, 12), (57, 16), (60, 16), (61, 17), (80, 24), (100, 30), (133, 30),
  ]

  /// Thirty queued tracks with long Korean and Japanese titles: wide characters on every
  /// row, cut at odd columns by a box's border.
  private static let busyTracks = (1...30).map { index in
    CatalogTrack(
      id: "busy-\(index)", provider: "fake",
      title: "\(index) 비가 내리는 버스 정류장 우산 하나에 두 사람 夜のトラムとブルーアワー",
      artist: "달빛 우체국 青い自転車", album: "밤의 편지", duration: 30,
      streamURL: URL(fileURLWithPath: "/music/busy-\(index).mp3"))
  }

  /// The box of the overlay titled `title` and its margin, within the pane area.
  private func overlayArea(titled title: String, in grid: ScreenGrid) -> Rect? {
    guard let top = (0..<grid.height).first(where: { grid.row($0).contains("+- \(title)") }),
      let left = (0..<grid.width).first(where: { grid[$0, top].text == "+" }),
      let right = (0..<grid.width).last(where: { grid[$0, top].text == "+" }),
      let bottom = ((top + 1)..<grid.height).first(where: { grid[left, $0].text == "+" })
    else { return nil }
    let first = max(1, top - 1)
    let last = min(grid.height - 3, bottom + 1)
    return Rect(x: left - 1, y: first, width: right - left + 3, height: last - first + 1)
  }

  /// Asserts the overlay's area is the same cell for cell over a busy and a quiet pane.
  private func assertSameOverlay(
    titled title: String, busy: ScreenGrid, quiet: ScreenGrid, _ size: (Int, Int),
    file: StaticString = #filePath, line: UInt = #line
  ) {
    guard let area = overlayArea(titled: title, in: busy) else {
      return XCTFail("no \(title) box at \(size)\n\(busy.text)", file: file, line: line)
    }
    XCTAssertEqual(overlayArea(titled: title, in: quiet), area, "\(size)", file: file, line: line)
    for y in area.y..<(area.y + area.height) {
      for x in max(0, area.x)..<min(busy.width, area.x + area.width) where busy[x, y] != quiet[x, y]
      {
        return XCTFail(
          "the pane shows through at column \(x), row \(y) at \(size):\n\(busy.text)", file: file,
          line: line)
      }
    }
  }

  // MARK: - Boxes

  func testTheHelpHidesABusyPaneBehindItsBoxAndMargin() {
    let quiet = TUIHarness()
    quiet.waitForHome()
    quiet.press("5", "?")
    let busy = TUIHarness()
    busy.waitForHome()
    busy.app.show(busy.app.execute(.enqueue(Self.busyTracks)))
    busy.press("5", "G", "?")
    for size in Self.sizes {
      let busyGrid = busy.app.draw(width: size.0, height: size.1)
      XCTAssertTrue(busyGrid.text.contains("비가 내리는"), "the pane behind is busy at \(size)")
      assertSameOverlay(
        titled: "Keys (any key closes)", busy: busyGrid,
        quiet: quiet.app.draw(width: size.0, height: size.1), size)
    }
  }

  func testThePickerHidesABusyPaneBehindItsBoxAndMargin() throws {
    let quiet = TUIHarness(library: try TUIHarness.temporaryLibrary(self))
    let busy = TUIHarness(library: try TUIHarness.temporaryLibrary(self))
    for harness in [quiet, busy] {
      harness.waitForHome()
      _ = try harness.library?.createPlaylist(named: "밤 드라이브 — a long name for a playlist")
    }
    quiet.press("2")
    quiet.type("Lost Tape")
    quiet.press("enter")
    quiet.waitForSearch()
    quiet.press("A")
    quiet.waitForLibrary()
    busy.app.show(busy.app.execute(.enqueue(Self.busyTracks)))
    busy.press("5", "j", "j", "A")
    busy.waitForLibrary()
    for size in Self.sizes {
      let busyGrid = busy.app.draw(width: size.0, height: size.1)
      assertSameOverlay(
        titled: "Add 1 to playlist", busy: busyGrid,
        quiet: quiet.app.draw(width: size.0, height: size.1), size)
    }
    let grid = busy.app.draw(width: 60, height: 16)
    let blank = String(repeating: " ", count: 51)
    XCTAssertEqual(grid.row(2), "  ▶ \(blank) :30", "the margin above the box")
    XCTAssertEqual(grid.row(4), "     | 밤 드라이브 — a long name for a playlist       | :30")
    XCTAssertEqual(grid.row(6), "     +------------------------------------------------+ :30")
    XCTAssertEqual(grid.row(7), "    \(blank) :30", "the margin below the box")
    XCTAssertTrue(grid.row(8).contains("비가 내리는"), "the pane shows again below the margin")
  }

  func testThePickerScrollsWithItsSelection() throws {
    let harness = TUIHarness(library: try TUIHarness.temporaryLibrary(self))
    harness.waitForHome()
    for index in 1...12 { _ = try harness.library?.createPlaylist(named: "List \(index)") }
    harness.press("1")
    harness.select("우산 하나")
    harness.press("A")
    harness.waitForLibrary()
    harness.press("G")
    let grid = harness.app.draw(width: 60, height: 16)
    XCTAssertTrue(grid.text.contains("+ New playlist…"), "the last entry is shown\n\(grid.text)")
    XCTAssertFalse(grid.text.contains("| List 1 "), "the first ones scrolled away\n\(grid.text)")
  }

  // MARK: - The status line

  func testThePromptAndQuestionsTakeTheWholeStatusLine() throws {
    let harness = TUIHarness(library: try TUIHarness.temporaryLibrary(self))
    harness.waitForHome()
    harness.app.setStatus(String(repeating: "a long error message ", count: 5), error: true)
    harness.press(":")
    XCTAssertEqual(harness.row(15), ": ▏")
    harness.press("esc", "3", "c")
    harness.type("Drive")
    harness.press("enter")
    harness.waitForLibrary()
    harness.app.setStatus(String(repeating: "another long message ", count: 5), error: true)
    harness.press("d")
    XCTAssertEqual(harness.row(15), "Delete the playlist Drive? (y/n)")
    XCTAssertEqual(harness.redraw()[59, 15].style, .status, "to the last column")
  }
}
