import RefrainCore
import XCTest

@testable import RefrainAudio

/// The ICY metadata split from a stream's audio, and the `StreamTitle` read from a block:
/// blocks split across reads, zero-length blocks, padding, hostile titles.
final class ICYDemuxerTests: XCTestCase {
  /// A stream of `audio` with `interval` = 4 and the given blocks (text, or nil for a
  /// zero-length block) after each 4 audio bytes.
  private func stream(audio: [UInt8], blocks: [String?]) -> [UInt8] {
    var out: [UInt8] = []
    for (index, block) in blocks.enumerated() {
      out += audio[index * 4..<index * 4 + 4]
      guard let block else {
        out.append(0)
        continue
      }
      var bytes = Array(block.utf8)
      let length = (bytes.count + 15) / 16
      bytes += [UInt8](repeating: 0, count: length * 16 - bytes.count)
      out.append(UInt8(length))
      out += bytes
    }
    return out
  }

  private let audio: [UInt8] = Array(1...12)

  // MARK: - Splitting

  func testAudioComesOutWithoutMetadataAndBlocksWithTheirText() {
    let bytes = stream(
      audio: audio, blocks: ["StreamTitle='A - B';", nil, "StreamTitle='C';StreamUrl='';"])
    var demuxer = ICYDemuxer(interval: 4)
    let (out, blocks) = demuxer.feed(bytes)
    XCTAssertEqual(out, audio)
    XCTAssertEqual(
      blocks,
      [
        .init(audioBefore: 4, text: "StreamTitle='A - B';"),
        .init(audioBefore: 12, text: "StreamTitle='C';StreamUrl='';"),
      ])
  }

  func testABlockSplitAcrossReadsOfEverySizeGivesTheSameResult() {
    let bytes = stream(audio: audio, blocks: ["StreamTitle='Split across reads';", nil, nil])
    for size in 1...bytes.count {
      var demuxer = ICYDemuxer(interval: 4)
      var out: [UInt8] = []
      var texts: [String] = []
      var start = 0
      while start < bytes.count {
        let (part, blocks) = demuxer.feed(bytes[start..<min(bytes.count, start + size)])
        out += part
        texts += blocks.map(\.text)
        start += size
      }
      XCTAssertEqual(out, audio, "reads of \(size)")
      XCTAssertEqual(texts, ["StreamTitle='Split across reads';"], "reads of \(size)")
    }
  }

  func testZeroLengthBlocksGiveNothing() {
    var demuxer = ICYDemuxer(interval: 4)
    let (out, blocks) = demuxer.feed(stream(audio: audio, blocks: [nil, nil, nil]))
    XCTAssertEqual(out, audio)
    XCTAssertEqual(blocks, [])
  }

  func testTheLengthByteCountsSixteenBytes() {
    // Length 2: 32 bytes of block, the title taking 20 of them.
    var demuxer = ICYDemuxer(interval: 2)
    var bytes: [UInt8] = [9, 9, 2] + Array("StreamTitle='0123';".utf8)
    bytes += [UInt8](repeating: 0, count: 32 - 19) + [7, 7]
    let (out, blocks) = demuxer.feed(bytes)
    XCTAssertEqual(out, [9, 9, 7, 7])
    XCTAssertEqual(blocks.map(\.text), ["StreamTitle='0123';"])
  }

  func testLatin1BlocksAreRead() {
    XCTAssertEqual(ICYDemuxer.text([0x42, 0x6A, 0xF6, 0x72, 0x6B, 0, 0]), "Björk")
  }

  // MARK: - StreamTitle

  func testTheTitleEndsAtTheQuoteBeforeTheSemicolon() {
    XCTAssertEqual(
      ICYDemuxer.streamTitle(in: "StreamTitle='Guns N' Roses - Don't Cry';StreamUrl='x';"),
      "Guns N' Roses - Don't Cry")
    XCTAssertEqual(ICYDemuxer.streamTitle(in: "StreamTitle='No semicolon'"), "No semicolon")
  }

  func testNoTitleOrAnEmptyOneIsNil() {
    XCTAssertNil(ICYDemuxer.streamTitle(in: "StreamUrl='http://127.0.0.1/';"))
    XCTAssertNil(ICYDemuxer.streamTitle(in: "StreamTitle='';"))
    XCTAssertNil(ICYDemuxer.streamTitle(in: "StreamTitle='  ';"))
  }

  func testHostileTitlesLoseTheirEscapeSequences() {
    let hostile = "StreamTitle='\u{1B}]52;c;aGVsbG8=\u{07}Evil\u{1B}[2J - \u{1B}[31mRed\u{202E}\n';"
    XCTAssertEqual(ICYDemuxer.streamTitle(in: hostile), "Evil - Red")
  }

  // MARK: - Artist and title

  func testArtistAndTitleAreSplitOnTheFirstDash() {
    let title = StreamTitle(raw: "Björk - Jóga - Live")
    XCTAssertEqual(title.artist, "Björk")
    XCTAssertEqual(title.title, "Jóga - Live")
    XCTAssertEqual(title.raw, "Björk - Jóga - Live")
  }

  func testATitleWithoutDashHasNoArtist() {
    let title = StreamTitle(raw: "Station jingle")
    XCTAssertNil(title.artist)
    XCTAssertEqual(title.title, "Station jingle")
    XCTAssertEqual(StreamTitle(raw: "A-Ha").title, "A-Ha")
  }
}
