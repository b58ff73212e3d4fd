import Foundation
import XCTest

@testable import RefrainCore
@testable import RefrainTags

/// Tests of the local sources: the sidecar `.lrc` file and the embedded USLT/SYLT tags.
final class LyricsSourcesLocalTests: XCTestCase {
  private var folder = URL(fileURLWithPath: "/nonexistent")

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-local-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDown() {
    try? FileManager.default.removeItem(at: folder)
  }

  /// Writes `text` to `name` in the test folder and returns its URL.
  @discardableResult
  private func write(_ name: String, _ text: String) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url
  }

  // MARK: - Sidecar

  func test_sidecar_findsAnUppercaseExtension() async throws {
    let audio = try write("Song.mp3", "")
    try write("Song.LRC", "[00:01.00]hello\n[00:02.50]world")
    let result = try await SidecarLyricsSource().lyrics(
      for: LyricsQuery(title: "Song", fileURL: audio))
    let document = try XCTUnwrap(result.document)
    XCTAssertEqual(result.source, .sidecar)
    XCTAssertTrue(document.isSynced)
    XCTAssertEqual(document.lines.map(\.ms), [1000, 2500])
  }

  func test_sidecar_missing_saysSo() async throws {
    let audio = try write("Alone.mp3", "")
    try write("Other.lrc", "[00:01.00]not mine")
    let result = try await SidecarLyricsSource().lyrics(
      for: LyricsQuery(title: "Alone", fileURL: audio))
    XCTAssertEqual(result, .notFound(reasons: ["no .lrc next to the file"]))
  }

  func test_sidecar_forAStream_saysSo() async throws {
    let stream = try XCTUnwrap(URL(string: "http://127.0.0.1:9/song.mp3"))
    let result = try await SidecarLyricsSource().lyrics(
      for: LyricsQuery(title: "Song", fileURL: stream))
    XCTAssertEqual(result, .notFound(reasons: ["not a local file, so no .lrc next to it"]))
  }

  func test_sidecar_withoutLines_isNotFound() async throws {
    let audio = try write("Empty.mp3", "")
    try write("Empty.lrc", "[ar:Nobody]\n")
    let result = try await SidecarLyricsSource().lyrics(
      for: LyricsQuery(title: "Empty", fileURL: audio))
    XCTAssertEqual(result.reasons, ["the .lrc next to the file has no lyric lines"])
  }

  func test_queryFromATrack_usesOnlyFileLocations() throws {
    let file = Track(id: "a", location: folder.appendingPathComponent("a.mp3"), title: "A")
    XCTAssertEqual(LyricsQuery(track: file).fileURL, file.location)
    let stream = Track(
      id: "b", location: try XCTUnwrap(URL(string: "http://127.0.0.1:9/b.mp3")), title: "B",
      artist: "Band", album: "Album", duration: 12.5)
    let query = LyricsQuery(track: stream)
    XCTAssertNil(query.fileURL)
    XCTAssertEqual(query.artist, "Band")
    XCTAssertEqual(query.duration, 12.5)
  }

  // MARK: - Embedded

  private func embedded(
    text: String? = nil, synced: [(ms: Int, text: String)]? = nil
  ) async throws -> LyricsResult {
    try await EmbeddedLyricsSource().lyrics(
      for: LyricsQuery(title: "Song", embeddedText: text, embeddedSynced: synced))
  }

  func test_usltWrittenAsLRC_isSynced() async throws {
    let result = try await embedded(text: "[00:03.00]first\r\n[00:05.00]second")
    let document = try XCTUnwrap(result.document)
    XCTAssertEqual(result.source, .embedded)
    XCTAssertTrue(document.isSynced)
    XCTAssertEqual(document.lines.map(\.text), ["first", "second"])
  }

  func test_plainUSLT_isPlainLyrics() async throws {
    let result = try await embedded(text: "first\nsecond")
    let document = try XCTUnwrap(result.document)
    XCTAssertFalse(document.isSynced)
    XCTAssertEqual(document.lines.map(\.text), ["first", "second"])
  }

  func test_sylt_isSynced_andSorted() async throws {
    let result = try await embedded(
      text: "plain words", synced: [(ms: 2000, text: "two\n"), (ms: 1000, text: " one  ")])
    let document = try XCTUnwrap(result.document)
    XCTAssertTrue(document.isSynced)
    XCTAssertEqual(
      document.lines, [LyricLine(ms: 1000, text: "one"), LyricLine(ms: 2000, text: "two")])
  }

  func test_lrcUSLT_winsOverSYLT() async throws {
    let result = try await embedded(
      text: "[00:01.00]from uslt", synced: [(ms: 1000, text: "from sylt")])
    XCTAssertEqual(result.document?.lines.map(\.text), ["from uslt"])
  }

  func test_noTags_orBlankTags_isNotFound() async throws {
    for result in [
      try await embedded(), try await embedded(text: "  \n\n", synced: [(ms: 0, text: "")]),
    ] {
      XCTAssertEqual(result, .notFound(reasons: ["no lyrics in the file's tags"]))
    }
  }
}
