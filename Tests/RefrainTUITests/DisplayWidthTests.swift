import XCTest

@testable import RefrainTUI

/// Display widths as the terminal counts columns: CJK takes two, combining marks none.
final class DisplayWidthTests: XCTestCase {
  // MARK: - Widths

  func testKoreanJapaneseAndChineseCharactersTakeTwoColumns() {
    for text in ["가", "한", "夜", "の", "ト", "灯", "中", "Ａ"] {
      XCTAssertEqual(DisplayWidth.of(text), 2, text)
    }
    XCTAssertEqual(DisplayWidth.of("우산 하나"), 9)
    XCTAssertEqual(DisplayWidth.of("夜のトラム"), 10)
    XCTAssertEqual(DisplayWidth.of("小城的灯"), 8)
  }

  func testLatinTextTakesOneColumnPerCharacter() {
    XCTAssertEqual(DisplayWidth.of("Lighthouse Radio"), 16)
    XCTAssertEqual(DisplayWidth.of("Crème Brûlée"), 12)
    XCTAssertEqual(DisplayWidth.of(""), 0)
  }

  func testCombiningMarksTakeNoColumns() {
    XCTAssertEqual(DisplayWidth.of("\u{301}"), 0)
    XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1)
    XCTAssertEqual(DisplayWidth.of("Cre\u{300}me"), 5)
    // A Hangul syllable spelled with conjoining jamo: the vowel and final add nothing.
    XCTAssertEqual(DisplayWidth.of("\u{1100}\u{1161}\u{11A8}"), 2)
  }

  func testControlCharactersTakeNoColumns() {
    XCTAssertEqual(DisplayWidth.of("\u{1B}"), 0)
    XCTAssertEqual(DisplayWidth.of("\u{7F}"), 0)
    XCTAssertEqual(DisplayWidth.of("\u{85}"), 0)
  }

  // MARK: - Truncation

  func testTextThatFitsIsNotTruncated() {
    XCTAssertEqual(DisplayWidth.truncate("우산 하나", to: 9), "우산 하나")
    XCTAssertEqual(DisplayWidth.truncate("abc", to: 10), "abc")
  }

  func testTruncationEndsWithAnEllipsisInsideTheWidth() {
    XCTAssertEqual(DisplayWidth.truncate("Lighthouse Radio", to: 8), "Lightho…")
    XCTAssertEqual(DisplayWidth.truncate("가나다라", to: 5), "가나…")
  }

  func testTruncationNeverSplitsAWideCharacterAtOddWidths() {
    // At 4 columns "가나" would leave no room for the ellipsis, and half of 나 cannot show.
    XCTAssertEqual(DisplayWidth.truncate("가나다라", to: 4), "가…")
    XCTAssertEqual(DisplayWidth.truncate("가나다라", to: 3), "가…")
    XCTAssertEqual(DisplayWidth.truncate("가나다라", to: 2), "…")
    XCTAssertEqual(DisplayWidth.truncate("가나다라", to: 1), "…")
    XCTAssertEqual(DisplayWidth.truncate("가나다라", to: 0), "")
    XCTAssertEqual(DisplayWidth.truncate("a가나", to: 4), "a가…")
    XCTAssertEqual(DisplayWidth.truncate("a가나", to: 3), "a…")
  }

  func testTruncatedTextAlwaysFitsAndUsesTheRoomItHas() {
    let titles = ["우산 하나 — 달빛 우체국", "夜のトラム", "Crème Brûlée Morning", "a가b나c다", "小城的灯 x"]
    for title in titles {
      for columns in 1...(DisplayWidth.of(title) + 2) {
        let cut = DisplayWidth.truncate(title, to: columns)
        XCTAssertLessThanOrEqual(DisplayWidth.of(cut), columns, "\(title) at \(columns)")
        if cut != title {
          XCTAssertTrue(cut.hasSuffix("…"), "\(title) at \(columns): \(cut)")
          // At most one column is lost to a wide character that did not fit.
          XCTAssertGreaterThanOrEqual(
            DisplayWidth.of(cut), columns - 1, "\(title) at \(columns): \(cut)")
        }
      }
    }
  }

  func testTruncationKeepsCombiningMarksWithTheirBase() {
    XCTAssertEqual(DisplayWidth.truncate("Cre\u{300}me brûlée", to: 5), "Cre\u{300}m…")
  }

  // MARK: - Wrapping

  func testWrappingBreaksAtSpacesByDisplayWidth() {
    XCTAssertEqual(DisplayWidth.wrap("비가 내리는 버스 정류장", to: 11), ["비가 내리는", "버스 정류장"])
    XCTAssertEqual(DisplayWidth.wrap("비가 내리는 버스 정류장", to: 10), ["비가", "내리는", "버스", "정류장"])
    XCTAssertEqual(DisplayWidth.wrap("the quick brown fox", to: 10), ["the quick", "brown fox"])
  }

  func testWrappingCutsLongWordsWithoutSplittingWideCharacters() {
    let lines = DisplayWidth.wrap("日本語のテキストです", to: 7)
    XCTAssertEqual(lines, ["日本語", "のテキ", "ストで", "す"])
    for line in lines { XCTAssertLessThanOrEqual(DisplayWidth.of(line), 7) }
  }

  func testWrappedLinesAlwaysFitAndKeepEveryCharacter() {
    let text = "첫눈이 오면 편지를 쓸게 하얀 길 위에 너의 이름을 夜のトラムが走る Crème Brûlée"
    for columns in 2...30 {
      let lines = DisplayWidth.wrap(text, to: columns)
      for line in lines {
        XCTAssertLessThanOrEqual(DisplayWidth.of(line), columns, "at \(columns): \(lines)")
      }
      let rejoined = lines.joined().filter { $0 != " " }
      XCTAssertEqual(rejoined, text.filter { $0 != " " }, "at \(columns)")
    }
  }

  func testWrappingAnEmptyLineGivesOneEmptyLine() {
    XCTAssertEqual(DisplayWidth.wrap("", to: 10), [""])
    XCTAssertEqual(DisplayWidth.wrap("abc", to: 0), [])
  }
}
