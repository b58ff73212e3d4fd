import XCTest

@testable import RefrainAudio

/// The audible clock's arithmetic: what the listener hears, not what was decoded.
final class AudibleClockTests: XCTestCase {
  // MARK: - Position

  func testPositionSubtractsOutputLatency() {
    var clock = AudibleClock()
    clock.reset(to: 0, sampleRate: 44_100)
    clock.didWrite(frames: 44_100, latency: 0.25, at: 100)
    XCTAssertEqual(clock.position(at: 100), 0.75, accuracy: 1e-9)
  }

  func testPositionAdvancesWithTimeBetweenWrites() {
    var clock = AudibleClock()
    clock.reset(to: 10, sampleRate: 48_000)
    clock.didWrite(frames: 48_000, latency: 0.5, at: 0)
    XCTAssertEqual(clock.position(at: 0.2), 10.7, accuracy: 1e-9)
  }

  func testPositionNeverPassesWhatWasWritten() {
    var clock = AudibleClock()
    clock.reset(to: 0, sampleRate: 44_100)
    clock.didWrite(frames: 4_410, latency: 0.05, at: 0)
    XCTAssertEqual(clock.position(at: 5), 0.1, accuracy: 1e-9, "an underrun holds the clock")
  }

  func testPositionIsMonotonicAcrossWrites() {
    var clock = AudibleClock()
    clock.reset(to: 0, sampleRate: 1_000)
    clock.didWrite(frames: 100, latency: 0.02, at: 0)
    let before = clock.position(at: 0.05)
    // The next report of latency is larger than extrapolation assumed (jitter).
    clock.didWrite(frames: 10, latency: 0.07, at: 0.05)
    XCTAssertGreaterThanOrEqual(clock.position(at: 0.05), before)
  }

  func testResetIsExactAfterSeek() {
    var clock = AudibleClock()
    clock.reset(to: 0, sampleRate: 44_100)
    clock.didWrite(frames: 441_000, latency: 0.05, at: 0)
    clock.reset(to: 42.5)
    XCTAssertEqual(clock.position(at: 1), 42.5, accuracy: 1e-9)
    clock.didWrite(frames: 2_205, latency: 0.05, at: 1)
    XCTAssertEqual(clock.position(at: 1), 42.5, accuracy: 1e-9, "nothing new heard yet")
    XCTAssertFalse(clock.position(at: 1.04) < 42.5)
  }

  func testFreezeKeepsHeardPositionAndStops() {
    var clock = AudibleClock()
    clock.reset(to: 0, sampleRate: 1_000)
    clock.didWrite(frames: 1_000, latency: 0.1, at: 0)
    clock.freeze(at: 0.05)
    XCTAssertEqual(clock.position(at: 0.05), 0.95, accuracy: 1e-9)
    XCTAssertEqual(clock.position(at: 9), 0.95, accuracy: 1e-9)
    XCTAssertFalse(clock.isRunning)
  }

  // MARK: - Scheduling

  func testDelayUntilTargetFollowsAudiblePosition() throws {
    var clock = AudibleClock()
    clock.reset(to: 0, sampleRate: 44_100)
    clock.didWrite(frames: 44_100 * 3, latency: 0.05, at: 0)
    let delay = try XCTUnwrap(clock.delay(until: 2.0, at: 0))
    XCTAssertEqual(delay, 0, "already heard")
    XCTAssertEqual(try XCTUnwrap(clock.delay(until: 3.5, at: 0)), 0.55, accuracy: 1e-9)
  }

  func testDelayIsNilWhenStopped() {
    var clock = AudibleClock()
    clock.reset(to: 5)
    XCTAssertNil(clock.delay(until: 6, at: 0))
  }
}
