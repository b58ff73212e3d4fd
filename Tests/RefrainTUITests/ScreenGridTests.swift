import XCTest

@testable import RefrainTUI

/// The in-memory screen: writing, centring, boxes, wide characters and text snapshots.
final class ScreenGridTests: XCTestCase {
  // MARK: - put

  func testPutWritesTextAndReturnsTheColumnsUsed() {
    var grid = ScreenGrid(width: 12, height: 2)
    XCTAssertEqual(grid.put("abc", x: 1, y: 0), 3)
    XCTAssertEqual(grid.put("우산", x: 1, y: 1), 4)
    assertScreen(grid.text, " abc\n 우산")
    XCTAssertEqual(grid[1, 1].text, "우")
    XCTAssertEqual(grid[2, 1].text, "", "the right half of a wide character is a continuation")
    XCTAssertEqual(grid[3, 1].text, "산")
  }

  func testPutCutsAtMaxWidthAndAtTheEdgeWithAnEllipsis() {
    var grid = ScreenGrid(width: 10, height: 3)
    XCTAssertEqual(grid.put("Lighthouse Radio", x: 0, y: 0, maxWidth: 6), 6)
    XCTAssertEqual(grid.put("Lighthouse Radio", x: 4, y: 1), 6)
    XCTAssertEqual(grid.put("off the grid", x: 10, y: 2), 0)
    XCTAssertEqual(grid.put("off the grid", x: 0, y: 3), 0)
    XCTAssertEqual(grid.put("off the grid", x: 0, y: -1), 0)
    assertScreen(grid.text, "Light…\n    Light…\n")
  }

  func testPutSanitizesWhatItWrites() {
    var grid = ScreenGrid(width: 20, height: 1)
    grid.put("\u{1B}[31mRed\u{1B}]52;c;ZXZpbA==\u{07} Alert\u{202E}\n", x: 0, y: 0)
    XCTAssertEqual(grid.text, "Red Alert")
    for x in 0..<grid.width {
      XCTAssertFalse(
        grid[x, 0].text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E })
    }
  }

  func testPutDropsALoneZeroWidthMarkButKeepsOneOnItsBase() {
    var grid = ScreenGrid(width: 6, height: 1)
    grid.put("\u{301}ab\u{301}c", x: 0, y: 0)
    XCTAssertEqual(grid.row(0), "ab\u{301}c")
    XCTAssertEqual(grid[1, 0].text, "b\u{301}")
  }

  func testPutOfATenThousandCharacterStringFillsOneRowOnly() {
    var grid = ScreenGrid(width: 40, height: 2)
    let long = String(repeating: "가a", count: 5000)
    XCTAssertEqual(grid.put(long, x: 0, y: 0), 40)
    XCTAssertEqual(DisplayWidth.of(grid.row(0)), 40)
    XCTAssertTrue(grid.row(0).hasSuffix("…"))
    XCTAssertEqual(grid.row(1), "")
  }

  // MARK: - Wide characters at the edge

  func testAWideCharacterThatDoesNotFitAtTheEdgeBecomesAnEllipsis() {
    var grid = ScreenGrid(width: 5, height: 3)
    grid.put("가나다", x: 0, y: 0)
    grid.put("가", x: 4, y: 1)
    grid.put("ab가", x: 2, y: 2)
    assertScreen(grid.text, "가나…\n    …\n  ab…")
    for y in 0..<3 { XCTAssertEqual(DisplayWidth.of(grid.row(y)), 5, "row \(y)") }
  }

  func testAWideCharacterEndingExactlyAtTheEdgeIsKept() {
    var grid = ScreenGrid(width: 5, height: 1)
    grid.put("a가나", x: 0, y: 0)
    XCTAssertEqual(grid.row(0), "a가나")
    XCTAssertEqual(grid[4, 0].text, "")
  }

  // MARK: - Overwriting halves of wide characters

  func testWritingOverTheRightHalfBlanksTheLeftHalf() {
    var grid = ScreenGrid(width: 6, height: 1)
    grid.put("가나", x: 0, y: 0)
    grid.put("x", x: 1, y: 0)
    XCTAssertEqual(grid.row(0), " x나")
    XCTAssertEqual(DisplayWidth.of(grid.row(0)), 4)
  }

  func testWritingOverTheLeftHalfBlanksTheRightHalf() {
    var grid = ScreenGrid(width: 6, height: 1)
    grid.put("가나", x: 0, y: 0)
    grid.put("y", x: 2, y: 0)
    XCTAssertEqual(grid.row(0), "가y")
    XCTAssertEqual(grid[3, 0], .blank)
  }

  func testAWideCharacterStraddlingTwoOthersBlanksBothOuterHalves() {
    var grid = ScreenGrid(width: 6, height: 1)
    grid.put("가나다", x: 0, y: 0)
    grid.put("中", x: 1, y: 0)
    XCTAssertEqual(grid.row(0), " 中 다")
    XCTAssertEqual(DisplayWidth.of(grid.row(0)), 6)
    XCTAssertEqual(grid[2, 0].text, "")
  }

  func testEveryRowStaysTheGridsWidthAfterOverlappingWrites() {
    var grid = ScreenGrid(width: 9, height: 1)
    let writes: [(String, Int)] = [
      ("가나다라마", 0), ("ab", 3), ("夜の", 4), ("x", 8), ("中", 7), ("z", 0),
    ]
    for (text, x) in writes {
      grid.put(text, x: x, y: 0)
      var columns = 0
      for column in 0..<grid.width {
        let cell = grid[column, 0].text
        if cell.isEmpty {
          XCTAssertGreaterThan(column, 0)
          XCTAssertEqual(
            DisplayWidth.of(grid[column - 1, 0].text), 2, "a continuation follows a wide cell")
        } else {
          columns += DisplayWidth.of(cell)
        }
      }
      XCTAssertEqual(columns, 9, "after writing \(text) at \(x): \(grid.row(0))")
    }
  }

  // MARK: - putCentered, fill, box

  func testPutCenteredCentresByDisplayWidth() {
    var grid = ScreenGrid(width: 10, height: 3)
    grid.putCentered("abcd", x: 0, y: 0, width: 10)
    grid.putCentered("가나", x: 0, y: 1, width: 10)
    grid.putCentered("too wide for it", x: 2, y: 2, width: 6)
    assertScreen(grid.text, "   abcd\n   가나\n  too w…")
  }

  func testFillPaintsARectangleInAStyle() {
    var grid = ScreenGrid(width: 5, height: 3)
    grid.put("가나다", x: 0, y: 1)
    grid.fill(Rect(x: 1, y: 1, width: 2, height: 5), style: .selected)
    // 가 lost its right half and 나 its left half: both are gone, … stays.
    XCTAssertEqual(grid[0, 1], .blank)
    XCTAssertEqual(grid[1, 1].style, .selected)
    XCTAssertEqual(grid[2, 1].style, .selected)
    XCTAssertEqual(grid[3, 1], .blank)
    XCTAssertEqual(grid.row(1), "    …")
    XCTAssertEqual(grid[1, 0].style, .normal)
    XCTAssertEqual(grid[1, 2].style, .selected)
  }

  func testBoxDrawsAnOutlineWithItsTitle() {
    var grid = ScreenGrid(width: 14, height: 5)
    grid.box(Rect(x: 1, y: 0, width: 12, height: 4), title: "Keys")
    grid.box(Rect(x: 0, y: 4, width: 1, height: 1))  // too small: nothing
    assertScreen(
      grid.text,
      """
       +- Keys ---+
       |          |
       |          |
       +----------+

      """)
    XCTAssertEqual(grid[4, 0].style, .title)
    XCTAssertEqual(grid[1, 1].style, .border)
  }

  func testABoxTitleTooLongIsCutInsideTheCorners() {
    var grid = ScreenGrid(width: 10, height: 2)
    grid.box(Rect(x: 0, y: 0, width: 10, height: 2), title: "Add 2 to playlist")
    XCTAssertEqual(grid.row(0), "+- Add …-+")
  }

  // MARK: - Columns

  func testRightAlignedColumnsLineUpAfterKoreanJapaneseAndLatinTitles() {
    let rows = [
      ("우산 하나 — 달빛 우체국", "0:32"), ("夜のトラム — 青い自転車", "0:30"),
      ("Lighthouse Radio — Harbor Lights", "0:27"), ("서울에서 도쿄까지 · Seoul to Tokyo", "12:04"),
    ]
    var grid = ScreenGrid(width: 30, height: rows.count)
    for (y, (title, time)) in rows.enumerated() {
      let timeWidth = DisplayWidth.of(time)
      grid.put(title, x: 1, y: y, maxWidth: 30 - timeWidth - 3)
      grid.put(time, x: 30 - 1 - timeWidth, y: y)
    }
    for y in 0..<rows.count {
      XCTAssertEqual(DisplayWidth.of(grid.row(y)), 29, grid.row(y))
      XCTAssertEqual(grid[28, y].text, String(rows[y].1.last!), "the times end in one column")
    }
    assertScreen(
      grid.text,
      """
       우산 하나 — 달빛 우체국 0:32
       夜のトラム — 青い自転車 0:30
       Lighthouse Radio — Har… 0:27
       서울에서 도쿄까지 · S… 12:04
      """)
  }

  // MARK: - Text and diffs

  func testTextTrimsTrailingSpacesButKeepsEveryRow() {
    var grid = ScreenGrid(width: 8, height: 4)
    grid.put("top", x: 2, y: 0)
    grid.put("end", x: 5, y: 3)
    assertScreen(
      grid.text,
      """
        top


           end
      """)
  }

  func testRowDiffersFindsChangedRowsOnly() {
    var before = ScreenGrid(width: 6, height: 3)
    before.put("same", x: 0, y: 0)
    var after = before
    after.put("new", x: 0, y: 2)
    XCTAssertFalse(after.rowDiffers(0, from: before))
    XCTAssertFalse(after.rowDiffers(1, from: before))
    XCTAssertTrue(after.rowDiffers(2, from: before))
    XCTAssertTrue(after.rowDiffers(0, from: ScreenGrid(width: 7, height: 3)))
    var restyled = before
    restyled.fill(Rect(x: 0, y: 1, width: 6, height: 1), style: .selected)
    XCTAssertTrue(restyled.rowDiffers(1, from: before), "a style change is a change")
  }

  func testAnEmptyGridIsHarmless() {
    var grid = ScreenGrid(width: 0, height: 0)
    XCTAssertEqual(grid.put("x", x: 0, y: 0), 0)
    grid.fill(Rect(x: 0, y: 0, width: 3, height: 3))
    XCTAssertEqual(grid.text, "")
  }
}
