import Foundation
import XCTest

@testable import RefrainAudio

/// The decoder is chosen from a file's first bytes, never from its name: an MP3 named
/// `.flac` plays, and a FLAC file named `.mp3` is named for what it is.
final class AudioDecodersTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-decoders-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  func testMP3IsRecognisedByItsTagOrItsFrameHeader() {
    XCTAssertTrue(MP3Decoder.recognizes(Array("ID3".utf8) + [3, 0, 0]))
    XCTAssertTrue(MP3Decoder.recognizes([0xFF, 0xFB, 0x90, 0x64]))  // MPEG-1 layer III, 128k
    XCTAssertFalse(MP3Decoder.recognizes([0xFF, 0xFB, 0xF0, 0x64]), "a bad bitrate index")
    XCTAssertFalse(MP3Decoder.recognizes(Array("fLaC".utf8)))
    XCTAssertFalse(MP3Decoder.recognizes([]))
  }

  func testFormatNamesComeFromTheHead() {
    XCTAssertEqual(AudioDecoders.formatName(ofHead: Array("ID3".utf8) + [3, 0, 0]), "MP3")
    XCTAssertEqual(AudioDecoders.formatName(ofHead: Array("fLaC".utf8)), "FLAC")
    XCTAssertEqual(AudioDecoders.formatName(ofHead: Array("OggS".utf8)), "Ogg")
    XCTAssertEqual(
      AudioDecoders.formatName(ofHead: Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8)),
      "WAV")
    XCTAssertEqual(AudioDecoders.formatName(ofHead: [0, 0, 0, 32] + Array("ftypM4A ".utf8)), "M4A")
    XCTAssertEqual(AudioDecoders.formatName(ofHead: Array("junk".utf8)), "MP3", "junk: MP3's")
  }

  func testAnMP3WithAnotherNameIsDecodedAsMP3() throws {
    let renamed = folder.appendingPathComponent("steps.flac")
    try FileManager.default.copyItem(
      at: URL(fileURLWithPath: try Fixtures.path("steps.mp3")), to: renamed)
    let decoder = try AudioDecoders.open(path: renamed.path)
    XCTAssertTrue(decoder is MP3Decoder)
    var buffer = [UInt8](repeating: 0, count: 4096)
    let read = try buffer.withUnsafeMutableBytes {
      try decoder.read(into: $0, shouldStop: { false })
    }
    XCTAssertGreaterThan(read, 0, "no audio decoded")
    XCTAssertEqual(decoder.gaplessTrim.start, 0)
  }

  func testAFormatWithoutADecoderIsNamedInTheError() throws {
    let cases: [(String, [UInt8])] = [
      ("DSD", Array("DSD ".utf8) + [28, 0, 0, 0]),
      ("WMA", [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]),
      ("Monkey's Audio", Array("MAC ".utf8) + [0x96, 0x0F]),
      ("WavPack", Array("wvpk".utf8) + [0, 0, 0, 0]),
    ]
    for (name, bytes) in cases {
      let file = folder.appendingPathComponent("song.mp3")
      try Data(bytes + [UInt8](repeating: 0, count: 256)).write(to: file)
      XCTAssertThrowsError(try AudioDecoders.open(path: file.path), name) { error in
        XCTAssertTrue(
          "\(error)".contains("\(name) audio, which Refrain cannot decode yet"), "\(error)")
      }
    }
  }
}
