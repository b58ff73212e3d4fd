import Foundation
import XCTest

@testable import RefrainCatalog
@testable import RefrainHTTP

/// A clock for tests: sleeping records the wait and moves time forward at once.
final class FakeNetworkClock: @unchecked Sendable {
  private let lock = NSLock()
  private var seconds: TimeInterval = 1_000
  private var recorded: [TimeInterval] = []

  /// Every wait asked for, in order.
  var sleeps: [TimeInterval] {
    lock.lock()
    defer { lock.unlock() }
    return recorded
  }

  /// The monotonic time now.
  var now: TimeInterval {
    lock.lock()
    defer { lock.unlock() }
    return seconds
  }

  /// Moves time forward without a recorded sleep.
  func advance(by interval: TimeInterval) {
    lock.lock()
    seconds += interval
    lock.unlock()
  }

  private func record(_ interval: TimeInterval) {
    lock.withLock {
      recorded.append(interval)
      seconds += interval
    }
  }

  /// The clock to hand to `HTTPClient`.
  var clock: NetworkClock {
    NetworkClock(
      now: { self.now },
      date: { Date(timeIntervalSince1970: 1_700_000_000 + self.now) },
      sleep: { interval in
        try Task.checkCancellation()
        self.record(interval)
      })
  }
}

/// A client with a fake clock, no jitter and short timeouts; tweak the configuration in `adjust`.
func makeTestClient(
  _ adjust: (inout HTTPClient.Configuration) -> Void = { _ in }
) -> (HTTPClient, FakeNetworkClock) {
  let fake = FakeNetworkClock()
  var configuration = HTTPClient.Configuration()
  configuration.clock = fake.clock
  configuration.random = { 0 }
  configuration.timeout = 2
  configuration.retry = RetryPolicy(maxAttempts: 3, baseDelay: 1, maxDelay: 8, jitter: 0.5)
  adjust(&configuration)
  return (HTTPClient(configuration: configuration, transport: nil), fake)
}

/// Runs `body` and returns the `NetworkError` it threw, failing the test otherwise.
func networkError<T>(
  _ body: () async throws -> T, file: StaticString = #filePath, line: UInt = #line
) async -> NetworkError? {
  do {
    _ = try await body()
    XCTFail("expected a NetworkError", file: file, line: line)
  } catch let error as NetworkError {
    return error
  } catch {
    XCTFail("expected a NetworkError, got \(error)", file: file, line: line)
  }
  return nil
}
