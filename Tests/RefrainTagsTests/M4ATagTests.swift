import Foundation
import RefrainAudio
import RefrainCatalog
import RefrainCore
import XCTest

@testable import RefrainTags

/// M4A tags as the scan, the covers and the embedded lyrics read them, on files tagged by
/// ffmpeg (`scripts/make-m4a-fixtures`: tags.m4a holds exactly these values).
final class M4ATagTests: XCTestCase {
  // MARK: - Text tags (AudioTagReader)

  func testTheScanReadsEveryTextTagAndTheISRCWithoutDecoding() throws {
    let url = try M4AFixtures.url("tags.m4a")
    let (info, stamp) = try AudioTagReader().readStampedTags(atPath: url.path)
    XCTAssertEqual(info.title, "비 오는 날")
    XCTAssertEqual(info.artist, "리프레인")
    XCTAssertEqual(info.albumArtist, "여러 아티스트")
    XCTAssertEqual(info.album, "첫 앨범")
    XCTAssertEqual(info.trackNumber, 3)
    XCTAssertEqual(info.year, 2024)
    XCTAssertEqual(info.isrc, "KRZ012400003")
    XCTAssertEqual(try XCTUnwrap(info.duration), 3, accuracy: 0.001, "from the edit list")
    let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int
    XCTAssertEqual(stamp?.size, size.map(Int64.init))
  }

  func testExactReadingDecodesAndAgreesOnTheDuration() throws {
    let path = try M4AFixtures.url("tags.m4a").path
    let quick = try AudioTagReader().readTags(atPath: path)
    let exact = try AudioTagReader(proof: AudioDecoders.proof).readTags(atPath: path)
    XCTAssertEqual(exact.title, quick.title)
    XCTAssertEqual(try XCTUnwrap(exact.duration), try XCTUnwrap(quick.duration), accuracy: 0.001)
  }

  func testTheDurationComesFromITunSMPBWhenThereIsNoEditList() throws {
    let info = try AudioTagReader().readTags(atPath: M4AFixtures.url("smpb.m4a").path)
    XCTAssertEqual(info.title, "iTunSMPB")
    XCTAssertEqual(try XCTUnwrap(info.duration), 2, accuracy: 0.001)
  }

  func testDiscAndTrackCountsAreRead() throws {
    let reader = MP4BoxReader(try MP4FileSource(url: M4AFixtures.url("tags.m4a")))
    let tags = try MP4Metadata.read(from: reader).tags
    XCTAssertEqual(tags.trackCount, 10)
    XCTAssertEqual(tags.discNumber, 1)
    XCTAssertEqual(tags.discCount, 2)
    XCTAssertNil(tags.iTunSMPB, "ffmpeg writes an edit list instead")
  }

  func testAnM4ANamedMP3IsReadAsM4A() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-m4a-tags-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let renamed = folder.appendingPathComponent("song.mp3")
    try FileManager.default.copyItem(at: try M4AFixtures.url("tags.m4a"), to: renamed)
    XCTAssertEqual(try AudioTagReader().readTags(atPath: renamed.path).isrc, "KRZ012400003")
    XCTAssertTrue(try TagFormats.format(of: renamed) is MP4TagFormat)
  }

  func testALACTagsAreReadButItsAudioIsRefusedByName() throws {
    let path = try M4AFixtures.url("alac.m4a").path
    XCTAssertEqual(
      try XCTUnwrap(try AudioTagReader().readTags(atPath: path).duration), 1, accuracy: 0.05)
    XCTAssertEqual(
      try AudioTagReader().readTags(atPath: path).unplayable?.reason, .unsupportedFormat("ALAC"),
      "indexed, and said not to play")
    XCTAssertThrowsError(try AudioTagReader(proof: AudioDecoders.proof).readTags(atPath: path)) {
      error in
      XCTAssertTrue("\(error)".contains("ALAC audio, which Refrain cannot decode yet"), "\(error)")
      XCTAssertEqual((error as? TagReadError)?.kind, .unsupportedFormat("ALAC"))
    }
  }

  func testAFileCutBeforeItsTagsSaysSo() throws {
    XCTAssertThrowsError(
      try AudioTagReader().readTags(atPath: M4AFixtures.url("cut-moov.m4a").path)
    ) {
      error in
      XCTAssertTrue("\(error)".contains("cut short"), "\(error)")
    }
  }

  // MARK: - Lyrics and cover (TagFormats)

  func testLyricsAreReadAndTheirLRCIsSynced() async throws {
    let url = try M4AFixtures.url("tags.m4a")
    XCTAssertEqual(
      try TagFormats.format(of: url).lyrics(in: url).text, "[00:01.00]첫 줄\n[00:02.50]둘째 줄")
    let result = try await EmbeddedLyricsSource().lyrics(
      for: LyricsQuery(title: "비 오는 날", fileURL: url))
    let document = try XCTUnwrap(result.document)
    XCTAssertTrue(document.isSynced)
    XCTAssertEqual(document.lines.map(\.ms), [1000, 2500])
    XCTAssertEqual(document.lines.map(\.text), ["첫 줄", "둘째 줄"])
  }

  func testTheCoverIsTheEmbeddedPNGByteForByte() throws {
    let url = try M4AFixtures.url("tags.m4a")
    let png = [UInt8](try Data(contentsOf: M4AFixtures.url("m4a-cover.png")))
    let cover = try TagFormats.format(of: url).frontCover(in: url, maxPictureBytes: 1 << 20)
    guard case .picture(let picture) = cover else { return XCTFail("\(cover)") }
    XCTAssertEqual(picture.mimeType, "image/png")
    XCTAssertEqual(picture.pictureType, 3, "MP4 has no picture types: the cover is the front")
    XCTAssertEqual(picture.data, png)
    XCTAssertEqual(
      try MP4TagFormat().frontCover(in: url, maxPictureBytes: 100), .tooLarge(bytes: png.count))
  }

  func testAFileWithoutTagsHasNoLyricsAndNoCover() throws {
    let url = try M4AFixtures.url("steps.m4a")
    XCTAssertEqual(try MP4TagFormat().lyrics(in: url), EmbeddedLyrics())
    XCTAssertEqual(
      try MP4TagFormat().frontCover(in: url, maxPictureBytes: 1 << 20), EmbeddedCover.none)
    let cut = try M4AFixtures.url("cut-moov.m4a")
    XCTAssertEqual(try MP4TagFormat().lyrics(in: cut), EmbeddedLyrics(), "no moov: no tags")
  }
}
