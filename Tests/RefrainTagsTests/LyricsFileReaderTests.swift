import Foundation
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainTags

/// What `refrain lyrics FILE` reads, chosen by the file's first bytes: an audio file's
/// embedded lyrics, never its bytes parsed as LRC.
final class LyricsFileReaderTests: XCTestCase {
  private static let folder: URL = {
    let folder = TestMedia.folder("lyrics-file-reader")
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    TestMedia.run(
      "sox",
      ["-n", "-r", "44100", "-c", "1", "-b", "16", path("tone.wav"), "synth", "1", "sine", "440"])
    TestMedia.run("flac", ["-s", "-f", "-o", path("sung.flac"), path("tone.wav")])
    TestMedia.run(
      "metaflac", ["--set-tag=LYRICS=[00:00.50]우산 하나에\n[00:01.00]둘이 걸어요", path("sung.flac")])
    TestMedia.run("flac", ["-s", "-f", "-o", path("silent.flac"), path("tone.wav")])
    TestMedia.run(
      "opusenc",
      ["--quiet", "--comment", "UNSYNCEDLYRICS=plain words", path("tone.wav"), path("plain.opus")])
    return folder
  }()

  override class func tearDown() {
    try? FileManager.default.removeItem(at: folder)
    super.tearDown()
  }

  private func url(_ name: String) throws -> URL {
    URL(fileURLWithPath: try TestMedia.path(name, in: Self.folder))
  }

  func test_aFLACWithLyricsGivesItsEmbeddedLyrics() throws {
    guard case .embedded(let document, let format) = try LyricsFileReader.read(url("sung.flac"))
    else { return XCTFail("a FLAC file is read by its tags") }
    XCTAssertEqual(format, .flac)
    XCTAssertEqual(document.lines.map(\.text), ["우산 하나에", "둘이 걸어요"])
    XCTAssertEqual(document.lines.map(\.ms), [500, 1000])
  }

  func test_plainLyricsInOpusComments() throws {
    guard case .embedded(let document, .opus) = try LyricsFileReader.read(url("plain.opus"))
    else { return XCTFail("an Opus file is read by its tags") }
    XCTAssertEqual(document.lines.map(\.text), ["plain words"])
    XCTAssertFalse(document.isSynced)
  }

  func test_audioWithoutLyricsSaysSoAndIsNeverParsedAsLRC() throws {
    guard case .noEmbeddedLyrics(.flac) = try LyricsFileReader.read(url("silent.flac")) else {
      return XCTFail("a FLAC file without lyrics has none")
    }
    guard case .noEmbeddedLyrics(.wav) = try LyricsFileReader.read(url("tone.wav")) else {
      return XCTFail("a WAV file is audio")
    }
  }

  func test_aLyricsFileIsParsed() throws {
    let file = Self.folder.appendingPathComponent("song.lrc")
    try Data("[00:01.00]first\n[00:02.00]second\n".utf8).write(to: file)
    guard case .lyricsFile(let document) = try LyricsFileReader.read(file) else {
      return XCTFail("an .lrc file is lyrics")
    }
    XCTAssertEqual(document.lines.map(\.text), ["first", "second"])
  }

  func test_aMissingFileIsAnError() {
    XCTAssertThrowsError(
      try LyricsFileReader.read(Self.folder.appendingPathComponent("missing.lrc")))
  }
}
