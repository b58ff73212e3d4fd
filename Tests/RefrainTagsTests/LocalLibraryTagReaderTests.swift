import Foundation
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainTags

/// The pure-Swift ID3 reader and duration estimate the local library scanner uses.
final class LocalLibraryTagReaderTests: XCTestCase {
  private let reader = ID3TagReader()

  private func write(_ bytes: [UInt8], name: String = "file.mp3") throws -> String {
    let folder = TestMedia.folder("id3-reader")
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
  }

  // MARK: - Generated fixtures (tags written by scripts/make-test-fixtures)

  func testReadsAnID3v23TagInUTF16() throws {
    let info = try reader.readTags(atPath: try TestMedia.generated("tags-v23.mp3"))
    XCTAssertEqual(info.title, "비 오는 날")
    XCTAssertEqual(info.artist, "리프레인")
    XCTAssertEqual(info.album, "첫 앨범")
    XCTAssertEqual(info.trackNumber, 3)
    XCTAssertEqual(info.year, 2024)
    XCTAssertEqual(try XCTUnwrap(info.duration), 3, accuracy: 0.1)
  }

  func testTheStampIsTheOpenFilesSizeAndModificationTime() throws {
    let path = try TestMedia.generated("tags-v24.mp3")
    let (info, stamp) = try reader.readStampedTags(atPath: path)
    XCTAssertEqual(info, try reader.readTags(atPath: path))
    XCTAssertEqual(stamp, FileStamp.of(path: path))
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber
    XCTAssertEqual(stamp?.size, size?.int64Value)
  }

  func testReadsAnID3v24TagInUTF8() throws {
    let info = try reader.readTags(atPath: try TestMedia.generated("tags-v24.mp3"))
    XCTAssertEqual(info.title, "비 오는 날")
    XCTAssertEqual(info.artist, "리프레인")
    XCTAssertEqual(info.album, "첫 앨범")
    XCTAssertEqual(info.trackNumber, 3)
    XCTAssertEqual(info.year, 2024)
  }

  func testDurationsFromInfoHeadersMatchTheDecoder() throws {
    // Lengths as `soxi -D` (libmad, full decode) reports them.
    let expected = [
      "tone440.mp3": 6.06, "cbr.mp3": 30.069, "mono22k.mp3": 5.095, "mpeg2-16k.mp3": 3.132,
    ]
    for (name, seconds) in expected {
      let info = try reader.readTags(atPath: try TestMedia.generated(name))
      XCTAssertEqual(try XCTUnwrap(info.duration, name), seconds, accuracy: 0.06, name)
      XCTAssertNil(info.title, name)
    }
  }

  func testVariableBitrateWithoutAFrameCountIsTimedByItsFrames() throws {
    // 30 s of tones, 25 ms of encoder delay and the last frame's padding: no decoder needed.
    let info = try reader.readTags(atPath: try TestMedia.generated("vbr-noxing.mp3"))
    XCTAssertEqual(try XCTUnwrap(info.duration), 30.05, accuracy: 0.06)
  }

  func testFilesWithoutAudioFail() throws {
    XCTAssertThrowsError(
      try reader.readTags(atPath: try TestMedia.generated("notmp3.mp3")))
    XCTAssertThrowsError(
      try reader.readTags(atPath: try TestMedia.generated("empty.mp3")))
    XCTAssertThrowsError(try reader.readTags(atPath: "/nonexistent/file.mp3"))
  }

  // MARK: - Hand-made tags

  func testID3v22ThreeLetterFrames() throws {
    func frame22(_ id: String, _ text: String) -> [UInt8] {
      let payload = [0] + Array(text.utf8)
      return Array(id.utf8) + [0, 0, UInt8(payload.count)] + payload
    }
    let frames = frame22("TT2", "Old Tag") + frame22("TP1", "Artist") + frame22("TRK", "7")
    let path = try write(
      ID3Fixture.tag(version: 2, frames: frames) + ID3Fixture.cbrFrames(10))
    let info = try reader.readTags(atPath: path)
    XCTAssertEqual(info.title, "Old Tag")
    XCTAssertEqual(info.artist, "Artist")
    XCTAssertEqual(info.trackNumber, 7)
  }

  func testUnsynchronisedV23Tag() throws {
    // The Latin-1 title "AÿB" holds FF; v2.3 unsynchronisation stores it as FF 00 after the
    // frame was built, so the frame size still counts 4 bytes.
    let frame = ID3Fixture.frame("TIT2", [0, 0x41, 0xFF, 0x42], version: 3)
    let frames = Array(frame.prefix(13)) + [0x00, 0x42]
    let path = try write(
      ID3Fixture.tag(version: 3, flags: 0x80, frames: frames)
        + ID3Fixture.cbrFrames(10))
    XCTAssertEqual(try reader.readTags(atPath: path).title, "AÿB")
  }

  func testV24DataLengthIndicatorAndUTF16BigEndian() throws {
    let text = "夜空"
    let utf16 = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    let payload: [UInt8] = [0, 0, 0, UInt8(utf16.count + 1)] + [2] + utf16
    let frames =
      ID3Fixture.frame("TIT2", payload, version: 4, flags: [0, 0x01])
      + ID3Fixture.frame("TDRC", [3] + Array("2019-05-01".utf8), version: 4)
    let path = try write(
      ID3Fixture.tag(version: 4, frames: frames) + ID3Fixture.cbrFrames(10))
    let info = try reader.readTags(atPath: path)
    XCTAssertEqual(info.title, "夜空")
    XCTAssertEqual(info.year, 2019)
  }

  func testAlbumArtistAndMultipleValuesTakeTheFirstString() throws {
    let frames =
      ID3Fixture.frame("TPE1", [3] + Array("One\u{0}Two".utf8), version: 4)
      + ID3Fixture.frame("TPE2", [3] + Array("Various Artists".utf8), version: 4)
    let path = try write(
      ID3Fixture.tag(version: 4, frames: frames) + ID3Fixture.cbrFrames(10))
    let info = try reader.readTags(atPath: path)
    XCTAssertEqual(info.artist, "One")
    XCTAssertEqual(info.albumArtist, "Various Artists")
  }

  func testID3v1AtTheEnd() throws {
    func field(_ text: String, _ size: Int) -> [UInt8] {
      Array(text.utf8) + [UInt8](repeating: 0, count: size - text.utf8.count)
    }
    let v1 =
      Array("TAG".utf8) + field("Old Song", 30) + field("Old Band", 30) + field("Old LP", 30)
      + field("1999", 4) + field("", 28) + [0, 4, 255]
    let path = try write(ID3Fixture.cbrFrames(20) + v1)
    let info = try reader.readTags(atPath: path)
    XCTAssertEqual(info.title, "Old Song")
    XCTAssertEqual(info.artist, "Old Band")
    XCTAssertEqual(info.album, "Old LP")
    XCTAssertEqual(info.year, 1999)
    XCTAssertEqual(info.trackNumber, 4)
    // The tag is not counted as audio: 20 frames of 417 bytes at 128 kbps.
    XCTAssertEqual(try XCTUnwrap(info.duration), 20 * 417 * 8 / 128_000, accuracy: 0.001)
  }

  func testNoTagsAtAllStillFindsTheAudio() throws {
    let path = try write(ID3Fixture.cbrFrames(100))
    let info = try reader.readTags(atPath: path)
    XCTAssertEqual(info, LocalTrackInfo(duration: 100 * 417 * 8 / 128_000))
  }

  func testATagLongerThanTheFileDoesNotCrash() throws {
    var bytes = ID3Fixture.tag(
      version: 3, frames: ID3Fixture.frame("TIT2", [0] + Array("Cut".utf8), version: 3))
    bytes[9] = 0x7F  // Claims 127 more bytes than there are.
    let path = try write(bytes + ID3Fixture.cbrFrames(1))
    XCTAssertThrowsError(try reader.readTags(atPath: path))
  }

  func testAFrameSizeBeyondTheTagEndsTheParseQuietly() throws {
    let good = ID3Fixture.frame("TIT2", [0] + Array("Kept".utf8), version: 3)
    let broken = Array("TPE1".utf8) + [0x7F, 0xFF, 0xFF, 0xFF, 0, 0, 0]
    let path = try write(
      ID3Fixture.tag(version: 3, frames: good + broken) + ID3Fixture.cbrFrames(10))
    let info = try reader.readTags(atPath: path)
    XCTAssertEqual(info.title, "Kept")
    XCTAssertNil(info.artist)
  }

  func testRandomBytesNeverCrashTheParser() throws {
    // Seeded, so a failure names bytes that can be made again.
    var random = SeededRandom(seed: 0x1D3)
    var estimated = 0
    for _ in 0..<200 {
      let body = (0..<Int.random(in: 0..<600, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
      _ = ID3v2Tag(
        bytes: [
          0x49, 0x44, 0x33, UInt8.random(in: 2...4, using: &random), 0,
          UInt8.random(in: 0...255, using: &random), 0, 0, 4, 0,
        ] + body)
      if let estimate = MPEGDurationEstimator.estimate(body, baseOffset: 0, audioEnd: body.count) {
        estimated += 1
        XCTAssertTrue((0..<max(1, body.count)).contains(estimate.firstFrame))
        if let duration = estimate.duration {
          XCTAssertTrue(duration.isFinite && duration >= 0, "duration \(duration)")
        }
      }
    }
    XCTAssertLessThan(estimated, 200, "random bytes are not all taken for audio")
  }
}
