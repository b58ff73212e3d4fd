import Foundation
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainAudio

/// Servers that lie or stop (`Tests/Fixtures/ranges`): a length they do not have, a range
/// total of 2^63−1, a body that stops. Reads end with a reason within seconds, a C library
/// is told an error rather than an end, and a stall is told within a second.
final class HostileServerTests: RangeServerTestCase {
  /// A short Ogg Vorbis file (a few KiB) and 64 KiB of bytes.
  private static let folder: URL = {
    let folder = TestMedia.folder("hostile")
    let wav = folder.appendingPathComponent("tone.wav").path
    TestMedia.run(
      "sox", ["-n", "-r", "22050", "-c", "1", "-b", "16", wav, "synth", "0.5", "sine", "440"])
    TestMedia.run(
      "oggenc", ["-Q", "-q", "0", "-o", folder.appendingPathComponent("tiny.ogg").path, wav])
    try? Data(repeating: 7, count: 64 << 10).write(to: folder.appendingPathComponent("data.bin"))
    return folder
  }()

  override class var media: URL { folder }

  private final class Told: @unchecked Sendable {
    private let lock = NSLock()
    private var news: [(Date, StreamNews)] = []
    func add(_ item: StreamNews) { lock.withLock { news.append((Date(), item)) } }
    var all: [(Date, StreamNews)] { lock.withLock { news } }
  }

  // MARK: - Lying lengths

  func testALengthTheServerDoesNotHaveEndsAReadWithAnError() throws {
    let url = server.url("/liar/data.bin")
    let source = HTTPByteSource(url: url)
    XCTAssertEqual(try source.read(at: 0, count: 1000, shouldStop: { false })?.count, 1000)
    let started = Date()
    XCTAssertThrowsError(
      try source.read(at: 999_999_999_999_999 - 65_536, count: 4096, shouldStop: { false }))
    XCTAssertLessThan(Date().timeIntervalSince(started), 3)
  }

  func testARangeTotalOfTwoToTheSixtyThreeFailsAtOnceWhereNothingIsSent() throws {
    let url = server.url("/liar206/data.bin")
    let source = HTTPByteSource(url: url)
    XCTAssertEqual(try source.read(at: 0, count: 1000, shouldStop: { false })?.count, 1000)
    XCTAssertEqual(source.length, UInt64(Int64.max))
    let started = Date()
    XCTAssertThrowsError(
      try source.read(at: UInt64(Int64.max) - 65_536, count: 4096, shouldStop: { false })
    ) { error in
      XCTAssertTrue("\(error)".contains("sent none"), "\(error)")
    }
    XCTAssertLessThan(Date().timeIntervalSince(started), 3, "it waited for a server that lied")
  }

  func testACursorTellsItsCLibraryAnErrorNotAnEndAndRefusesSeeksPastTheEnd() throws {
    let source = HTTPByteSource(url: server.url("/liar206/data.bin"))
    _ = try source.read(at: 0, count: 10, shouldStop: { false })
    let cursor = InputCursor(source)
    XCTAssertFalse(cursor.seek(1, whence: SEEK_END), "a seek past the end")
    XCTAssertFalse(cursor.seek(-1, whence: SEEK_SET))
    XCTAssertFalse(
      cursor.seek(Int64.max, whence: SEEK_CUR) && cursor.seek(Int64.max, whence: SEEK_CUR))
    XCTAssertTrue(cursor.seek(-65_536, whence: SEEK_END))
    var buffer = [UInt8](repeating: 0, count: 4096)
    errno = 0
    let got = buffer.withUnsafeMutableBytes { cursor.read(into: $0.baseAddress!, count: 4096) }
    XCTAssertEqual(got, 0)
    XCTAssertEqual(errno, EIO, "an error, not the end")
    XCTAssertNotNil(cursor.failure)
    errno = 0
    XCTAssertEqual(
      buffer.withUnsafeMutableBytes { cursor.read(into: $0.baseAddress!, count: 10) }, 0)
    XCTAssertEqual(errno, EIO, "and on every later read")
  }

  func testAVorbisFileBehindALyingLengthFailsInSecondsNotAtFullCPU() throws {
    _ = try TestMedia.path("tiny.ogg", in: Self.folder)
    for path in ["/liar/tiny.ogg", "/liar206/tiny.ogg"] {
      let started = Date()
      XCTAssertThrowsError(
        try AudioDecoders.open(url: server.url(path), shouldStop: { false }), path)
      XCTAssertLessThan(Date().timeIntervalSince(started), 5, path)
    }
  }

  func testAnOpeningThatWaitsStopsWhenACommandArrives() throws {
    // The head arrives, then nothing: the Vorbis headers are never complete.
    _ = try TestMedia.path("tiny.ogg", in: Self.folder)
    let head = try Data(contentsOf: Self.folder.appendingPathComponent("tiny.ogg")).prefix(200)
    try head.write(to: Self.folder.appendingPathComponent("head.ogg"))
    let started = Date()
    XCTAssertThrowsError(
      try AudioDecoders.open(
        url: server.url("/stallfile/head.ogg"),
        shouldStop: {
          Date().timeIntervalSince(started) > 0.5
        }))
    XCTAssertLessThan(Date().timeIntervalSince(started), 3)
  }

  // MARK: - Stalls

  func testAStallIsToldOnceWithinASecond() throws {
    let told = Told()
    let source = HTTPByteSource(url: server.url("/stall/1000"), news: { told.add($0) })
    XCTAssertEqual(try source.read(at: 0, count: 1000, shouldStop: { false })?.count, 1000)
    let started = Date()
    let result = try source.read(at: 1000, count: 10) { Date().timeIntervalSince(started) > 1.6 }
    XCTAssertNil(result)
    let stalls = told.all.filter { if case .stalled = $0.1 { return true } else { return false } }
    XCTAssertEqual(stalls.count, 1, "\(told.all)")
    if let first = stalls.first {
      XCTAssertLessThan(first.0.timeIntervalSince(started), 1.5)
      XCTAssertEqual(first.1, .stalled(reason: "the server has sent nothing for 1 s"))
    }
  }

  // MARK: - Reconnecting

  func testTheBackoffGrowsWhileAStreamDropsAtOnceAndStartsOverAfterItPlays() {
    var backoff = ReconnectBackoff()
    var waits: [Double] = []
    var now = 100.0
    for _ in 0..<7 {
      backoff.delivered(at: now)
      now += 0.05
      waits.append(backoff.dropped(at: now))
      now += waits.last ?? 0
    }
    XCTAssertEqual(waits, [0.5, 1, 2, 4, 8, 10, 10])
    backoff.delivered(at: now)
    backoff.delivered(at: now + 12)
    XCTAssertEqual(backoff.dropped(at: now + 12), 0.5, "a stream that played 12 s starts over")
    XCTAssertEqual(backoff.dropped(at: now + 13), 1)
  }

  func testARefusedConnectionGrowsTheBackoffToo() {
    var backoff = ReconnectBackoff()
    XCTAssertEqual((0..<6).map { backoff.dropped(at: Double($0)) }, [0.5, 1, 2, 4, 8, 10])
  }
}
