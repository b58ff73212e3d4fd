import Foundation
import RefrainCore
import XCTest

@testable import RefrainCatalog
@testable import RefrainHTTP

final class HTTPClientBackoffTests: XCTestCase {
  // MARK: - Exponential backoff

  func testDelaysDoubleFromTheBaseUpToTheCap() {
    let policy = RetryPolicy(
      maxAttempts: 8, baseDelay: 0.5, multiplier: 2, maxDelay: 4, jitter: 0.5)
    let delays = (1...6).map { policy.delay(afterAttempt: $0, random: 0) }
    XCTAssertEqual(delays, [0.5, 1, 2, 4, 4, 4])
  }

  func testJitterStaysWithinItsBounds() {
    let policy = RetryPolicy(baseDelay: 1, multiplier: 2, maxDelay: 30, jitter: 0.5)
    var generator = SeededRandom(seed: 0x5EED)
    for attempt in 1...5 {
      let full = min(30, pow(2, Double(attempt - 1)))
      for _ in 0..<200 {
        let delay = policy.delay(
          afterAttempt: attempt, random: Double.random(in: 0..<1, using: &generator))
        XCTAssertGreaterThanOrEqual(delay, full * 0.5, "attempt \(attempt)")
        XCTAssertLessThanOrEqual(delay, full, "attempt \(attempt)")
      }
    }
    XCTAssertEqual(policy.delay(afterAttempt: 3, random: 0.999_999), 4 * 0.5, accuracy: 0.001)
  }

  func testOutOfRangeSettingsAreClamped() {
    let policy = RetryPolicy(maxAttempts: 0, baseDelay: -1, multiplier: 0.5, jitter: 7)
    XCTAssertEqual(policy.maxAttempts, 1)
    XCTAssertEqual(policy.baseDelay, 0)
    XCTAssertEqual(policy.multiplier, 1)
    XCTAssertEqual(policy.jitter, 1)
    XCTAssertEqual(RetryPolicy().delay(afterAttempt: 1, random: 5), 0.25)
  }

  func testOnlyRateLimitingAndServerErrorsAreRetryable() {
    XCTAssertTrue(RetryPolicy.isRetryable(status: 429))
    XCTAssertTrue(RetryPolicy.isRetryable(status: 500))
    XCTAssertTrue(RetryPolicy.isRetryable(status: 503))
    XCTAssertFalse(RetryPolicy.isRetryable(status: 404))
    XCTAssertFalse(RetryPolicy.isRetryable(status: 403))
    XCTAssertFalse(RetryPolicy.isRetryable(status: 200))
  }

  // MARK: - Retry-After

  func testRetryAfterReadsSecondsAndHTTPDates() {
    let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
    XCTAssertEqual(RetryPolicy.retryAfter("2", now: now), 2)
    XCTAssertEqual(RetryPolicy.retryAfter(" 1.5 ", now: now), 1.5)
    XCTAssertEqual(RetryPolicy.retryAfter("-3", now: now), 0)
    XCTAssertEqual(RetryPolicy.retryAfter("Tue, 14 Nov 2023 22:13:30 GMT", now: now), 10)
    XCTAssertEqual(RetryPolicy.retryAfter("Tue, 14 Nov 2023 22:00:00 GMT", now: now), 0)
    XCTAssertNil(RetryPolicy.retryAfter("soon", now: now))
    XCTAssertNil(RetryPolicy.retryAfter(nil, now: now))
  }
}
