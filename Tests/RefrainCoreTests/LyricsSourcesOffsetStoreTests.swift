import Foundation
import XCTest

@testable import RefrainCore

/// Tests of `LyricOffsetStore`: round trip, corrupt files and atomic replacement.
final class LyricsSourcesOffsetStoreTests: XCTestCase {
  private var folder = URL(fileURLWithPath: "/nonexistent")
  private var file: URL { folder.appendingPathComponent("refrain/lyric-offsets.json") }

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-offsets-\(UUID().uuidString)")
  }

  override func tearDown() {
    try? FileManager.default.removeItem(at: folder)
  }

  // MARK: - Round trip

  func test_nudgesAndSets_surviveReopening() {
    let store = LyricOffsetStore(fileURL: file)
    XCTAssertEqual(store.offset(for: "/music/a.mp3"), 0)
    XCTAssertEqual(store.nudge("/music/a.mp3", by: LyricOffsetStore.nudgeStepMs), 100)
    XCTAssertEqual(store.nudge("/music/a.mp3", by: 100), 200)
    XCTAssertEqual(store.nudge("/music/b.mp3", by: -100), -100)
    XCTAssertEqual(store.set(1500, for: "deezer:42"), 1500)
    XCTAssertNil(store.problem)

    let reopened = LyricOffsetStore(fileURL: file)
    XCTAssertEqual(reopened.offset(for: "/music/a.mp3"), 200)
    XCTAssertEqual(reopened.offset(for: "/music/b.mp3"), -100)
    XCTAssertEqual(reopened.offset(for: "deezer:42"), 1500)
    XCTAssertNil(reopened.problem)
  }

  func test_fileIsSmallSortedJSON_andZeroOffsetsAreDropped() throws {
    let store = LyricOffsetStore(fileURL: file)
    store.set(300, for: "b")
    store.set(-200, for: "a")
    store.nudge("c", by: 100)
    store.nudge("c", by: -100)
    let text = try String(contentsOf: file, encoding: .utf8)
    XCTAssertEqual(
      text.filter { !$0.isWhitespace }, #"{"offsets":{"a":-200,"b":300},"version":1}"#)
  }

  func test_offsets_areClamped() {
    let store = LyricOffsetStore(fileURL: file)
    XCTAssertEqual(store.set(Int.max, for: "x"), LyricOffsetStore.maxOffsetMs)
    XCTAssertEqual(store.nudge("x", by: Int.max), LyricOffsetStore.maxOffsetMs)
    XCTAssertEqual(store.set(Int.min, for: "x"), -LyricOffsetStore.maxOffsetMs)
  }

  // MARK: - Damaged files

  func test_corruptFile_startsEmpty_andKeepsABackup() throws {
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    let garbage = Data("{\"offsets\": {\"a\": 1".utf8)
    try garbage.write(to: file)

    let store = LyricOffsetStore(fileURL: file)
    XCTAssertEqual(store.offset(for: "a"), 0)
    XCTAssertTrue(
      store.problem?.contains("lyric-offsets.json.bak") ?? false, "\(store.problem ?? "")")
    let backup = file.appendingPathExtension("bak")
    XCTAssertEqual(try Data(contentsOf: backup), garbage)
    XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))

    store.nudge("a", by: 100)
    XCTAssertEqual(LyricOffsetStore(fileURL: file).offset(for: "a"), 100)
    XCTAssertEqual(try Data(contentsOf: backup), garbage)
  }

  func test_unwritableLocation_keepsTheValueInMemory_andReportsIt() throws {
    // A plain file where the folder should be makes every save fail.
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data().write(to: folder.appendingPathComponent("refrain"))
    let store = LyricOffsetStore(fileURL: file)
    XCTAssertEqual(store.nudge("a", by: 100), 100)
    XCTAssertEqual(store.offset(for: "a"), 100)
    XCTAssertTrue(store.problem?.hasPrefix("Could not save the lyric offset") ?? false)
  }

  // MARK: - Atomic writes

  func test_save_replacesTheFile_ratherThanRewritingIt() throws {
    let store = LyricOffsetStore(fileURL: file)
    store.set(100, for: "a")
    let before = try String(contentsOf: file, encoding: .utf8)
    let inodeBefore = try inode(file)
    // A reader holding the old file keeps seeing all of it while a save happens.
    let reader = try FileHandle(forReadingFrom: file)
    defer { try? reader.close() }

    for index in 0..<50 { store.set(index * 100 + 100, for: "track-\(index)") }

    XCTAssertNotEqual(try inode(file), inodeBefore)
    XCTAssertEqual(String(decoding: try reader.readToEnd() ?? Data(), as: UTF8.self), before)
    let names = try FileManager.default.contentsOfDirectory(
      atPath: file.deletingLastPathComponent().path)
    XCTAssertEqual(names, ["lyric-offsets.json"])
    XCTAssertEqual(LyricOffsetStore(fileURL: file).offset(for: "track-49"), 5000)
  }

  func test_defaultFile_followsXDG() {
    XCTAssertEqual(
      LyricOffsetStore.defaultFileURL(environment: ["XDG_DATA_HOME": "/tmp/d", "HOME": "/h"]).path,
      "/tmp/d/refrain/lyric-offsets.json")
    XCTAssertEqual(
      LyricOffsetStore.defaultFileURL(environment: ["XDG_DATA_HOME": "", "HOME": "/h"]).path,
      "/h/.local/share/refrain/lyric-offsets.json")
  }

  /// The file's inode number, which changes when the file is replaced.
  private func inode(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return try XCTUnwrap((attributes[.systemFileNumber] as? NSNumber)?.intValue)
  }
}
