import Foundation
import RefrainCore
import XCTest

@testable import RefrainCatalog

/// A demo catalog that is missing, malformed or points at missing files.
final class DemoCatalogErrorTests: XCTestCase {
  // MARK: - Missing and malformed catalog.json

  func testMissingCatalogNamesThePath() throws {
    let folder = try DemoTestCatalog.emptyFolder()
    let message = unavailableMessage { try DemoCatalogProvider(resources: folder) }
    XCTAssertTrue(
      message.contains(folder.appendingPathComponent("demo/catalog.json").path), message)
    XCTAssertTrue(message.contains("missing"), message)
    XCTAssertTrue(message.contains("scripts/make-demo-catalog"), message)
  }

  func testInvalidJSONIsMalformed() throws {
    let folder = try DemoTestCatalog.write(raw: "{ \"format\": 1, \"artists\": [ }")
    let message = unavailableMessage { try DemoCatalogProvider(resources: folder) }
    XCTAssertTrue(message.contains(DemoCatalogProvider.catalogFile(in: folder).path), message)
    XCTAssertTrue(message.contains("malformed"), message)
    XCTAssertTrue(message.contains("not valid JSON"), message)
  }

  func testMissingFieldIsNamed() throws {
    let folder = try DemoTestCatalog.write(raw: #"{"format": 1, "artists": []}"#)
    let message = unavailableMessage { try DemoCatalogProvider(resources: folder) }
    XCTAssertTrue(message.contains("no \"genres\" field"), message)
  }

  func testWrongTypeIsNamed() throws {
    var catalog = DemoTestCatalog.object(tracks: [("a", "A", "someone")])
    catalog["albums"] = [["id": "x", "title": "X", "artist": "someone", "tracks": "a"]]
    let folder = try DemoTestCatalog.write(catalog)
    let message = unavailableMessage { try DemoCatalogProvider(resources: folder) }
    XCTAssertTrue(message.contains(".albums[0].tracks"), message)
  }

  func testUnsupportedFormatIsMalformed() throws {
    var catalog = DemoTestCatalog.object(tracks: [])
    catalog["format"] = 2
    let folder = try DemoTestCatalog.write(catalog)
    let message = unavailableMessage { try DemoCatalogProvider(resources: folder) }
    XCTAssertTrue(message.contains("format 2"), message)
  }

  // MARK: - References

  func testUnknownArtistIsMalformed() throws {
    let folder = try DemoTestCatalog.write(tracks: [("a", "A", "nobody")])
    let message = unavailableMessage { try DemoCatalogProvider(resources: folder) }
    XCTAssertTrue(message.contains("unknown artist \"nobody\""), message)
  }

  func testUnknownTrackInAPlaylistIsMalformed() throws {
    var catalog = DemoTestCatalog.object(tracks: [("a", "A", "someone")])
    catalog["playlists"] = [["id": "p", "title": "P", "tracks": ["a", "ghost"]]]
    let folder = try DemoTestCatalog.write(catalog)
    let message = unavailableMessage { try DemoCatalogProvider(resources: folder) }
    XCTAssertTrue(message.contains("playlist \"p\" lists an unknown track \"ghost\""), message)
  }

  func testUnknownHomeItemOrKindIsMalformed() throws {
    var catalog = DemoTestCatalog.object(tracks: [("a", "A", "someone")])
    catalog["home"] = [["id": "h", "title": "H", "kind": "charts", "items": ["album:ghost"]]]
    var message = unavailableMessage {
      try DemoCatalogProvider(resources: DemoTestCatalog.write(catalog))
    }
    XCTAssertTrue(message.contains("\"album:ghost\""), message)

    catalog["home"] = [["id": "h", "title": "H", "kind": "hits", "items": ["track:a"]]]
    message = unavailableMessage {
      try DemoCatalogProvider(resources: DemoTestCatalog.write(catalog))
    }
    XCTAssertTrue(message.contains("unknown kind \"hits\""), message)
  }

  func testRepeatedIDIsMalformed() throws {
    let folder = try DemoTestCatalog.write(tracks: [("a", "A", "someone"), ("a", "B", "someone")])
    let message = unavailableMessage { try DemoCatalogProvider(resources: folder) }
    XCTAssertTrue(message.contains("track \"a\" is listed twice"), message)
  }

  // MARK: - Missing files

  func testTrackWithoutItsMP3IsListedButUnplayable() async throws {
    let folder = try DemoTestCatalog.write(tracks: [("a", "A", "someone")])
    let provider = try DemoCatalogProvider(resources: folder)
    let track = try await provider.track(id: "a")
    XCTAssertFalse(track.isPlayable)
    XCTAssertTrue(track.unplayableReason?.contains("tracks/a.mp3") ?? false)
    do {
      _ = try await provider.streamURL(for: track)
      XCTFail("a track without audio has no stream")
    } catch let error as CatalogError {
      guard case .unplayable(let why) = error else { return XCTFail("\(error)") }
      XCTAssertTrue(why.contains("make-demo-catalog"), why)
    }
  }

  // MARK: - Helpers

  private func unavailableMessage(
    file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> DemoCatalogProvider
  ) -> String {
    do {
      _ = try body()
      XCTFail("expected the catalog to be unavailable", file: file, line: line)
    } catch CatalogError.unavailable(let message) {
      return message
    } catch {
      XCTFail("unexpected error \(error)", file: file, line: line)
    }
    return ""
  }
}

/// Writes small demo catalogs into temporary folders.
enum DemoTestCatalog {
  /// A new empty folder under the temporary directory.
  static func emptyFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-demo-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// A catalog object with one artist (`someone`), the given tracks (no album) and one
  /// Home chart listing them.
  static func object(tracks: [(id: String, title: String, artist: String)]) -> [String: Any] {
    var artists: [[String: Any]] = [["id": "someone", "name": "Someone"]]
    for artist in Set(tracks.map(\.artist)).subtracting(["someone", "nobody"]).sorted() {
      artists.append(["id": artist, "name": artist.capitalized])
    }
    return [
      "format": 1, "artists": artists, "genres": [], "albums": [], "playlists": [],
      "tracks": tracks.map {
        ["id": $0.id, "title": $0.title, "artist": $0.artist, "file": "tracks/\($0.id).mp3"]
      },
      "home": [
        [
          "id": "charts", "title": "Charts", "kind": "charts",
          "items": tracks.map { "track:\($0.id)" },
        ]
      ],
    ]
  }

  /// Writes a catalog with these tracks; returns the resources folder.
  static func write(tracks: [(id: String, title: String, artist: String)]) throws -> URL {
    try write(object(tracks: tracks))
  }

  /// Writes a catalog object; returns the resources folder.
  static func write(_ object: [String: Any]) throws -> URL {
    let data = try JSONSerialization.data(withJSONObject: object)
    return try write(raw: String(decoding: data, as: UTF8.self))
  }

  /// Writes `catalog.json` verbatim; returns the resources folder.
  static func write(raw: String) throws -> URL {
    let folder = try emptyFolder()
    let demo = folder.appendingPathComponent("demo")
    try FileManager.default.createDirectory(at: demo, withIntermediateDirectories: true)
    try Data(raw.utf8).write(to: demo.appendingPathComponent("catalog.json"))
    return folder
  }
}
