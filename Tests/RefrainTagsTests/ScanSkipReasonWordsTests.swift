import RefrainCatalog
import XCTest

@testable import RefrainTags

/// The reasons a scan skips files: their words, their order, and their round trip through
/// the library's `local_scan_failures` table.
final class ScanSkipReasonWordsTests: XCTestCase {
  private let all: [ScanSkipReason] = [
    .unsupportedFormat("DSD"), .unsupportedFormat("Monkey's Audio"),
    .unreadable("permission denied"), .damaged, .notAudio, .empty, .other,
  ]

  func testEachReasonReadsBackFromItsWords() {
    XCTAssertEqual(
      all.map(\.description),
      [
        "unsupported format (DSD)", "unsupported format (Monkey's Audio)",
        "unreadable (permission denied)", "damaged", "not audio", "empty file", "could not be read",
      ])
    for reason in all { XCTAssertEqual(ScanSkipReason(reason.description), reason) }
    XCTAssertNil(ScanSkipReason("no MP3 audio found"))
    XCTAssertEqual(all.shuffledDeterministically().sorted(), all, "report order")
  }

  func testASystemMessageBecomesAnUnreadableReasonInLowerCase() {
    XCTAssertEqual(
      ScanSkipReason.unreadable(systemMessage: "Permission denied"),
      .unreadable("permission denied"))
    XCTAssertEqual(TagReadError.unreadable(errno: EACCES).kind, .unreadable("permission denied"))
  }

  func testAStoredFailureKeepsItsReasonAndMessage() {
    let file = SkippedFile(path: "/m/a.dsf", reason: .unsupportedFormat("DSD"), message: "no")
    XCTAssertEqual(
      file.message, "/m/a.dsf: no", "a message that does not name the file gets its path")
    XCTAssertEqual(SkippedFile(path: "/m/a.dsf", stored: file.stored), file)
    // A failure stored by an older Refrain: its text, under "could not be read".
    XCTAssertEqual(
      SkippedFile(path: "/m/b.mp3", stored: "no MP3 audio found"),
      SkippedFile(path: "/m/b.mp3", reason: .other, message: "/m/b.mp3: no MP3 audio found"))
  }

  func testTheReportGroupsByReasonAndShowsTheFirstFewOfEach() {
    var summary = ScanSummary()
    XCTAssertEqual(summary.skippedReport(), [], "nothing skipped, nothing said")
    summary.skipped = [
      SkippedFile(path: "/m/c.mp3", reason: .notAudio, message: "/m/c.mp3 is not audio"),
      SkippedFile(path: "/m/a.dsf", reason: .unsupportedFormat("DSD"), message: "/m/a.dsf: DSD"),
      SkippedFile(path: "/m/b.mp3", reason: .notAudio, message: "/m/b.mp3 is not audio"),
      SkippedFile(path: "/m/d.mp3", reason: .notAudio, message: "/m/d.mp3 is not audio"),
    ]
    XCTAssertEqual(
      summary.skippedReport(examples: 2),
      [
        "skipped 4 files:",
        "  unsupported format (DSD): 1 file",
        "    /m/a.dsf: DSD",
        "  not audio: 3 files",
        "    /m/b.mp3 is not audio",
        "    /m/c.mp3 is not audio",
        "    … and 1 more",
      ])
  }
}

extension Array {
  /// The elements in a fixed scrambled order (reversed, then every other first).
  fileprivate func shuffledDeterministically() -> [Element] {
    let reversed = Array(self.reversed())
    return stride(from: 0, to: count, by: 2).map { reversed[$0] }
      + stride(from: 1, to: count, by: 2).map { reversed[$0] }
  }
}
