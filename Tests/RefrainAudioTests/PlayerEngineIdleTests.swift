import Foundation
import RefrainAudio
import RefrainCore
import XCTest

/// An output like a sound-server connection: real-time pace, and it counts its opens and
/// closes; `serverUp = false` makes opening fail as with no audio server.
private final class CountingOutput: AudioOutput, @unchecked Sendable {
  let name = "counting"
  private let inner = NullOutput(bufferTarget: 0.05)
  private let lock = NSLock()
  private var state = (opens: 0, closes: 0, isOpen: false, serverUp: true, bytes: 0)

  var opens: Int { lock.withLock { state.opens } }
  var closes: Int { lock.withLock { state.closes } }
  var isOpen: Bool { lock.withLock { state.isOpen } }
  var bytes: Int { lock.withLock { state.bytes } }
  var serverUp: Bool {
    get { lock.withLock { state.serverUp } }
    set { lock.withLock { state.serverUp = newValue } }
  }
  var closesWhenIdle: Bool { true }

  func open(_ format: PCMFormat) throws {
    try lock.withLock {
      guard state.serverUp else { throw AudioError.noAudioServer(detail: "test server down") }
      if !state.isOpen { state.opens += 1 }
      state.isOpen = true
    }
    try inner.open(format)
  }

  func write(_ bytes: UnsafeRawBufferPointer) throws {
    try lock.withLock {
      guard state.serverUp else { throw AudioError.outputFailed(detail: "test server gone") }
      state.bytes += bytes.count
    }
    try inner.write(bytes)
  }

  func drop() { inner.drop() }
  func drain() throws { try inner.drain() }
  var latency: Double { inner.latency }

  func close() {
    lock.withLock {
      if state.isOpen { state.closes += 1 }
      state.isOpen = false
    }
    inner.close()
  }
}

/// The player hangs up an idle sound-server connection, so a paused Refrain does not wake.
final class PlayerEngineIdleTests: XCTestCase {
  func testPausedOutputIsClosedAfterAWhileAndReopenedOnResume() throws {
    let output = CountingOutput()
    let engine = PlayerEngine(output: output, idleClose: 0.3)
    defer { engine.shutdown() }
    engine.play(Track(argument: try Fixtures.path("steps.mp3")), startAt: 5)
    waitUntil("playback") { engine.state == .playing && engine.position > 5.2 }
    engine.pause()
    waitUntil("the pause") { engine.state == .paused }
    let pausedAt = engine.position
    XCTAssertTrue(output.isOpen, "a short pause keeps the connection")
    waitUntil("the idle close") { !output.isOpen }
    XCTAssertEqual(output.closes, 1)
    XCTAssertEqual(engine.position, pausedAt, accuracy: 0.001, "the position holds while closed")

    engine.resume()
    waitUntil("playing again") { engine.state == .playing && engine.position > pausedAt + 0.2 }
    XCTAssertTrue(output.isOpen)
    XCTAssertEqual(output.opens, 2)
    XCTAssertEqual(engine.position, pausedAt + 0.25, accuracy: 0.25, "resumed where it paused")
  }

  func testResumeWithTheServerGoneWaitsForItAndPlaysOn() throws {
    let output = CountingOutput()
    let engine = PlayerEngine(output: output, idleClose: 0.2)
    defer { engine.shutdown() }
    engine.play(Track(argument: try Fixtures.path("steps.mp3")), startAt: 3)
    waitUntil("playback") { engine.state == .playing && engine.position > 3.2 }
    engine.pause()
    waitUntil("the idle close") { !output.isOpen }
    let pausedAt = engine.position
    output.serverUp = false
    engine.resume()
    waitUntil("the wait for the server") { engine.state == .loading }
    let written = output.bytes
    Thread.sleep(forTimeInterval: 0.3)
    XCTAssertEqual(output.bytes, written, "nothing is written while the server is away")
    output.serverUp = true
    waitUntil("the server back") { engine.state == .playing && engine.position > pausedAt + 0.1 }
    XCTAssertEqual(engine.position, pausedAt + 0.2, accuracy: 0.3)
  }

  func testAPauseDuringAnOutageIsStillInForceWhenTheServerReturns() throws {
    let output = CountingOutput()
    let engine = PlayerEngine(output: output, idleClose: 5)
    defer { engine.shutdown() }
    engine.play(Track(argument: try Fixtures.path("steps.mp3")), startAt: 2)
    waitUntil("playback") { engine.state == .playing && engine.position > 2.2 }
    output.serverUp = false
    waitUntil("the outage noticed") { engine.state == .loading }
    let stalled = engine.position
    engine.pause()
    waitUntil("the pause taken") { engine.state == .paused }
    output.serverUp = true
    let written = output.bytes
    Thread.sleep(forTimeInterval: 0.6)
    XCTAssertEqual(engine.state, .paused, "the server came back, the pause stays")
    XCTAssertEqual(output.bytes, written, "nothing is heard while paused")
    XCTAssertEqual(engine.position, stalled, accuracy: 0.001)
    engine.resume()
    waitUntil("playing again") { engine.state == .playing && engine.position > stalled + 0.1 }
    XCTAssertEqual(engine.position, stalled + 0.2, accuracy: 0.3, "it resumed where it stalled")
  }

  func testSeekAndNewTrackDuringAnOutageAreHonoured() throws {
    let output = CountingOutput()
    let engine = PlayerEngine(output: output, idleClose: 5)
    defer { engine.shutdown() }
    let steps = Track(argument: try Fixtures.path("steps.mp3"))
    engine.play(steps, startAt: 1)
    waitUntil("playback") { engine.state == .playing && engine.position > 1.2 }
    output.serverUp = false
    waitUntil("the outage noticed") { engine.state == .loading }
    engine.seek(to: 6)
    Thread.sleep(forTimeInterval: 0.2)
    output.serverUp = true
    waitUntil("playing after the seek") { engine.state == .playing && engine.position > 6.05 }
    XCTAssertEqual(engine.position, 6.2, accuracy: 0.3, "the seek moved where it resumed")

    output.serverUp = false
    waitUntil("the second outage noticed") { engine.state == .loading }
    _ = engine.drainEvents()
    engine.play(steps, startAt: 0)
    waitUntil("the new track taken") {
      engine.drainEvents().contains { if case .started = $0 { return true } else { return false } }
    }
    XCTAssertEqual(engine.state, .loading, "the new track waits for the server")
    output.serverUp = true
    waitUntil("the new track plays") { engine.state == .playing && engine.position > 0.1 }
    XCTAssertLessThan(engine.position, 1.0, "from its start")
  }

  func testStoppedOutputIsClosedToo() throws {
    let output = CountingOutput()
    let engine = PlayerEngine(output: output, idleClose: 0.2)
    defer { engine.shutdown() }
    engine.play(Track(argument: try Fixtures.path("steps.mp3")), startAt: 0)
    waitUntil("playback") { engine.state == .playing && output.bytes > 0 }
    engine.stop()
    waitUntil("the idle close") { !output.isOpen }
    engine.play(Track(argument: try Fixtures.path("steps.mp3")), startAt: 0)
    waitUntil("playing again") { engine.state == .playing && output.isOpen }
    XCTAssertEqual(output.opens, 2)
  }
}
