import Foundation
import RefrainAudio
import RefrainCatalog
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainTags

/// `refrain scan` over a folder of every format, made by the real encoders, beside files it
/// must skip: each skipped file is named with a reason a user understands, in a real SQLite
/// library, and a rescan names them again without reading them.
final class ScanSkipReasonTests: XCTestCase {
  private var folder: URL!
  private var music: URL!

  override func setUpWithError() throws {
    folder = TestMedia.folder("scan-reasons-\(UUID().uuidString.prefix(8))")
    music = folder.appendingPathComponent("Music", isDirectory: true)
    try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
    func path(_ name: String) -> String { music.appendingPathComponent(name).path }
    let tone = folder.appendingPathComponent("tone.wav").path
    TestMedia.run(
      "sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", tone, "synth", "1", "sine", "440"])
    TestMedia.run("flac", ["-s", "-f", "-T", "TITLE=Flac Song", "-o", path("song.flac"), tone])
    TestMedia.run("opusenc", ["--quiet", "--title", "Opus Song", tone, path("song.opus")])
    TestMedia.run(
      "ffmpeg",
      [
        "-nostdin", "-loglevel", "error", "-y", "-i", tone, "-c:a", "aac", "-metadata",
        "title=M4A Song", path("song.m4a"),
      ])
    TestMedia.run(
      "ffmpeg",
      [
        "-nostdin", "-loglevel", "error", "-y", "-i", tone, "-c:a", "libmp3lame", "-metadata",
        "title=MP3 Song", path("song.mp3"),
      ])
    TestMedia.run("sox", [tone, path("song.wav")])
    // Apple Lossless in an M4A: indexed by its tags, and said not to play.
    TestMedia.run(
      "ffmpeg",
      ["-nostdin", "-loglevel", "error", "-y", "-i", tone, "-c:a", "alac", path("lossless.m4a")])
    // AIFF, a format Refrain does not play, made by sox.
    TestMedia.run("sox", [tone, path("song.aiff")])
    // A DSD stream file's header ("DSD " chunk, 28 bytes) and a little more.
    try Data(Array("DSD ".utf8) + [28] + Array(repeating: 0, count: 59)).write(
      to: URL(fileURLWithPath: path("one-bit.dsf")))
    // A FLAC cut inside its STREAMINFO block.
    let flac = try Data(
      contentsOf: URL(fileURLWithPath: try TestMedia.path("song.flac", in: music)))
    try flac.prefix(20).write(to: URL(fileURLWithPath: path("cut.flac")))
    // Text under an audio name, an empty file, and a link to nothing.
    try Data("shopping list\n".utf8).write(to: URL(fileURLWithPath: path("notes.mp3")))
    try Data().write(to: URL(fileURLWithPath: path("empty.ogg")))
    try FileManager.default.createSymbolicLink(
      atPath: path("gone.flac"), withDestinationPath: "nowhere.flac")
    // Files that are not audio by name: never reported.
    try Data("words\n".utf8).write(to: URL(fileURLWithPath: path("readme.txt")))
    try Data("[00:01.00]a line\n".utf8).write(to: URL(fileURLWithPath: path("song.lrc")))
    TestMedia.run("convert", ["-size", "4x4", "xc:red", path("cover.jpg")])
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  private func scanner() throws -> LocalLibraryScanner {
    let store = try LibraryStore(fileURL: folder.appendingPathComponent("library.sqlite"))
    return LocalLibraryScanner(store: store, tagReader: AudioTagReader(), batchSize: 4)
  }

  private func path(_ name: String) -> String { music.appendingPathComponent(name).path }

  /// The skipped files as `reason: names`, in report order.
  private func reasons(_ summary: ScanSummary) -> [String] {
    summary.skippedByReason.map { reason, files in
      "\(reason): "
        + files.map { URL(fileURLWithPath: $0.path).lastPathComponent }.joined(separator: " ")
    }
  }

  private let expectedReasons = [
    "unsupported format (AIFF): song.aiff",
    "unsupported format (DSD): one-bit.dsf",
    "unreadable (no such file or directory): gone.flac",
    "damaged: cut.flac",
    "not audio: notes.mp3",
    "empty file: empty.ogg",
  ]

  func testEveryFileWithAnAudioNameIsIndexedOrNamedWithItsReason() throws {
    for name in [
      "song.flac", "song.opus", "song.m4a", "song.mp3", "song.wav", "song.aiff", "lossless.m4a",
    ] {
      _ = try TestMedia.path(name, in: music)
    }
    let summary = try scanner().scan(folders: [music.path])
    XCTAssertEqual(summary.added, 6, "FLAC, Opus, M4A (AAC and ALAC), MP3 and WAV are indexed")
    XCTAssertEqual(
      summary.unplayable,
      [
        SkippedFile(
          path: path("lossless.m4a"), reason: .unsupportedFormat("ALAC"),
          message: AudioError.unsupportedCodec(name: path("lossless.m4a"), codec: "ALAC")
            .description)
      ])
    XCTAssertEqual(
      summary.unplayableReport(),
      [
        "indexed, but not playable yet: 1 file",
        "    \(path("lossless.m4a")) holds ALAC audio, which Refrain cannot decode yet: "
          + "convert it to FLAC, Opus, AAC or MP3 to play it",
      ])
    XCTAssertEqual(summary.failed, 6)
    XCTAssertEqual(reasons(summary), expectedReasons)
    let messages = Dictionary(uniqueKeysWithValues: summary.skipped.map { ($0.path, $0.message) })
    // The decoders' own words.
    XCTAssertEqual(
      messages[path("one-bit.dsf")],
      AudioError.unsupportedCodec(name: path("one-bit.dsf"), codec: "DSD").description)
    XCTAssertEqual(
      messages[path("one-bit.dsf")],
      "\(path("one-bit.dsf")) holds DSD audio, which Refrain cannot decode yet: "
        + "convert it to FLAC, Opus, AAC or MP3 to play it")
    XCTAssertEqual(
      messages[path("cut.flac")],
      "\(path("cut.flac")) is not playable FLAC audio (no stream information in the file's headers)"
    )
    XCTAssertEqual(
      messages[path("notes.mp3")],
      "\(path("notes.mp3")) is not audio: no format Refrain plays starts it, and it holds no MP3 frames"
    )
    XCTAssertEqual(messages[path("empty.ogg")], "\(path("empty.ogg")) is empty: nothing to play")
    XCTAssertEqual(
      messages[path("gone.flac")], "cannot read \(path("gone.flac")): No such file or directory")

    XCTAssertEqual(
      summary.skippedReport(examples: 1).prefix(5),
      [
        "skipped 6 files:",
        "  unsupported format (AIFF): 1 file",
        "    " + AudioError.unsupportedCodec(name: path("song.aiff"), codec: "AIFF").description,
        "  unsupported format (DSD): 1 file",
        "    " + AudioError.unsupportedCodec(name: path("one-bit.dsf"), codec: "DSD").description,
      ])
  }

  func testARescanNamesTheSkippedFilesAgainWithoutReadingThem() throws {
    let first = try scanner().scan(folders: [music.path])
    XCTAssertEqual(first.skipped.count, 6)
    let again = try scanner().scan(folders: [music.path])
    XCTAssertEqual([again.added, again.updated, again.removed], [0, 0, 0])
    // The dangling link is found unreadable by the walk again; the others are remembered.
    XCTAssertEqual(again.failed, 1)
    XCTAssertEqual(again.unchanged, 11)
    XCTAssertEqual(again.unplayable, [], "only the scan that reads a file says it will not play")
    XCTAssertEqual(reasons(again), expectedReasons, "the reasons stored with the failures")
    XCTAssertEqual(Set(again.skipped), Set(first.skipped))

    // A damaged file mended is indexed by the next rescan.
    try FileManager.default.removeItem(atPath: path("cut.flac"))
    try FileManager.default.copyItem(atPath: path("song.flac"), toPath: path("cut.flac"))
    let mended = try scanner().scan(folders: [music.path])
    XCTAssertEqual(mended.added, 1)
    XCTAssertFalse(mended.skipped.contains { $0.path == path("cut.flac") })
  }

  func testAFileThatCannotBeOpenedIsReadAgainOnceItsPermissionsChange() throws {
    let locked = path("locked.mp3")
    try FileManager.default.copyItem(atPath: path("song.mp3"), toPath: locked)
    XCTAssertEqual(chmod(locked, 0), 0)
    defer { chmod(locked, 0o644) }
    let first = try scanner().scan(folders: [music.path])
    if geteuid() == 0 {
      // root opens any file whatever its mode: the file is indexed, as it would be played.
      XCTAssertTrue(FileManager.default.isReadableFile(atPath: locked), "root reads mode 000")
      XCTAssertEqual(first.added, 7)
      XCTAssertFalse(first.skipped.contains { $0.path == locked })
      return
    }
    XCTAssertEqual(first.added, 6)
    XCTAssertEqual(
      first.skipped.first { $0.path == locked }?.reason, .unreadable("permission denied"))
    XCTAssertEqual(
      first.skipped.first { $0.path == locked }?.message,
      "cannot read \(locked): Permission denied")
    // chmod changes no modification time; the rescan reads the file again all the same.
    XCTAssertEqual(chmod(locked, 0o644), 0)
    let again = try scanner().scan(folders: [music.path])
    XCTAssertEqual(again.added, 1)
    XCTAssertFalse(again.skipped.contains { $0.path == locked })
  }
}
