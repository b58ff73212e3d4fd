import Foundation
import GRDB
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainCatalog

/// Temporary folders, library files and sample tracks for the library store tests.
enum LibraryTestSupport {
  /// The repository root, found from this file's path.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// A new empty folder under the system temporary folder; removed by `addTeardownBlock`.
  static func temporaryFolder(_ test: XCTestCase) throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-library-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    return folder
  }

  /// A fresh library file in a temporary folder, migrated to the latest schema.
  static func makeStore(_ test: XCTestCase) throws -> LibraryStore {
    try LibraryStore(fileURL: temporaryFolder(test).appendingPathComponent("library.sqlite"))
  }

  /// Runs FTS5's integrity check on every full-text table of the local index; throws when an
  /// index and its rows disagree (as when a row changed before its entries were deleted).
  static func checkFullText(_ store: LibraryStore) throws {
    try store.write { db in
      for table in [LocalSearchTable.tracks, .albums, .artists] {
        for fts in [table.words, table.trigrams] {
          // Rank 1 compares an external-content index with its rows too.
          try db.execute(sql: "INSERT INTO \(fts) (\(fts), rank) VALUES ('integrity-check', 1)")
        }
      }
    }
  }

  /// A track of any provider.
  static func track(
    _ id: String, provider: String = "demo", title: String? = nil, artist: String? = "Artist"
  ) -> CatalogTrack {
    CatalogTrack(
      id: id, provider: provider, title: title ?? "Track \(id)", artist: artist,
      artistID: "a-\(id)", album: "Album", albumID: "al-\(id)", duration: 30.5, trackNumber: 1,
      streamURL: URL(string: "https://cdn.example/\(provider)/\(id).mp3"),
      coverURL: URL(string: "https://cdn.example/\(id).jpg"))
  }

  /// Runs `scripts/make-library-fixture COUNT FOLDER`; returns the manifest entries.
  @discardableResult
  static func makeFixture(count: Int, in folder: URL, seed: Int = 1) throws -> [[String: Any]] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", root.appendingPathComponent("scripts/make-library-fixture").path, String(count),
      folder.path, "--seed", String(seed),
    ]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw FixtureMissing(message: "make-library-fixture failed (needs python3, sox and lame)")
    }
    let data = try Data(contentsOf: folder.appendingPathComponent("manifest.json"))
    return try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
  }

  /// A generated audio fixture from `Tests/Fixtures/generated`, made on first use.
  static func audioFixture(_ name: String) throws -> String { try TestMedia.generated(name) }
}

/// A test fixture could not be made: the test fails (never skips) and says why.
struct FixtureMissing: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
