import Foundation
import XCTest

@testable import RefrainCatalog
@testable import RefrainHTTP

final class HTTPClientTokenBucketTests: XCTestCase {
  // MARK: - The bucket alone

  func testABurstUpToCapacityGoesAtOnceThenWaits() {
    var bucket = TokenBucket(requests: 50, per: 5, now: 0)
    let waits = (0..<50).map { _ in bucket.reserve(now: 0) }
    XCTAssertEqual(waits, Array(repeating: 0, count: 50))
    XCTAssertEqual(bucket.reserve(now: 0), 0.1, accuracy: 1e-9)
  }

  func testWaitingCallersQueueUpOneRefillApart() {
    var bucket = TokenBucket(requests: 2, per: 1, now: 0)
    _ = bucket.reserve(now: 0)
    _ = bucket.reserve(now: 0)
    let waits = (0..<3).map { _ in bucket.reserve(now: 0) }
    XCTAssertEqual(waits[0], 0.5, accuracy: 1e-9)
    XCTAssertEqual(waits[1], 1.0, accuracy: 1e-9)
    XCTAssertEqual(waits[2], 1.5, accuracy: 1e-9)
  }

  func testRefillsWithTimeButNeverBeyondCapacity() {
    var bucket = TokenBucket(requests: 50, per: 5, now: 0)
    for _ in 0..<50 { _ = bucket.reserve(now: 0) }
    XCTAssertEqual(bucket.reserve(now: 0.1), 0, "one token refilled after 0.1 s")
    _ = bucket.reserve(now: 1_000)
    XCTAssertEqual(bucket.tokens, 49, accuracy: 1e-9, "a long idle fills the bucket, no more")
  }

  func testAStrictBucketNeverLetsMoreThanTheLimitIntoAnyWindow() {
    var bucket = TokenBucket(strictly: 50, per: 5, now: 0)
    var sendTimes: [Double] = []
    var now = 0.0
    for _ in 0..<300 {
      let wait = bucket.reserve(now: now)
      now += wait
      sendTimes.append(now)
    }
    for (index, start) in sendTimes.enumerated() {
      let inWindow = sendTimes[index...].prefix { $0 < start + 5 - 1e-9 }.count
      XCTAssertLessThanOrEqual(inWindow, 50, "window from \(start) s")
    }
    XCTAssertEqual(sendTimes.last ?? 0, 36.25, accuracy: 0.01, "10 at once, then 8 a second")
  }

  func testTimeGoingBackwardsGivesNoTokens() {
    var bucket = TokenBucket(requests: 1, per: 1, now: 10)
    XCTAssertEqual(bucket.reserve(now: 10), 0)
    XCTAssertEqual(bucket.reserve(now: 5), 1, accuracy: 1e-9)
  }

  func testDrainEmptiesTheBucket() {
    var bucket = TokenBucket(requests: 10, per: 1, now: 0)
    bucket.drain(now: 0)
    XCTAssertEqual(bucket.reserve(now: 0), 0.1, accuracy: 1e-9)
  }

  // MARK: - Through the client

  func testTheClientPacesRequestsThroughTheBucket() async throws {
    let server = try HTTPFixtureServer.deezerSession()
    let (client, clock) = makeTestClient {
      $0.rateLimit = HTTPClient.RateLimit(requests: 2, per: 1)
    }
    let endpoint = Endpoint(baseURL: server.baseURL, path: "/genre")
    for _ in 0..<4 { _ = try await client.data(for: endpoint) }
    // 2 per second, strictly: one at once, then one a second.
    XCTAssertEqual(clock.sleeps.count, 3, "three requests had to wait: \(clock.sleeps)")
    for wait in clock.sleeps { XCTAssertEqual(wait, 1, accuracy: 0.01) }
  }
}
