import CCurlLoader
import XCTest

/// When the libcurl loader gives a socket up and watches it afresh, so that URLSession does
/// not keep a write source that fires while an answer is awaited (a spinning CPU).
final class CurlSocketRewatchTests: XCTestCase {
  // curl.h's CURL_POLL_* values.
  private let none: Int32 = 0
  private let read: Int32 = 1
  private let write: Int32 = 2
  private let both: Int32 = 3
  private let remove: Int32 = 4

  func testARequestSentAndAwaitingItsAnswerIsWatchedAfreshForReadingOnly() {
    XCTAssertEqual(refrain_curl_rewatch(write, read), 1)
    XCTAssertEqual(refrain_curl_rewatch(both, read), 1)
  }

  func testDroppingReadingOrEverythingIsWatchedAfreshToo() {
    XCTAssertEqual(refrain_curl_rewatch(both, write), 1)
    XCTAssertEqual(refrain_curl_rewatch(read, write), 1)
    XCTAssertEqual(refrain_curl_rewatch(write, none), 1)
    XCTAssertEqual(refrain_curl_rewatch(read, none), 1)
  }

  func testAddingADirectionOrKeepingTheSameOnesPassesStraightThrough() {
    for (watched, wanted) in [
      (none, read), (none, write), (none, both), (read, both), (write, both), (read, read),
      (write, write), (both, both), (none, none),
    ] {
      XCTAssertEqual(refrain_curl_rewatch(watched, wanted), 0, "\(watched) → \(wanted)")
    }
  }

  func testASocketLibcurlGivesUpIsNeverWatchedAgainByTheLoader() {
    for watched in [none, read, write, both] {
      XCTAssertEqual(refrain_curl_rewatch(watched, remove), 0)
    }
  }
}
