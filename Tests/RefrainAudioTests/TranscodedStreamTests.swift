import Foundation
import RefrainCore
import XCTest

@testable import RefrainAudio

/// A decoder that plays silence from a position, and says where it was asked to seek.
private final class SilentDecoder: AudioDecoder {
  let name: String
  let format = PCMFormat(sampleRate: 48_000, channels: 2)
  let duration: Double?
  var gaplessTrim: (start: Int, end: Int) { (312, 0) }
  var isAtEnd = false
  var position = 0.0
  var closed = false
  /// Whether a seek within the request works (a stream held in memory).
  var seeksWithin = true

  init(name: String, duration: Double? = nil) {
    self.name = name
    self.duration = duration
  }

  func read(into buffer: UnsafeMutableRawBufferPointer, shouldStop: () -> Bool) throws -> Int {
    position += Double(buffer.count / 4) / 48_000
    return buffer.count
  }

  func seek(to seconds: Double) throws -> Double {
    guard seeksWithin else { throw AudioError.transport(url: name, detail: "no ranges") }
    position = seconds
    return seconds
  }

  func close() { closed = true }
}

final class TranscodedStreamTests: XCTestCase {
  private let url = URL(string: "http://127.0.0.1:9/rest/stream.view?id=7&format=opus")!

  private func play(_ decoder: any AudioDecoder, seconds: Double) throws {
    var bytes = [UInt8](repeating: 0, count: Int(seconds * 48_000) * 4)
    _ = try bytes.withUnsafeMutableBytes { try decoder.read(into: $0, shouldStop: { false }) }
  }

  func testTheOffsetGoesInTheURLAsWholeSeconds() {
    let moved = TranscodedStream.url(url, parameter: "timeOffset", seconds: 83)
    XCTAssertEqual(moved.query, "id=7&format=opus&timeOffset=83")
    let again = TranscodedStream.url(moved, parameter: "timeOffset", seconds: 12)
    XCTAssertEqual(again.query, "id=7&format=opus&timeOffset=12", "replaced, not repeated")
    XCTAssertEqual(TranscodedStream.url(again, parameter: "timeOffset", seconds: 0), url)
  }

  func testASeekAsksAgainFromTheWholeSecondAndTheClockGoesOnFromThere() throws {
    let first = SilentDecoder(name: "first", duration: nil)
    var asked: [URL] = []
    var opened: [SilentDecoder] = []
    let stream = TranscodedStream(
      url: url, first: first, seeking: .reRequest(parameter: "timeOffset"), duration: 200.5,
      open: { url in
        asked.append(url)
        let next = SilentDecoder(name: url.absoluteString)
        opened.append(next)
        return next
      })
    XCTAssertEqual(stream.duration, 200.5, "the server's length, as the stream knows none")
    try play(stream, seconds: 2)
    XCTAssertEqual(stream.position, 2, accuracy: 0.001)

    XCTAssertEqual(try stream.seek(to: 83.7), 83)
    XCTAssertEqual(asked.map { $0.query }, ["id=7&format=opus&timeOffset=83"])
    XCTAssertTrue(first.closed, "the old request is let go")
    try play(stream, seconds: 1.5)
    XCTAssertEqual(stream.position, 84.5, accuracy: 0.001, "offset plus what was decoded")
    XCTAssertEqual(stream.gaplessTrim.start, 312, "the trim is the decoder's own")

    // A step back into what this request decoded (a pause) stays in it.
    XCTAssertEqual(try stream.seek(to: 84), 84)
    XCTAssertEqual(asked.count, 1)
    XCTAssertEqual(opened[0].position, 1, accuracy: 0.001)

    // Back before the request began: asked again.
    XCTAssertEqual(try stream.seek(to: 10.2), 10)
    XCTAssertEqual(asked.last?.query, "id=7&format=opus&timeOffset=10")
    XCTAssertEqual(try stream.seek(to: 0.4), 0)
    XCTAssertEqual(asked.last, url, "the start is the URL as it was")
  }

  func testARefusedStreamOnlyStepsBackWithinWhatItHolds() throws {
    let first = SilentDecoder(name: "first", duration: 30)
    let reason = "seeking is not available: the server transcodes this track to opus"
    let stream = TranscodedStream(
      url: url, first: first, seeking: .refused(reason: reason), duration: nil,
      open: { _ in
        XCTFail("a refused stream never asks again")
        return SilentDecoder(name: "never")
      })
    XCTAssertEqual(stream.duration, 30, "the stream's own length when the catalog has none")
    try play(stream, seconds: 3)
    XCTAssertEqual(try stream.seek(to: 2.5), 2.5)
    XCTAssertThrowsError(try stream.seek(to: 20)) { error in
      XCTAssertEqual("\(error)", reason)
    }
    first.seeksWithin = false
    XCTAssertThrowsError(try stream.seek(to: 2))
    XCTAssertEqual(stream.position, 2.5, "a refusal leaves the stream where it was")
  }

  func testTheEngineRefusesTheSeekWithAWarningAndPlaysOn() throws {
    let engine = PlayerEngine(output: NullOutput(bufferTarget: 0.2))
    defer { engine.shutdown() }
    var track = Track(argument: try Fixtures.path("steps.mp3"))
    let reason = "seeking is not available: the server transcodes this track to opus"
    track.seeking = .refused(reason: reason)
    engine.play(track, startAt: 0)
    waitUntil("playback") { engine.state == .playing }
    Thread.sleep(forTimeInterval: 0.5)
    let before = engine.position
    let asked = MonotonicClock.now
    engine.seek(to: 20)
    var events: [PlayerEvent] = []
    waitUntil("the refusal") {
      events += engine.drainEvents()
      return events.contains(.warning(reason))
    }
    Thread.sleep(forTimeInterval: 0.3)
    XCTAssertEqual(engine.state, .playing)
    XCTAssertEqual(
      engine.position - before, MonotonicClock.now - asked, accuracy: 0.15,
      "playback went on, unmoved")
  }
}
