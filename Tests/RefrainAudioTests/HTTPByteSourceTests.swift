import Foundation
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainAudio

/// The HTTP byte source against a real server on 127.0.0.1 (`Tests/Fixtures/ranges`): range
/// requests, a server that ignores them, dropped connections, reads that jump ahead of
/// what has arrived, refusals and a reader that stops waiting.
final class HTTPByteSourceTests: RangeServerTestCase {
  /// 2 MiB of bytes that differ from place to place (a fixed linear congruential sequence),
  /// so a byte read from the wrong offset shows.
  private static let bytes: [UInt8] = {
    var state: UInt32 = 12_345
    return (0..<(2 << 20)).map { _ in
      state = state &* 1_103_515_245 &+ 12_345
      return UInt8(truncatingIfNeeded: state >> 16)
    }
  }()

  private static let folder: URL = {
    let folder = TestMedia.folder("byte-source")
    try? Data(bytes).write(to: folder.appendingPathComponent("data.bin"))
    try? Data().write(to: folder.appendingPathComponent("empty.bin"))
    return folder
  }()

  override class var media: URL { folder }

  private func read(_ source: HTTPByteSource, at offset: Int, count: Int) throws -> [UInt8] {
    try XCTUnwrap(source.read(at: UInt64(offset), count: count, shouldStop: { false }))
  }

  private func expected(_ offset: Int, _ count: Int) -> [UInt8] {
    Array(Self.bytes[offset..<min(Self.bytes.count, offset + count)])
  }

  // MARK: - Ranges

  func testReadsAnywhereWithRangeRequests() throws {
    let source = HTTPByteSource(url: server.url("/files/data.bin"))
    XCTAssertEqual(try read(source, at: 0, count: 100), expected(0, 100))
    XCTAssertEqual(source.honoursRanges, true)
    XCTAssertEqual(source.length, UInt64(Self.bytes.count))
    XCTAssertEqual(try read(source, at: 1_900_000, count: 5000), expected(1_900_000, 5000))
    XCTAssertEqual(try read(source, at: 12_345, count: 70_000), expected(12_345, 70_000))
    XCTAssertEqual(
      try read(source, at: Self.bytes.count - 10, count: 100), expected(Self.bytes.count - 10, 10),
      "a read past the end gives what is there")
    XCTAssertEqual(try read(source, at: Self.bytes.count + 5, count: 10), [])
    XCTAssertEqual(try server.log().first?.range, "bytes=0-")
  }

  func testAServerThatIgnoresRangesIsOneProgressiveDownload() throws {
    let source = HTTPByteSource(url: server.url("/plain/data.bin"))
    XCTAssertEqual(try read(source, at: 1_500_000, count: 4096), expected(1_500_000, 4096))
    XCTAssertEqual(source.honoursRanges, false)
    XCTAssertEqual(try read(source, at: 10, count: 4096), expected(10, 4096))
    XCTAssertEqual(try read(source, at: Self.bytes.count - 4, count: 100).count, 4)
    XCTAssertEqual(source.requestCount, 1, "never asks again")
    XCTAssertEqual(try server.log().map(\.status), [200])
  }

  func testAReadBeyondWhatHasArrivedAsksForItThere() throws {
    // 20 KB/s: the whole file would take 100 s to arrive.
    let source = HTTPByteSource(url: server.url("/slow/20000/data.bin"))
    XCTAssertEqual(try read(source, at: 0, count: 1000), expected(0, 1000))
    let started = Date()
    XCTAssertEqual(try read(source, at: 1_500_000, count: 8000), expected(1_500_000, 8000))
    XCTAssertLessThan(Date().timeIntervalSince(started), 3, "it did not wait for the download")
    let ranges = try server.log().compactMap(\.range)
    XCTAssertEqual(ranges.prefix(2), ["bytes=0-", "bytes=1500000-"])
    // Back at the start, the bytes that arrived are still there.
    XCTAssertEqual(try read(source, at: 500, count: 400), expected(500, 400))
  }

  // MARK: - Failures

  func testADroppedConnectionIsTakenUpWhereItStopped() throws {
    // Every answer stops after 300 000 bytes: seven requests bring the whole file.
    let source = HTTPByteSource(url: server.url("/cut/300000/data.bin"))
    XCTAssertEqual(try read(source, at: 0, count: Self.bytes.count), Self.bytes)
    let ranges = try server.log().compactMap(\.range)
    XCTAssertEqual(ranges.first, "bytes=0-")
    XCTAssertTrue(ranges.contains("bytes=300000-"), "\(ranges)")
  }

  func testADroppedConnectionWithoutRangesIsAClearError() throws {
    let url = server.url("/drop/300000/data.bin")
    let source = HTTPByteSource(url: url)
    XCTAssertEqual(try read(source, at: 299_000, count: 1000), expected(299_000, 1000))
    XCTAssertThrowsError(try source.read(at: 299_000, count: 5000, shouldStop: { false })) {
      error in
      guard case .transport(let named, _)? = error as? AudioError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(named, url.absoluteString)
    }
  }

  func testAnEmptyFileIsEmptyNotAnError() throws {
    // `bytes=0-` of nothing is unsatisfiable (416): asked again without a range, it is 0 bytes.
    let source = HTTPByteSource(url: server.url("/files/empty.bin"))
    XCTAssertEqual(try read(source, at: 0, count: 10), [])
    XCTAssertEqual(source.length, 0)
    XCTAssertEqual(try server.log().map(\.status), [416, 200])
  }

  func testAMissingFileIsItsHTTPStatus() throws {
    let url = server.url("/files/nothing.bin")
    let source = HTTPByteSource(url: url)
    XCTAssertThrowsError(try source.read(at: 0, count: 10, shouldStop: { false })) { error in
      XCTAssertEqual(error as? AudioError, .httpStatus(url: url.absoluteString, status: 404))
    }
  }

  func testAWaitingReadGivesUpWhenTold() throws {
    let source = HTTPByteSource(url: server.url("/slow/200/data.bin"))
    let started = Date()
    let result = try source.read(at: 0, count: 100_000) {
      Date().timeIntervalSince(started) > 0.3
    }
    XCTAssertNil(result, "the read was interrupted")
    XCTAssertLessThan(Date().timeIntervalSince(started), 1.5)
  }

  func testASourceLetGoIsFreedWithItsRequests() throws {
    weak var released: HTTPByteSource?
    func play() throws {
      let source = HTTPByteSource(url: server.url("/slow/20000/data.bin"))
      XCTAssertEqual(try read(source, at: 0, count: 100), expected(0, 100))
      released = source
    }
    try play()
    // A delegate callback in flight may hold the source for a moment on a busy machine.
    let deadline = Date().addingTimeInterval(2)
    while released != nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    XCTAssertNil(released, "the session keeps the source (and its download) alive")
  }

  func testMemoryStaysNearTheBudget() throws {
    let source = HTTPByteSource(
      url: server.url("/files/data.bin"), readAhead: 64 << 10, memoryBudget: 256 << 10)
    var offset = 0
    var most = 0
    while offset < Self.bytes.count {
      XCTAssertEqual(try read(source, at: offset, count: 16_384), expected(offset, 16_384))
      offset += 16_384
      most = max(most, source.bufferedCount)
    }
    XCTAssertLessThan(most, 1 << 20, "held \(most) bytes of a 2 MiB file")
  }

  // MARK: - A live stream (internet radio)

  /// What a live source told, in order.
  private final class Told: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [StreamNews] = []
    func add(_ news: StreamNews) { lock.withLock { items.append(news) } }
    var all: [StreamNews] { lock.withLock { items } }
  }

  func testALiveStreamGivesOnlyItsAudioAndReconnectsWhenItEnds() throws {
    let told = Told()
    let source = HTTPByteSource(
      url: server.url("/icy/16000/data.bin"), news: { told.add($0) })
    let size = Self.bytes.count
    // The audio comes without the metadata blocks, in reads of any size.
    var offset = 0
    for count in [1, 15_999, 3, 70_000, 1 << 20] {
      XCTAssertEqual(try read(source, at: offset, count: count), expected(offset, count))
      offset += count
    }
    XCTAssertTrue(source.isLive)
    XCTAssertNil(source.length, "a live stream has no length")
    let title = StreamNews.title(StreamTitle(raw: "Ada - Same"))
    XCTAssertEqual(told.all.prefix(2), [.live, title])
    // The server closes after the file: the source connects again, and the audio goes on
    // with the file from its start; the same title is told again for the new connection.
    let next = try read(source, at: size, count: 20_000)
    XCTAssertEqual(next, expected(0, 20_000))
    let news = told.all
    XCTAssertEqual(
      news.first { if case .reconnecting = $0 { return true } else { return false } },
      .reconnecting(reason: "the server ended the stream", retryIn: 0.5))
    let back = try XCTUnwrap(news.firstIndex(of: .reconnected))
    XCTAssertTrue(news[back...].contains(title), "\(news)")
    XCTAssertEqual(news.filter { $0 == title }.count, 2, "\(news)")
    // Ahead of the reader the stream keeps at most its 4 MiB read-ahead (the server goes on
    // sending the file again and again); behind it, at most 256 KiB. Holding what was read
    // (2 MiB and more) would pass 6 MiB.
    XCTAssertLessThan(
      source.bufferedCount, (4 << 20) + (1 << 20), "what lies behind the reader is let go")
  }
}
