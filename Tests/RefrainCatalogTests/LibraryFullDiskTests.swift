import Foundation
import GRDB
import RefrainCore
import XCTest

@testable import RefrainCatalog

/// A library whose disk is full: the edit fails with a message naming the full disk and the
/// file, nothing acknowledged before is lost, and the next edit after space is freed works.
final class LibraryFullDiskTests: XCTestCase {
  func testAFullLibrarySaysTheDiskIsFullAndKeepsWhatWasSaved() throws {
    let store = try LibraryTestSupport.makeStore(self)
    let kept = try store.createPlaylist(named: "Kept")
    // SQLite's page cap stands in for the disk: past it, writes fail with SQLITE_FULL.
    let pages = try store.pool.read { try Int.fetchOne($0, sql: "PRAGMA page_count") } ?? 1
    try store.pool.writeWithoutTransaction {
      try $0.execute(sql: "PRAGMA max_page_count = \(pages)")
    }
    var failure: (any Error)?
    do {
      for index in 0..<500 {
        let playlist = try store.createPlaylist(
          named: "Long name \(index) " + String(repeating: "x", count: 500))
        try store.addTracks(
          (0..<20).map { LibraryTestSupport.track("t\(index)-\($0)") }, toPlaylist: playlist.id)
      }
    } catch {
      failure = error
    }
    let error = try XCTUnwrap(failure as? LibraryStoreError, "the writes never filled the library")
    XCTAssertEqual(error, .diskFull(path: store.fileURL.path))
    XCTAssertTrue(
      "\(error)".hasPrefix("the disk is full: the library \(store.fileURL.path)"), "\(error)")
    XCTAssertTrue(try store.playlists().contains { $0.id == kept.id })
    XCTAssertTrue(try store.checkIntegrity())

    try store.pool.writeWithoutTransaction {
      try $0.execute(sql: "PRAGMA max_page_count = 1000000")
    }
    XCTAssertEqual(try store.createPlaylist(named: "After").name, "After")
  }

  func testAnAtomicWriteThatFailsLeavesNothingBehindAndNamesTheFile() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-atomic-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    let target = folder.appendingPathComponent("song.lrc")
    try AtomicFile.write(Data("old".utf8), to: target)
    try AtomicFile.write(
      Data("new".utf8), to: target, backup: folder.appendingPathComponent("song.lrc.bak"))
    XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "new")
    XCTAssertEqual(
      try String(contentsOf: folder.appendingPathComponent("song.lrc.bak"), encoding: .utf8), "old")
    // A folder in the file's place: the rename fails, the temporary file goes.
    let blocked = folder.appendingPathComponent("blocked.lrc")
    try FileManager.default.createDirectory(
      at: blocked.appendingPathComponent("inside"), withIntermediateDirectories: true)
    XCTAssertThrowsError(try AtomicFile.write(Data("x".utf8), to: blocked)) { error in
      XCTAssertTrue("\(error)".hasPrefix("\(blocked.path) could not be saved"), "\(error)")
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    XCTAssertEqual(names, ["blocked.lrc", "song.lrc", "song.lrc.bak"])
    XCTAssertEqual(
      "\(FileWriteError(path: "/music/song.lrc", code: ENOSPC))",
      "the disk is full: /music/song.lrc could not be saved (free some space and try again)")
  }
}
