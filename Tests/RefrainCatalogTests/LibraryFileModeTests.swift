import Foundation
import RefrainCore
import XCTest

@testable import RefrainCatalog

/// The library file holds the listening history and a home server's stream URLs (with the
/// login's token): only its owner may read it.
final class LibraryFileModeTests: XCTestCase {
  private func mode(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
  }

  func testANewLibraryAndItsWriteAheadLogAreReadableByTheOwnerOnly() throws {
    let file = try LibraryTestSupport.temporaryFolder(self)
      .appendingPathComponent("library.sqlite")
    let store = try LibraryStore(fileURL: file)
    _ = try store.createPlaylist(named: "Road")
    XCTAssertEqual(try mode(file), 0o600)
    let wal = URL(fileURLWithPath: file.path + "-wal")
    XCTAssertTrue(FileManager.default.fileExists(atPath: wal.path), "a write leaves the WAL")
    XCTAssertEqual(try mode(wal), 0o600)
  }

  func testALibraryLeftReadableByOthersIsMadePrivateAndKeepsItsPlaylists() throws {
    let file = try LibraryTestSupport.temporaryFolder(self)
      .appendingPathComponent("library.sqlite")
    do {
      let store = try LibraryStore(fileURL: file)
      _ = try store.createPlaylist(named: "Road")
    }
    XCTAssertEqual(chmod(file.path, 0o644), 0)
    let again = try LibraryStore(fileURL: file)
    XCTAssertEqual(try mode(file), 0o600)
    XCTAssertEqual(try again.playlists().map(\.name), ["Road"])
  }

  func testAScanBuildsItsNewLibraryPrivately() throws {
    let file = try LibraryTestSupport.temporaryFolder(self)
      .appendingPathComponent("library.sqlite")
    let building = try LibraryStore(buildingNewFileAt: file)
    let path = try XCTUnwrap(building.buildingURL)
    XCTAssertEqual(try mode(path), 0o600)
  }
}
