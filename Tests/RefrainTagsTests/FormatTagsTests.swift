import Foundation
import RefrainCatalog
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainTags

/// Tags, covers and lyrics of FLAC, Ogg Vorbis, Opus and WAV files made by the real tools,
/// read without decoding audio, by the file's first bytes.
final class FormatTagsTests: XCTestCase {
  /// The media, made once: a 2 s tone in each format, tagged by its own tool, and a cover.
  private static let folder: URL = {
    let folder = TestMedia.folder("format-tags")
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    TestMedia.run(
      "sox",
      ["-n", "-r", "44100", "-c", "2", "-b", "16", path("tone.wav"), "synth", "2", "sine", "440"])
    TestMedia.run("convert", ["-size", "4x4", "xc:red", path("cover.png")])
    TestMedia.run("flac", ["-s", "-f", "-o", path("tagged.flac"), path("tone.wav")])
    TestMedia.run(
      "metaflac",
      [
        "--set-tag=TITLE=Night Ferry", "--set-tag=ARTIST=Harbor Lights", "--set-tag=ALBUM=Harbor",
        "--set-tag=ALBUMARTIST=Various", "--set-tag=TRACKNUMBER=3/12", "--set-tag=DISCNUMBER=2/2",
        "--set-tag=DATE=2024-05-01",
        "--set-tag=ISRC=GBAYE0601498", "--set-tag=LYRICS=[00:00.50]the ferry leaves",
        "--import-picture-from=3||front||\(path("cover.png"))", path("tagged.flac"),
      ])
    TestMedia.run(
      "oggenc",
      [
        "-Q", "-t", "Tide Song", "-a", "Mina", "-l", "Shore", "-N", "7", "-c", "ISRC=KRA401234567",
        "-c", "UNSYNCEDLYRICS=plain words", "-o", path("tagged.ogg"), path("tone.wav"),
      ])
    TestMedia.run(
      "opusenc",
      [
        "--quiet", "--title", "Lanterns", "--artist", "Jun", "--album", "Lights", "--comment",
        "TRACKNUMBER=2", "--picture", "3||front||\(path("cover.png"))", path("tone.wav"),
        path("tagged.opus"),
      ])
    return folder
  }()

  override class func tearDown() {
    try? FileManager.default.removeItem(at: folder)
    super.tearDown()
  }

  private func media(_ name: String) throws -> String { try TestMedia.path(name, in: Self.folder) }

  func testFLACTagsCoverAndLyrics() throws {
    let path = try media("tagged.flac")
    let info = try AudioTagReader().readTags(atPath: path)
    XCTAssertEqual(info.title, "Night Ferry")
    XCTAssertEqual(info.artist, "Harbor Lights")
    XCTAssertEqual(info.album, "Harbor")
    XCTAssertEqual(info.albumArtist, "Various")
    XCTAssertEqual(info.trackNumber, 3)
    XCTAssertEqual(info.discNumber, 2)
    XCTAssertEqual(info.year, 2024)
    XCTAssertEqual(info.isrc, "GBAYE0601498")
    XCTAssertEqual(try XCTUnwrap(info.duration), 2.0, accuracy: 0.01)
    let url = URL(fileURLWithPath: path)
    let format = try TagFormats.format(of: url)
    XCTAssertEqual(format.name, "FLAC")
    XCTAssertEqual(try format.lyrics(in: url).text, "[00:00.50]the ferry leaves")
    let cover = try format.frontCover(in: url, maxPictureBytes: 1 << 20)
    let png = try Data(contentsOf: URL(fileURLWithPath: try media("cover.png")))
    XCTAssertEqual(
      cover, .picture(EmbeddedPicture(mimeType: "image/png", pictureType: 3, data: [UInt8](png))))
    XCTAssertEqual(try format.frontCover(in: url, maxPictureBytes: 10), .tooLarge(bytes: png.count))
  }

  func testOggVorbisAndOpusTags() throws {
    let vorbis = try AudioTagReader().readTags(atPath: try media("tagged.ogg"))
    XCTAssertEqual(vorbis.title, "Tide Song")
    XCTAssertEqual(vorbis.artist, "Mina")
    XCTAssertEqual(vorbis.album, "Shore")
    XCTAssertEqual(vorbis.trackNumber, 7)
    XCTAssertEqual(vorbis.isrc, "KRA401234567")
    XCTAssertEqual(try XCTUnwrap(vorbis.duration), 2.0, accuracy: 0.01)
    let ogg = URL(fileURLWithPath: try media("tagged.ogg"))
    XCTAssertEqual(try TagFormats.format(of: ogg).lyrics(in: ogg).text, "plain words")

    let opus = try AudioTagReader().readTags(atPath: try media("tagged.opus"))
    XCTAssertEqual(opus.title, "Lanterns")
    XCTAssertEqual(opus.artist, "Jun")
    XCTAssertEqual(opus.album, "Lights")
    XCTAssertEqual(opus.trackNumber, 2)
    XCTAssertEqual(try XCTUnwrap(opus.duration), 2.0, accuracy: 0.01, "without the pre-skip")
    let url = URL(fileURLWithPath: try media("tagged.opus"))
    guard
      case .picture(let picture) = try TagFormats.format(of: url).frontCover(
        in: url, maxPictureBytes: 1 << 20)
    else { return XCTFail("the Opus file's METADATA_BLOCK_PICTURE is its cover") }
    XCTAssertEqual(picture.mimeType, "image/png")
    XCTAssertEqual(
      picture.data, [UInt8](try Data(contentsOf: URL(fileURLWithPath: try media("cover.png")))))
  }

  func testWAVInfoChunkAndAFileNamedForAnotherFormat() throws {
    // sox writes no INFO: append a LIST/INFO chunk and fix the RIFF size.
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try media("tone.wav"))))
    func field(_ id: String, _ text: String) -> [UInt8] {
      var value = Array(text.utf8) + [0]
      if value.count % 2 == 1 { value.append(0) }
      let size = UInt32(value.count)
      return Array(id.utf8) + withUnsafeBytes(of: size.littleEndian, Array.init) + value
    }
    let info =
      Array("INFO".utf8) + field("INAM", "Station") + field("IART", "Ines") + field("IPRD", "Rails")
    bytes +=
      Array("LIST".utf8) + withUnsafeBytes(of: UInt32(info.count).littleEndian, Array.init) + info
    let riffSize = UInt32(bytes.count - 8)
    bytes.replaceSubrange(4..<8, with: withUnsafeBytes(of: riffSize.littleEndian, Array.init))
    let wav = Self.folder.appendingPathComponent("tagged.mp3")  // a WAV named .mp3
    try Data(bytes).write(to: wav)
    let tags = try AudioTagReader().readTags(atPath: wav.path)
    XCTAssertEqual(tags.title, "Station")
    XCTAssertEqual(tags.artist, "Ines")
    XCTAssertEqual(tags.album, "Rails")
    XCTAssertEqual(try XCTUnwrap(tags.duration), 2.0, accuracy: 0.01)
    // A FLAC named .ogg is read as FLAC.
    let renamed = Self.folder.appendingPathComponent("really-flac.ogg")
    try? FileManager.default.removeItem(at: renamed)
    try FileManager.default.copyItem(atPath: try media("tagged.flac"), toPath: renamed.path)
    XCTAssertEqual(try AudioTagReader().readTags(atPath: renamed.path).title, "Night Ferry")
  }

  func testWAVID3ChunkGivesTagsAndCover() throws {
    // ffmpeg writes an ID3v2.3 tag with a cover into an MP3; that tag, whole, goes into the
    // WAV as an `id3 ` chunk (as other tools write it), after a LIST/INFO chunk it overrides.
    let mp3 = Self.folder.appendingPathComponent("id3-source.mp3").path
    TestMedia.run(
      "ffmpeg",
      [
        "-nostdin", "-loglevel", "error", "-y", "-i", try media("tone.wav"), "-i",
        try media("cover.png"), "-map", "0", "-map", "1", "-c:a", "libmp3lame", "-c:v", "copy",
        "-disposition:v", "attached_pic", "-metadata:s:v", "comment=Cover (front)",
        "-id3v2_version", "3", "-metadata", "title=Quay",
        "-metadata", "artist=Odile", "-metadata", "album=Docks", "-metadata", "track=4/9",
        "-metadata", "date=2019", "-metadata", "REPLAYGAIN_TRACK_GAIN=-6.20 dB", mp3,
      ])
    let source = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try media("id3-source.mp3"))))
    let tagSize = try XCTUnwrap(ID3Bytes.syncsafe(source, at: 6)) + 10
    let tag = Array(source.prefix(tagSize))
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try media("tone.wav"))))
    func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
      Array(id.utf8) + withUnsafeBytes(of: UInt32(body.count).littleEndian, Array.init) + body
        + (body.count % 2 == 1 ? [0] : [])
    }
    bytes += chunk("LIST", Array("INFO".utf8) + chunk("INAM", Array("Info Name\0".utf8)))
    bytes += chunk("id3 ", tag)
    bytes.replaceSubrange(
      4..<8, with: withUnsafeBytes(of: UInt32(bytes.count - 8).littleEndian, Array.init))
    let wav = Self.folder.appendingPathComponent("id3-chunk.wav")
    try Data(bytes).write(to: wav)

    let info = try AudioTagReader().readTags(atPath: wav.path)
    XCTAssertEqual(info.title, "Quay", "the ID3 tag wins over INFO")
    XCTAssertEqual(info.artist, "Odile")
    XCTAssertEqual(info.album, "Docks")
    XCTAssertEqual(info.trackNumber, 4)
    XCTAssertEqual(info.year, 2019)
    XCTAssertEqual(try XCTUnwrap(info.duration), 2.0, accuracy: 0.01)
    let format = try TagFormats.format(of: wav)
    XCTAssertEqual(format.name, "WAV")
    let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try media("cover.png"))))
    XCTAssertEqual(
      try format.frontCover(in: wav, maxPictureBytes: 1 << 20),
      .picture(EmbeddedPicture(mimeType: "image/png", pictureType: 3, data: png)))
    XCTAssertEqual(try format.frontCover(in: wav, maxPictureBytes: 10), .tooLarge(bytes: png.count))
    XCTAssertEqual(try format.lyrics(in: wav), EmbeddedLyrics(), "ffmpeg writes no USLT")
    XCTAssertEqual(try XCTUnwrap(TagFormats.replayGain(of: wav).trackGain), -6.2, accuracy: 1e-9)
  }

  func testWAVID3ChunkGivesItsLyrics() throws {
    // An ID3v2.3 tag holding one USLT frame (Latin-1, language "eng", no description),
    // written here byte by byte: ffmpeg writes no USLT.
    let words = Array("[00:00.50]the quay at dusk".utf8)
    let uslt = [0] + Array("eng".utf8) + [0] + words
    let frame =
      Array("USLT".utf8) + withUnsafeBytes(of: UInt32(uslt.count).bigEndian, Array.init) + [0, 0]
      + uslt
    let size = frame.count
    let tag =
      Array("ID3".utf8) + [3, 0, 0]
      + [
        UInt8(size >> 21 & 0x7F), UInt8(size >> 14 & 0x7F), UInt8(size >> 7 & 0x7F),
        UInt8(size & 0x7F),
      ]
      + frame
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try media("tone.wav"))))
    bytes +=
      Array("id3 ".utf8) + withUnsafeBytes(of: UInt32(tag.count).littleEndian, Array.init) + tag
    if tag.count % 2 == 1 { bytes.append(0) }
    bytes.replaceSubrange(
      4..<8, with: withUnsafeBytes(of: UInt32(bytes.count - 8).littleEndian, Array.init))
    let wav = Self.folder.appendingPathComponent("id3-lyrics.wav")
    try Data(bytes).write(to: wav)
    XCTAssertEqual(
      try TagFormats.format(of: wav).lyrics(in: wav).text, "[00:00.50]the quay at dusk")
    XCTAssertEqual(
      try TagFormats.format(of: wav).frontCover(in: wav, maxPictureBytes: 1 << 20), .none)
    // No text frames: the file is still indexed, by its file name.
    XCTAssertNil(try AudioTagReader().readTags(atPath: wav.path).title)
  }

  func testDamagedMetadataNeverTraps() throws {
    var generator = SeededRandom(seed: 26)
    for name in ["tagged.flac", "tagged.ogg", "tagged.opus"] {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try media(name))))
      for round in 0..<30 {
        var damaged = Array(bytes.prefix(Int(generator.next() % UInt64(min(bytes.count, 8192)))))
        for _ in 0..<8 where !damaged.isEmpty {
          damaged[Int(generator.next() % UInt64(damaged.count))] = UInt8(
            truncatingIfNeeded: generator.next())
        }
        let file = Self.folder.appendingPathComponent("damaged-\(round)-\(name)")
        try Data(damaged).write(to: file)
        _ = try? AudioTagReader().readTags(atPath: file.path)
        if let format = try? TagFormats.format(of: file) {
          _ = try? format.lyrics(in: file)
          _ = try? format.frontCover(in: file, maxPictureBytes: 1 << 20)
        }
      }
    }
  }
}
