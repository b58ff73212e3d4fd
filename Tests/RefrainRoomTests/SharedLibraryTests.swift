import Foundation
import XCTest

@testable import RefrainRoom

/// What a room server shares: every format the scan indexes, each with the media type its
/// first bytes show.
final class SharedLibraryTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "refrain-shared-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent(".hidden"), withIntermediateDirectories: true)
    let heads: [String: [UInt8]] = [
      "a.flac": Array("fLaC".utf8), "b.OPUS": Array("OggS".utf8), "c.ogg": Array("OggS".utf8),
      "d.wav": Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8),
      "e.m4a": [0, 0, 0, 32] + Array("ftypM4A ".utf8), "f.mp3": Array("ID3".utf8),
      "really-flac.mp3": Array("fLaC".utf8), "g.aac": [0xFF, 0xF1, 0x50, 0x80],
      "notes.txt": Array("hello".utf8), "cover.jpg": [0xFF, 0xD8], ".mp3": Array("ID3".utf8),
      ".hidden/h.flac": Array("fLaC".utf8),
    ]
    for (name, head) in heads {
      try Data(head + [UInt8](repeating: 0, count: 16)).write(
        to: folder.appendingPathComponent(name))
    }
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  func testEveryFormatTheScanIndexesIsSharedWithTheMediaTypeOfItsBytes() {
    let library = SharedLibrary(folders: [folder]) { _ in (nil, nil, nil, nil) }
    XCTAssertEqual(
      library.tracks.map(\.path),
      ["a.flac", "b.OPUS", "c.ogg", "d.wav", "e.m4a", "f.mp3", "g.aac", "really-flac.mp3"])
    let types = library.tracks.map { library.item($0.path)?.mediaType ?? "none" }
    XCTAssertEqual(
      types,
      [
        "audio/flac", "audio/ogg", "audio/ogg", "audio/wav", "audio/mp4", "audio/mpeg",
        "audio/aac", "audio/flac",
      ])
  }
}
