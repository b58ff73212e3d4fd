import Foundation
import RefrainCore
import XCTest

/// Unit tests for `LyricTimeline`: which line the user sees at a position, and where a
/// selected line seeks to.
final class LyricsTimelineTests: XCTestCase {
  /// Three lines at 1 s, 2 s (twice, as a translation) and 4 s; the last one word-timed.
  private let document = LRCParser.parse(
    """
    [00:01.00]one
    [00:02.00]two
    [00:02.00]deux
    [00:04.00]<00:04.00>four <00:04.50>five<00:05.00>
    """)

  // MARK: - Current line

  func test_index_isNilBeforeTheFirstLine() {
    let timeline = LyricTimeline(document: document)
    XCTAssertNil(timeline.index(at: 0))
    XCTAssertNil(timeline.index(at: 0.999))
    XCTAssertNil(timeline.index(at: -5))
    XCTAssertNil(timeline.index(at: .nan))
  }

  func test_index_isTheLastLineAtOrBeforeThePosition() {
    let timeline = LyricTimeline(document: document)
    let table: [(seconds: Double, index: Int)] = [
      (1, 0), (1.5, 0), (2, 2), (3.99, 2), (4, 3), (600, 3), (.infinity, 3),
    ]
    for (seconds, index) in table {
      XCTAssertEqual(timeline.index(at: seconds), index, "at \(seconds)")
    }
    XCTAssertEqual(timeline.count, 4)
  }

  func test_positiveOffset_showsLinesEarlier() {
    let shifted = LRCParser.parse("[offset:500]\n[00:01.00]one\n[00:02.00]two")
    let timeline = LyricTimeline(document: shifted)
    XCTAssertEqual(timeline.offsetMs, 500)
    XCTAssertEqual(timeline.index(at: 0.5), 0)
    XCTAssertEqual(timeline.index(at: 1.5), 1)
    XCTAssertEqual(timeline.nextChange(after: 0), 0.5)
  }

  func test_userOffset_addsToTheDocumentOffset() {
    let shifted = LRCParser.parse("[offset:500]\n[00:01.00]one\n[00:02.00]two")
    let timeline = LyricTimeline(document: shifted, userOffsetMs: -1_500)
    XCTAssertEqual(timeline.offsetMs, -1_000)
    XCTAssertNil(timeline.index(at: 1.5))
    XCTAssertEqual(timeline.index(at: 2), 0)
    XCTAssertEqual(timeline.seekTarget(forLine: 1), 3)
  }

  func test_extremeOffsets_doNotOverflow() {
    let timeline = LyricTimeline(document: document, userOffsetMs: .max)
    XCTAssertEqual(timeline.index(at: 0), 3)
    XCTAssertEqual(timeline.seekTarget(forLine: 0), 0)
    XCTAssertNil(LyricTimeline(document: document, userOffsetMs: .min).index(at: 1e9))
  }

  // MARK: - Next change

  func test_nextChange_isTheNextLineTimeStrictlyAfter() {
    let timeline = LyricTimeline(document: document)
    let table: [(seconds: Double, next: Double?)] = [
      (-1, 1), (0, 1), (1, 2), (1.5, 2), (2, 4), (4, nil), (100, nil),
    ]
    for (seconds, next) in table {
      XCTAssertEqual(timeline.nextChange(after: seconds), next, "after \(seconds)")
    }
  }

  func test_nextChange_withWords_includesWordStarts() {
    let timeline = LyricTimeline(document: document)
    XCTAssertEqual(timeline.nextChange(after: 4, includeWords: true), 4.5)
    XCTAssertNil(timeline.nextChange(after: 4.5, includeWords: true))
    XCTAssertEqual(timeline.nextChange(after: 2, includeWords: true), 4)
  }

  // MARK: - Words

  func test_wordIndex_followsTheWordsOfALine() {
    let timeline = LyricTimeline(document: document)
    XCTAssertNil(timeline.wordIndex(line: 3, at: 3.9))
    XCTAssertEqual(timeline.wordIndex(line: 3, at: 4), 0)
    XCTAssertEqual(timeline.wordIndex(line: 3, at: 4.6), 1)
    XCTAssertEqual(timeline.wordIndex(line: 3, at: 9), 1)
    XCTAssertNil(timeline.wordIndex(line: 0, at: 9), "line without word timing")
    XCTAssertNil(timeline.wordIndex(line: 99, at: 9))
    XCTAssertNil(timeline.wordIndex(line: -1, at: 9))
  }

  func test_wordTimesGoingBackwards_neverMoveTheHighlightBack() {
    let timeline = LyricTimeline(document: LRCParser.parse("[00:01]<00:02>a <00:01.5>b <00:03>c"))
    XCTAssertEqual(timeline.wordIndex(line: 0, at: 1.6), nil)
    XCTAssertEqual(timeline.wordIndex(line: 0, at: 2), 1)
    XCTAssertEqual(timeline.wordIndex(line: 0, at: 3), 2)
  }

  // MARK: - Seeking

  func test_seekTarget_isTheEffectiveLineTimeClampedAtZero() {
    let timeline = LyricTimeline(document: document, userOffsetMs: 1_500)
    XCTAssertEqual(timeline.seekTarget(forLine: 0), 0)
    XCTAssertEqual(timeline.seekTarget(forLine: 1), 0.5)
    XCTAssertEqual(timeline.seekTarget(forLine: 3), 2.5)
    XCTAssertEqual(timeline.seekTarget(forLine: 42), 2.5, "clamped to the last line")
    XCTAssertEqual(timeline.seekTarget(forLine: -3), 0)
  }

  func test_seekingToALine_makesItCurrent() {
    let lrc = (0..<200).map {
      "[\(String(format: "%02d:%02d.%02d", $0 / 60, $0 % 60, $0 % 100))]l\($0)"
    }
    let timeline = LyricTimeline(document: LRCParser.parse(lrc.joined(separator: "\n")))
    for line in 0..<timeline.count {
      XCTAssertEqual(timeline.index(at: timeline.seekTarget(forLine: line)), line)
    }
  }

  // MARK: - Plain lyrics and unsorted input

  func test_plainLyrics_haveNoCurrentLineOrChanges() {
    let timeline = LyricTimeline(document: LRCParser.parse("just\nwords"))
    XCTAssertFalse(timeline.isSynced)
    XCTAssertEqual(timeline.count, 2)
    XCTAssertNil(timeline.index(at: 10))
    XCTAssertNil(timeline.nextChange(after: 0))
    XCTAssertNil(timeline.nextChange(after: 0, includeWords: true))
    XCTAssertNil(timeline.wordIndex(line: 0, at: 10))
    XCTAssertEqual(timeline.seekTarget(forLine: 1), 0)
  }

  func test_emptyDocument_answersNothing() {
    let timeline = LyricTimeline(document: LyricsDocument())
    XCTAssertNil(timeline.index(at: 1))
    XCTAssertNil(timeline.nextChange(after: 0))
    XCTAssertEqual(timeline.seekTarget(forLine: 0), 0)
  }

  func test_unsortedDocument_isSortedStably() {
    let document = LyricsDocument(lines: [
      LyricLine(ms: 2_000, text: "b"), LyricLine(ms: 1_000, text: "a1"),
      LyricLine(ms: 1_000, text: "a2"),
    ])
    let timeline = LyricTimeline(document: document)
    XCTAssertEqual(timeline.lines.map(\.text), ["a1", "a2", "b"])
    XCTAssertEqual(timeline.index(at: 1.5), 1)
  }
}
