import Foundation
import XCTest

@testable import RefrainCatalog
@testable import RefrainDeezer
@testable import RefrainHTTP

/// The client against the fixture server on 127.0.0.1: statuses, retries, timeouts.
final class HTTPClientServerTests: XCTestCase {
  private var server: FixtureSession!

  override func setUpWithError() throws {
    server = try HTTPFixtureServer.deezerSession()
  }

  private func endpoint(_ path: String, base: URL? = nil) -> Endpoint {
    Endpoint(baseURL: base ?? server.baseURL, path: path)
  }

  // MARK: - Success

  func testFetchesTheBodyAndSendsTheUserAgent() async throws {
    let (client, _) = makeTestClient()
    let body = try await client.data(for: endpoint("/genre"))
    XCTAssertTrue(String(decoding: body, as: UTF8.self).contains("\"Dance\""))
    let logged = try await server.requests(endingWith: "/genre")
    XCTAssertEqual(logged.map(\.userAgent), ["Refrain/0.1 (terminal music player)"])
  }

  func testDecodesJSON() async throws {
    struct Genres: Decodable, Sendable {
      struct Genre: Decodable, Sendable { var id: Int64, name: String }
      var data: [Genre]
    }
    let (client, _) = makeTestClient()
    let genres = try await client.decode(Genres.self, from: endpoint("/genre"))
    XCTAssertEqual(genres.data.first?.name, "All")
    XCTAssertEqual(genres.data.count, 23)
  }

  // MARK: - Statuses and API errors

  func testAnUnknownPathIsHTTP404WithItsBody() async throws {
    let (client, clock) = makeTestClient()
    let error = await networkError { try await client.data(for: self.endpoint("/does-not-exist")) }
    XCTAssertEqual(error, .httpStatus(code: 404, body: "{\"error\": \"Not Found\"}"))
    XCTAssertEqual(error?.isNotFound, true)
    XCTAssertEqual(clock.sleeps, [], "a 404 is not retried")
  }

  func testAnErrorBodyWithStatus200IsATypedAPIError() async throws {
    let (client, _) = makeTestClient { $0.apiErrors = DeezerErrors.parser }
    let error = await networkError { try await client.data(for: self.endpoint("/album/-1")) }
    XCTAssertEqual(error, .apiError(type: "DataException", message: "no data", code: 800))
  }

  func testAnAPIErrorWithoutACodeStillReadsAsAnError() async throws {
    let (client, _) = makeTestClient { $0.apiErrors = DeezerErrors.parser }
    let error = await networkError { try await client.data(for: self.endpoint("/episode/-1")) }
    XCTAssertEqual(
      error, .apiError(type: "Exception", message: "An error has occured", code: nil))
  }

  func testWithoutAParserAnErrorBodyIsJustData() async throws {
    let (client, _) = makeTestClient()
    let body = try await client.data(for: endpoint("/album/-1"))
    XCTAssertTrue(String(decoding: body, as: UTF8.self).contains("DataException"))
  }

  // MARK: - Retries

  func testAQuotaErrorIsRetriedAfterABackoff() async throws {
    let (client, clock) = makeTestClient { $0.apiErrors = DeezerErrors.parser }
    let base = server.scenario("quota-then-ok")
    let body = try await client.data(for: endpoint("/chart/0", base: base))
    XCTAssertFalse(body.isEmpty)
    XCTAssertEqual(clock.sleeps, [1])
    let logged = try await server.requests(endingWith: "/chart/0")
    XCTAssertEqual(logged.count, 2)
  }

  func testAServerErrorIsRetriedThenSucceeds() async throws {
    let (client, clock) = makeTestClient()
    _ = try await client.data(for: endpoint("/genre", base: server.scenario("500-then-ok")))
    XCTAssertEqual(clock.sleeps, [1])
  }

  func testRetriesStopAfterMaxAttemptsWithGrowingWaits() async throws {
    let (client, clock) = makeTestClient {
      $0.retry = RetryPolicy(maxAttempts: 4, baseDelay: 1, maxDelay: 3, jitter: 0.5)
      $0.random = { 0.5 }
    }
    let base = server.scenario("500-always")
    let error = await networkError {
      try await client.data(for: self.endpoint("/genre", base: base))
    }
    XCTAssertEqual(error, .httpStatus(code: 500, body: "Internal Server Error"))
    XCTAssertEqual(clock.sleeps, [0.75, 1.5, 2.25])
    let logged = try await server.requests(endingWith: "/genre")
    XCTAssertEqual(logged.count, 4)
  }

  func testA429WaitsForRetryAfter() async throws {
    let (client, clock) = makeTestClient()
    _ = try await client.data(for: endpoint("/genre", base: server.scenario("429-then-ok")))
    XCTAssertEqual(clock.sleeps, [2])
  }

  func testARetryAfterLongerThanTheLimitFailsAtOnce() async throws {
    let (client, clock) = makeTestClient { $0.retry.maxRetryAfter = 1 }
    let base = server.scenario("429-then-ok")
    let error = await networkError {
      try await client.data(for: self.endpoint("/genre", base: base))
    }
    XCTAssertEqual(error?.description.contains("HTTP 429"), true)
    XCTAssertEqual(clock.sleeps, [])
  }

  func testAQuotaErrorThatNeverClearsIsReported() async throws {
    let (client, _) = makeTestClient { $0.apiErrors = DeezerErrors.parser }
    let base = server.scenario("quota-always")
    let error = await networkError {
      try await client.data(for: self.endpoint("/genre", base: base))
    }
    XCTAssertEqual(error, .apiError(type: "Exception", message: "Quota limit exceeded", code: 4))
    XCTAssertEqual(error?.description.contains("wait a few seconds"), true)
  }

  // MARK: - Bad bodies, timeouts, transport

  func testMalformedJSONIsADecodingError() async throws {
    let (client, _) = makeTestClient()
    let base = server.scenario("malformed")
    let error = await networkError {
      try await client.decode(DeezerChart.self, from: self.endpoint("/chart/0", base: base))
    }
    guard case .decoding(let detail) = error else {
      return XCTFail("got \(String(describing: error))")
    }
    XCTAssertEqual(detail, "malformed JSON")
  }

  func testAnHTMLPageIsADecodingError() async throws {
    let (client, _) = makeTestClient()
    let error = await networkError {
      try await client.decode(
        DeezerList<DeezerGenre>.self,
        from: self.endpoint("/genre", base: self.server.scenario("html")))
    }
    guard case .decoding = error else { return XCTFail("got \(String(describing: error))") }
  }

  func testAMissingFieldNamesItsPlace() async throws {
    let (client, _) = makeTestClient()
    let error = await networkError {
      try await client.decode(DeezerPlaylist.self, from: self.endpoint("/genre/113"))
    }
    XCTAssertEqual(error, .decoding("missing \"title\""))
  }

  func testASlowServerTimesOut() async throws {
    let (client, _) = makeTestClient { $0.timeout = 0.3 }
    let started = Date()
    let error = await networkError {
      try await client.data(for: self.endpoint("/genre", base: self.server.scenario("slow")))
    }
    XCTAssertEqual(error, .timeout)
    XCTAssertLessThan(Date().timeIntervalSince(started), 2.5)
  }

  func testARefusedConnectionIsATransportError() async throws {
    let dedicated = try HTTPFixtureServer.deezer()
    let base = dedicated.baseURL
    dedicated.stop()
    let (client, clock) = makeTestClient()
    let error = await networkError {
      try await client.data(for: self.endpoint("/genre", base: base))
    }
    guard case .transport(let detail) = error else {
      return XCTFail("got \(String(describing: error))")
    }
    XCTAssertEqual(detail, "connection refused")
    XCTAssertEqual(clock.sleeps, [])
  }

  func testCancellingTheTaskCancelsTheRequest() async throws {
    let (client, _) = makeTestClient { $0.timeout = 5 }
    let slow = endpoint("/genre", base: server.scenario("slow"))
    let task = Task { try await client.data(for: slow) }
    try await Task.sleep(nanoseconds: 200_000_000)
    let started = Date()
    task.cancel()
    let result = await task.result
    guard case .failure(let error) = result else { return XCTFail("the request finished") }
    XCTAssertEqual(error as? NetworkError, .cancelled)
    XCTAssertLessThan(Date().timeIntervalSince(started), 2.5)
  }

  func testCancellationRacingCompletionNeverDeadlocks() async throws {
    // URLSession.data(for:) on Linux can deadlock when a task is cancelled just as its
    // answer arrives; the transport must not. A hang fails here instead of stalling.
    let (client, _) = makeTestClient()
    let genre = endpoint("/genre/113")
    let finished = expectation(description: "every request finished or was cancelled")
    Task {
      for round in 0..<200 {
        let task = Task { try await client.data(for: genre) }
        try? await Task.sleep(nanoseconds: UInt64(round % 6) * 400_000)
        task.cancel()
        if case .failure(let error) = await task.result {
          XCTAssertEqual(error as? NetworkError, .cancelled)
        }
      }
      finished.fulfill()
    }
    await fulfillment(of: [finished], timeout: 15)
  }

  // MARK: - Messages

  func testEveryErrorSaysWhatToDo() {
    let errors: [NetworkError] = [
      .invalidURL("x"), .transport("connection refused"), .httpStatus(code: 404, body: ""),
      .httpStatus(code: 429, body: ""), .httpStatus(code: 503, body: ""),
      .httpStatus(code: 403, body: ""), .httpStatus(code: 400, body: ""),
      .apiError(type: "Exception", message: "Quota limit exceeded", code: 4),
      .apiError(type: "DataException", message: "no data", code: 800), .decoding("malformed JSON"),
      .timeout,
    ]
    let advice = ["check", "try again", "wait", "report", "removed", "pick another"]
    for error in errors {
      XCTAssertTrue(
        advice.contains { error.description.contains($0) }, "no advice in \"\(error)\"")
    }
  }
}
