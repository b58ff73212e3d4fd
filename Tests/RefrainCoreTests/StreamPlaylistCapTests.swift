import Foundation
import XCTest

@testable import RefrainCore

/// A playlist longer than Refrain reads: whole lines only, at most 10,000 entries, and one
/// line saying so.
final class StreamPlaylistCapTests: XCTestCase {
  private let file = URL(fileURLWithPath: "/music/big.m3u")

  /// `count` lines `/music/dir/track-NNNNNN.mp3`, each 28 bytes with its newline.
  private func m3u(_ count: Int) -> [UInt8] {
    Array((1...count).map { String(format: "/music/dir/track-%06d.mp3\n", $0) }.joined().utf8)
  }

  func testAShortPlaylistIsReadWhole() throws {
    let listing = try StreamPlaylist.listing(of: m3u(3), base: file)
    XCTAssertEqual(listing.entries.map(\.path).last, "/music/dir/track-000003.mp3")
    XCTAssertFalse(listing.isCut)
    XCTAssertNil(listing.capNotice(name: "big.m3u"))
  }

  func testOneHundredThousandLinesStopAtTheEntryCapWithWholeEntries() throws {
    let bytes = m3u(100_000)
    let listing = try StreamPlaylist.listing(
      of: Array(bytes.prefix(StreamPlaylist.maxBytes + 1)), base: file)
    XCTAssertEqual(listing.entries.count, 10_000)
    XCTAssertEqual(listing.entries.last?.path, "/music/dir/track-010000.mp3")
    XCTAssertTrue(listing.isCut)
    let notice = try XCTUnwrap(listing.capNotice(name: "big.m3u"))
    XCTAssertFalse(notice.contains("\n"))
    XCTAssertTrue(notice.contains("10000 entries"), notice)
    XCTAssertTrue(notice.contains("1 MiB"), notice)
  }

  func testAByteCapThatFallsMidLineDropsThatLine() throws {
    // 294-byte lines (with the newline): 1 MiB holds 3,566 of them and a part of the next.
    let long = String(repeating: "x", count: 280)
    let text = (1...5000).map { "/m/\(long)-\(String(format: "%05d", $0)).mp3" }
      .joined(separator: "\n")
    let bytes = Array(text.utf8)
    let listing = try StreamPlaylist.listing(
      of: Array(bytes.prefix(StreamPlaylist.maxBytes + 1)), base: file)
    XCTAssertTrue(listing.isCut)
    let last = try XCTUnwrap(listing.entries.last?.lastPathComponent)
    XCTAssertTrue(last.hasSuffix(".mp3"), "a partial last line: \(last)")
    XCTAssertEqual(listing.entries.count, 3_566)
  }

  func testAPlaylistOfExactlyTheCapIsNotCut() throws {
    let listing = try StreamPlaylist.listing(of: m3u(10_000), base: file)
    XCTAssertEqual(listing.entries.count, 10_000)
    XCTAssertFalse(listing.isCut)
  }
}
