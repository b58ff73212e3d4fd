import RefrainCore
import XCTest

/// The wait before a failed listen is sent again.
final class ScrobbleBackoffTests: XCTestCase {
  func testNoWaitBeforeAnyFailure() {
    XCTAssertEqual(ScrobbleBackoff.delay(afterAttempts: 0), 0)
  }

  func testWaitDoublesAfterEachFailure() {
    XCTAssertEqual((1...5).map(ScrobbleBackoff.delay(afterAttempts:)), [30, 60, 120, 240, 480])
  }

  func testWaitIsCappedAtSixHours() {
    XCTAssertEqual(ScrobbleBackoff.delay(afterAttempts: 11), 6 * 3600)
    XCTAssertEqual(ScrobbleBackoff.delay(afterAttempts: 10), 30 * 512)
    XCTAssertEqual(ScrobbleBackoff.delay(afterAttempts: 1000), 6 * 3600)
    XCTAssertEqual(ScrobbleBackoff.delay(afterAttempts: .max), 6 * 3600)
  }
}
