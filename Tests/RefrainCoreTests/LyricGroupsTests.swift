import XCTest

@testable import RefrainCore

/// Lines that share a time: an original with its translations, told apart from repeats.
final class LyricGroupsTests: XCTestCase {
  private func groups(_ lines: [(Int, String)], synced: Bool = true) -> LyricGroups {
    LyricGroups(lines: lines.map { LyricLine(ms: $0.0, text: $0.1) }, synced: synced)
  }

  func testLinesSharingATimeAreAnOriginalAndItsTranslations() {
    let g = groups([
      (1000, "너를 사랑해"), (1000, "I love you"), (1000, "愛してる"), (4000, "안녕"), (4000, "Goodbye"),
    ])
    XCTAssertEqual(g.roles, [.original, .translation, .translation, .original, .translation])
    XCTAssertEqual(g.leaders, [0, 0, 0, 3, 3])
    XCTAssertEqual(g.visible(translations: true), [0, 1, 2, 3, 4])
    XCTAssertEqual(g.visible(translations: false), [0, 3])
    XCTAssertEqual(g.originals, [0, 3])
    XCTAssertEqual(g.leader(of: 2), 0)
  }

  func testTheSameLineTwiceAtOneTimeIsARepeatNotATranslation() {
    let g = groups([
      (1000, "La la la"), (1000, " la LA la "), (1000, "Ла ла ла"), (2000, "La la la"),
    ])
    XCTAssertEqual(g.roles, [.original, .duplicate, .translation, .original])
    XCTAssertEqual(g.visible(translations: true), [0, 2, 3])
  }

  func testLinesAtDifferentTimesStandAloneEvenWhenTheyRepeat() {
    let g = groups([(1000, "Chorus"), (2000, "Chorus"), (3000, "Chorus")])
    XCTAssertEqual(g.roles, [.original, .original, .original])
  }

  func testABreakTranslatesNothingAndNothingTranslatesIt() {
    let g = groups([(1000, ""), (1000, "Words"), (2000, "Next"), (2000, "")])
    XCTAssertEqual(g.roles, [.original, .original, .original, .duplicate])
  }

  func testPlainLyricsHaveNoGroups() {
    let g = groups([(0, "One"), (0, "Two")], synced: false)
    XCTAssertEqual(g.roles, [.original, .original])
  }
}
