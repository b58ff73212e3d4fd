import Foundation
import GRDB
import RefrainTags
import XCTest

@testable import RefrainCatalog

#if canImport(Glibc)
  import Glibc
#endif

/// A first scan builds the library under another name and moves it into place when done.
final class LibraryBuildTests: XCTestCase {
  private var folder: URL!
  private var music: URL!
  private var libraryURL: URL!
  private var manifest: [[String: Any]] = []

  override func setUpWithError() throws {
    folder = try LibraryTestSupport.temporaryFolder(self)
    music = folder.appendingPathComponent("Music", isDirectory: true)
    manifest = try LibraryTestSupport.makeFixture(count: 60, in: music)
    libraryURL = folder.appendingPathComponent("data/refrain/library.sqlite")
  }

  private var buildingURL: URL { LibraryStore.buildingURL(of: libraryURL, process: getpid()) }

  func testABuiltLibraryAppearsOnlyWhenPublishedAndOpensLikeAnyOther() throws {
    let building = try LibraryStore(buildingNewFileAt: libraryURL)
    let summary = try LocalLibraryScanner(store: building, tagReader: ID3TagReader())
      .scan(folders: [music.path])
    XCTAssertGreaterThan(summary.added, 0)
    XCTAssertFalse(FileManager.default.fileExists(atPath: libraryURL.path), "not before publish()")
    XCTAssertTrue(FileManager.default.fileExists(atPath: buildingURL.path))

    XCTAssertTrue(try building.publish())
    XCTAssertFalse(FileManager.default.fileExists(atPath: buildingURL.path))
    let store = try LibraryStore(fileURL: libraryURL)
    XCTAssertTrue(try store.checkIntegrity())
    try LibraryTestSupport.checkFullText(store)
    XCTAssertEqual(try store.appliedMigrations(), try LibraryStore.appliedMigrationsOfNewFile(self))
    let (tracks, mode) = try store.read { db in
      (
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM local_tracks")!,
        try String.fetchOne(db, sql: "PRAGMA journal_mode")!
      )
    }
    XCTAssertEqual(tracks, summary.added)
    XCTAssertEqual(mode, "wal")
    // The rows are the scan's own: a rescan finds every file unchanged.
    let again = try LocalLibraryScanner(store: store, tagReader: ID3TagReader())
      .scan(folders: [music.path])
    XCTAssertEqual(again.unchanged, manifest.count)
    XCTAssertTrue(try store.read { db in try LocalLibrarySchema.hasTrackIndexes(db) })
  }

  func testALibraryCreatedDuringTheBuildIsKeptAndTheBuildDropped() throws {
    let building = try LibraryStore(buildingNewFileAt: libraryURL)
    _ = try LocalLibraryScanner(store: building, tagReader: ID3TagReader()).scan(
      folders: [music.path])
    // The full-screen player started meanwhile and the user made a playlist.
    let other = try LibraryStore(fileURL: libraryURL)
    _ = try other.createPlaylist(named: "Made meanwhile")

    XCTAssertFalse(try building.publish())
    XCTAssertFalse(FileManager.default.fileExists(atPath: buildingURL.path))
    let store = try LibraryStore(fileURL: libraryURL)
    XCTAssertEqual(try store.playlists().map(\.name), ["Made meanwhile"])
    XCTAssertEqual(
      try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM local_tracks") }, 0)
  }

  func testABuildThatFailedLeavesNothingBehind() throws {
    let building = try LibraryStore(buildingNewFileAt: libraryURL)
    building.discard()
    let names = try FileManager.default.contentsOfDirectory(
      atPath: libraryURL.deletingLastPathComponent().path)
    XCTAssertEqual(names, [])
  }

  func testTheBuildOfAKilledScanIsRemovedByTheNext() throws {
    // A process that has exited: its build file is left over, as after a SIGKILL.
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/bin/true")
    try child.run()
    child.waitUntilExit()
    try FileManager.default.createDirectory(
      at: libraryURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    let abandoned = LibraryStore.buildingURL(of: libraryURL, process: child.processIdentifier)
    try Data("half a library".utf8).write(to: abandoned)
    // One of a scan still running (this process) stays.
    let running = LibraryStore.buildingURL(of: libraryURL, process: getppid())
    try Data("another scan's".utf8).write(to: running)

    let building = try LibraryStore(buildingNewFileAt: libraryURL)
    XCTAssertFalse(FileManager.default.fileExists(atPath: abandoned.path))
    XCTAssertTrue(FileManager.default.fileExists(atPath: running.path))
    XCTAssertTrue(try building.publish())
  }
}

extension LibraryStore {
  /// The migrations a library created the ordinary way records.
  fileprivate static func appliedMigrationsOfNewFile(_ test: XCTestCase) throws -> [String] {
    try LibraryTestSupport.makeStore(test).appliedMigrations()
  }
}
