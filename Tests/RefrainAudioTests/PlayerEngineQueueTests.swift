import Foundation
import RefrainAudio
import RefrainCore
import XCTest

/// An output like PulseAudio with a deep queue: writes never block, the queue plays out at
/// real-time pace, and it counts writes and flushes.
private final class QueueOutput: AudioOutput, @unchecked Sendable {
  let name = "queue"
  private let inner = NullOutput(bufferTarget: 60)
  private let lock = NSLock()
  private var counts = (writes: 0, drops: 0, bytes: 0, deepest: 0.0, replaced: [Int]())

  var writes: Int { lock.withLock { counts.writes } }
  var drops: Int { lock.withLock { counts.drops } }
  var bytes: Int { lock.withLock { counts.bytes } }
  /// The size of each ``replaceQueue(with:)``, in bytes.
  var replacements: [Int] { lock.withLock { counts.replaced } }
  /// The most audio ever queued right after a write, in seconds.
  var deepest: Double { lock.withLock { counts.deepest } }
  var bufferAhead: Double? { 1.0 }

  func open(_ format: PCMFormat) throws { try inner.open(format) }

  func write(_ bytes: UnsafeRawBufferPointer) throws {
    try inner.write(bytes)
    let queued = inner.latency
    lock.withLock {
      counts.writes += 1
      counts.bytes += bytes.count
      counts.deepest = max(counts.deepest, queued)
    }
  }

  func drop() {
    lock.withLock { counts.drops += 1 }
    inner.drop()
  }

  func replaceQueue(with bytes: UnsafeRawBufferPointer) throws {
    lock.withLock { counts.replaced.append(bytes.count) }
    inner.drop()
    try write(bytes)
  }

  func drain() throws { try inner.drain() }
  var latency: Double { inner.latency }
  func close() { inner.close() }
}

/// With an output that keeps a deep queue, the engine refills it rarely, sleeps in between,
/// and still answers commands at once.
final class PlayerEngineQueueTests: XCTestCase {
  /// An engine playing steps.mp3 from `start` once its queue is mostly full.
  private func playingWithFullQueue(from start: Double) throws -> (QueueOutput, PlayerEngine) {
    let output = QueueOutput()
    let engine = PlayerEngine(output: output)
    engine.play(Track(argument: try Fixtures.path("steps.mp3")), startAt: start)
    waitUntil("a full queue") { output.latency > 0.6 }
    return (output, engine)
  }

  func testTheQueueIsRefilledInFewLargeWritesAndThePositionFollowsTheClock() throws {
    let output = QueueOutput()
    let engine = PlayerEngine(output: output)
    defer { engine.shutdown() }
    let started = MonotonicClock.now
    engine.play(Track(argument: try Fixtures.path("steps.mp3")), startAt: 0)
    waitUntil("playback") { engine.state == .playing }
    Thread.sleep(forTimeInterval: 2)
    let elapsed = MonotonicClock.now - started
    // One MPEG frame per write would be about 75 writes in 2 s.
    XCTAssertLessThanOrEqual(output.writes, 15, "refills come in large writes")
    XCTAssertLessThanOrEqual(output.deepest, 1.05, "the queue stays near its target")
    XCTAssertEqual(engine.position, elapsed, accuracy: 0.15, "the heard position follows the clock")
  }

  func testASeekIsAnsweredAtOnceWhileTheEngineSleeps() throws {
    let (output, engine) = try playingWithFullQueue(from: 0)
    defer { engine.shutdown() }
    let drops = output.drops
    let asked = MonotonicClock.now
    engine.seek(to: 20)
    waitUntil("the queue replaced") { !output.replacements.isEmpty }
    XCTAssertLessThan(MonotonicClock.now - asked, 0.1, "a sleeping engine wakes for a seek")
    XCTAssertEqual(engine.position, 20, accuracy: 0.1)
    // The new position's first audio goes in place of the queue in one call (flush and
    // write together), about 0.2 s of it; the rest follows in ordinary writes.
    XCTAssertEqual(output.drops, drops, "no separate flush")
    let first = try XCTUnwrap(output.replacements.first)
    XCTAssertEqual(Double(first) / (44_100 * 4), 0.2, accuracy: 0.05)
    waitUntil("the refill") { output.latency > 0.6 }
    XCTAssertEqual(output.replacements.count, 1)
  }

  func testAVolumeChangeFlushesTheQueueWithoutMovingThePosition() throws {
    let (output, engine) = try playingWithFullQueue(from: 3)
    defer { engine.shutdown() }
    let drops = output.drops
    let before = engine.position
    engine.setVolume(40)
    waitUntil("the flush") { output.drops > drops }
    waitUntil("the refill") { output.latency > 0.3 }
    XCTAssertEqual(
      engine.position, before, accuracy: 0.1, "the new volume plays from the heard spot")
    engine.setVolume(40)
    Thread.sleep(forTimeInterval: 0.05)
    XCTAssertEqual(output.drops, drops + 1, "the same volume again changes nothing")
  }

  func testAGaplessHandOverIsAnnouncedWhenTheBoundaryIsHeard() throws {
    let output = QueueOutput()
    let engine = PlayerEngine(output: output)
    defer { engine.shutdown() }
    let steps = Track(argument: try Fixtures.path("steps.mp3"))
    let tone = Track(argument: try Fixtures.path("tone440.mp3"))
    let started = MonotonicClock.now
    engine.play(steps, startAt: 28.5)
    engine.prepareNext(tone)
    var endedAt: Double?
    waitUntil("the hand-over", timeout: 5) {
      for event in engine.drainEvents() where event == .trackEnded(steps) {
        endedAt = MonotonicClock.now - started
      }
      return endedAt != nil
    }
    // 1.5 s of the first track were left; its end is heard then, not when it was decoded.
    XCTAssertEqual(endedAt ?? 0, 1.5, accuracy: 0.25)
    XCTAssertLessThan(engine.position, 0.3, "the second track has just begun")
  }
}
