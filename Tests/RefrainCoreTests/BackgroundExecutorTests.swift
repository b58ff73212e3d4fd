import Foundation
import RefrainCore
import XCTest

/// Refrain's own executor: tasks that prefer it run on its threads, and its timers fire in
/// order, can be cancelled, and are not held back by a blocked job.
final class BackgroundExecutorTests: XCTestCase {
  private final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    func add(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
  }

  /// Blocks the running thread, as work that never awaits does.
  private static func block(seconds: Double) { Thread.sleep(forTimeInterval: seconds) }

  func testTasksRunOnItsThreads() async {
    let task = Task.detached(executorPreference: BackgroundExecutor.shared) {
      currentThreadName()
    }
    let name = await task.value
    XCTAssertTrue(name.hasPrefix("refrain-bg-"), name)
  }

  func testTimersFireInOrderAndCancelledOnesDoNot() {
    let log = Log()
    let done = expectation(description: "the last timer")
    let executor = BackgroundExecutor.shared
    executor.schedule(after: 0.15) {
      log.add("late")
      done.fulfill()
    }
    let cancelled = executor.schedule(after: 0.05) { log.add("cancelled") }
    executor.schedule(after: 0.02) { log.add("early") }
    executor.cancel(cancelled)
    wait(for: [done], timeout: 5)
    XCTAssertEqual(log.all, ["early", "late"])
  }

  func testATimerFiresWhileAJobBlocks() {
    let fired = expectation(description: "the timer")
    let release = DispatchSemaphore(value: 0)
    Task.detached(executorPreference: BackgroundExecutor.shared) { release.wait() }
    BackgroundExecutor.shared.schedule(after: 0.05) { fired.fulfill() }
    wait(for: [fired], timeout: 5)
    release.signal()
  }

  func testADeadlineCutsOffWorkThatIgnoresCancellation() async {
    let started = ProcessInfo.processInfo.systemUptime
    let outcome = await LyricsDeadline.run(seconds: 0.2) { () async -> Int in
      Self.block(seconds: 1.5)  // neither awaits nor checks for cancellation
      return 1
    }
    guard case .timedOut = outcome else { return XCTFail("expected a time-out, got \(outcome)") }
    XCTAssertLessThan(ProcessInfo.processInfo.systemUptime - started, 1.2)
  }
}

/// The running system thread's name.
private func currentThreadName() -> String {
  let text = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
  return text.trimmingCharacters(in: .newlines)
}
