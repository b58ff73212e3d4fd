import XCTest

@testable import RefrainCore

/// Tap-to-sync's steps without a player: stamps in order, undo, nudges, the saved LRC.
final class LyricsSyncTests: XCTestCase {
  private let plain = LRCParser.parse("첫 줄\n둘째 줄\n\n셋째 줄")

  func testStampsGoInOrderAndNeverBackwards() {
    var sync = LyricsSync(document: plain)
    // A blank line of plain lyrics is a break, stamped too: it ends the line above.
    XCTAssertEqual(sync.entries.map(\.text), ["첫 줄", "둘째 줄", "", "셋째 줄"])
    XCTAssertEqual(sync.stamp(at: 1_200)?.line, 0)
    XCTAssertEqual(
      sync.stamp(at: 900)?.ms, 1_210, "a stamp is a hundredth after the one above it, at least")
    XCTAssertEqual(sync.stamp(at: 4_000)?.line, 2)
    XCTAssertEqual(sync.stamp(at: 5_000)?.line, 3)
    XCTAssertTrue(sync.isComplete)
    XCTAssertNil(sync.stamp(at: 6_000))
  }

  func testUndoRemovesTheLastStampAndNudgeStaysBetweenNeighbours() {
    var sync = LyricsSync(document: plain)
    _ = sync.stamp(at: 1_000)
    _ = sync.stamp(at: 2_000)
    XCTAssertEqual(sync.undo()?.ms, 2_000)
    XCTAssertEqual(sync.next, 1)
    _ = sync.stamp(at: 2_500)
    _ = sync.stamp(at: 3_000)
    XCTAssertEqual(sync.nudge(line: 1, by: 50), 2_550)
    XCTAssertEqual(sync.nudge(line: 1, by: 1_000), 2_990, "a hundredth before the next line")
    XCTAssertEqual(sync.nudge(line: 1, by: -5_000), 1_010, "a hundredth after the line above")
    var untouched = LyricsSync(document: plain)
    XCTAssertNil(untouched.undo())
  }

  func testTranslationsFollowTheirLineAndTheFileCarriesTheTags() {
    let synced = LRCParser.parse(
      """
      [ti:Old]
      [00:01.00]너를 사랑해
      [00:01.00]I love you
      [00:04.00]안녕
      """)
    var sync = LyricsSync(document: synced)
    XCTAssertEqual(sync.entries.map(\.translations), [["I love you"], []])
    _ = sync.stamp(at: 2_004)
    let text = sync.lrc(title: nil, artist: "Mina", album: "Rain", length: 185.4)
    XCTAssertEqual(
      text,
      """
      [ti:Old]
      [ar:Mina]
      [al:Rain]
      [length:3:05]
      [by:Refrain]
      [00:02.00]너를 사랑해
      [00:02.00]I love you

      """)
    let reread = LRCParser.parse(text)
    XCTAssertEqual(reread.lines.map(\.ms), [2_000, 2_000])
    XCTAssertEqual(reread.tags["by"], "Refrain")
  }

  func testStampsAreWrittenInHundredths() {
    XCTAssertEqual(LyricsSync.stamp(0), "[00:00.00]")
    XCTAssertEqual(LyricsSync.stamp(61_234), "[01:01.23]")
    XCTAssertEqual(LyricsSync.stamp(61_235), "[01:01.24]")
    XCTAssertEqual(LyricsSync.stamp(3_599_999), "[60:00.00]")
  }

  func testWordModeStampsEachWordAndWritesEnhancedLRC() {
    var sync = LyricsSync(document: LRCParser.parse("비가 내리는 밤\n\nlast"), wordMode: true)
    XCTAssertEqual(sync.entries.map(\.words), [["비가", "내리는", "밤"], [], ["last"]])
    XCTAssertEqual(sync.nextWord, 0)
    _ = sync.stamp(at: 1_000)
    _ = sync.stamp(at: 1_500)
    XCTAssertEqual(sync.next, 0, "the line is not done until its last word")
    XCTAssertEqual(sync.nextWord, 2)
    XCTAssertEqual(sync.undo()?.ms, 1_500, "undo takes back the last word")
    _ = sync.stamp(at: 1_600)
    _ = sync.stamp(at: 2_000)
    XCTAssertEqual(sync.next, 1)
    XCTAssertNil(sync.nextWord, "a break has no words: it is stamped as a line")
    _ = sync.stamp(at: 3_000)
    _ = sync.stamp(at: 4_000)
    XCTAssertTrue(sync.isComplete)
    XCTAssertEqual(sync.nudge(line: 0, by: 50), 1_050, "the whole line moves, words too")
    XCTAssertEqual(sync.entries[0].wordTimes, [1_050, 1_650, 2_050])
    let text = sync.lrc(title: nil, artist: nil, album: nil, length: nil)
    XCTAssertTrue(
      text.contains("[00:01.05]<00:01.05>비가 <00:01.65>내리는 <00:02.05>밤\n[00:03.00]\n"), text)
    let reread = LRCParser.parse(text)
    XCTAssertEqual(reread.lines.first?.words?.map(\.ms), [1_050, 1_650, 2_050])
    XCTAssertEqual(reread.lines.first?.text, "비가 내리는 밤")
  }
}
