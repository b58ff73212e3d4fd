import Foundation
import RefrainArt
import XCTest

/// Finding covers: embedded ID3 pictures, folder images, catalog covers, and both caches.
///
/// The ID3 tags are built by hand; no network: the fetch closure is the test's own.
final class CoverLocatorTests: XCTestCase {
  // MARK: - ID3 tags built by hand

  private func be32(_ value: Int) -> [UInt8] {
    [
      UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF),
      UInt8(value & 0xFF),
    ]
  }

  private func syncsafe(_ value: Int) -> [UInt8] {
    [
      UInt8(value >> 21 & 0x7F), UInt8(value >> 14 & 0x7F), UInt8(value >> 7 & 0x7F),
      UInt8(value & 0x7F),
    ]
  }

  /// ID3 unsynchronisation: a zero after every FF that is followed by 111xxxxx, a zero, or the end.
  private func unsynchronised(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    for (index, byte) in bytes.enumerated() {
      out.append(byte)
      let next = index + 1 < bytes.count ? bytes[index + 1] : 0
      if byte == 0xFF, next & 0xE0 == 0xE0 || next == 0 { out.append(0) }
    }
    return out
  }

  /// An APIC body: encoding, MIME, picture type, description, picture.
  private func apic(
    mime: String, type: UInt8, description: [UInt8] = Array("desc".utf8) + [0], encoding: UInt8 = 0,
    _ picture: [UInt8]
  ) -> [UInt8] {
    [encoding] + Array(mime.utf8) + [0, type] + description + picture
  }

  /// A v2.3 or v2.4 tag of `frames` (id, body), optionally unsynchronised, then fake audio.
  private func tagFile(
    version: UInt8, frames: [(String, [UInt8])], unsync: Bool = false, padding: Int = 16
  ) -> Data {
    var body: [UInt8] = []
    for (id, content) in frames {
      var content = content
      var flags: [UInt8] = [0, 0]
      if unsync, version == 4 {
        content = unsynchronised(content)
        flags = [0, 0x02]
      }
      body +=
        Array(id.utf8) + (version == 4 ? syncsafe(content.count) : be32(content.count)) + flags
        + content
    }
    if unsync, version == 3 { body = unsynchronised(body) }
    body += Array(repeating: 0, count: padding)
    let header: [UInt8] =
      [0x49, 0x44, 0x33, version, 0, unsync && version == 3 ? 0x80 : 0] + syncsafe(body.count)
    return Data(header + body + [0xFF, 0xFB, 0x90, 0x00] + Array(repeating: 0x55, count: 64))
  }

  private func locator(_ folder: TemporaryFolder, fetch: CoverLocator.Fetch? = nil) -> CoverLocator
  {
    CoverLocator(
      cache: CoverDiskCache(directory: folder.url.appendingPathComponent("cache")), fetch: fetch)
  }

  private func images(_ folder: TemporaryFolder) throws -> (png: [UInt8], jpeg: [UInt8]) {
    let png = try ImageMagick.fourByFour("", output: "PNG24:x.png", in: folder)
    // A JPEG has FF bytes followed by ≥ E0 (markers), so unsynchronisation changes it.
    let jpeg = try ImageMagick.convert(ImageMagick.quadrants, output: "q.jpg", in: folder)
    return ([UInt8](png), [UInt8](jpeg))
  }

  func testFrontCoverWinsOverAnEarlierPictureAndALyingMIMEIsIgnored() async throws {
    let folder = try TemporaryFolder()
    let (png, jpeg) = try images(folder)
    let audio = try folder.write(
      "track.mp3",
      tagFile(
        version: 3,
        frames: [
          ("TIT2", [0] + Array("Song".utf8)),
          ("APIC", apic(mime: "image/png", type: 0, png)),
          // The front cover claims to be a PNG; its bytes are a JPEG.
          ("APIC", apic(mime: "image/png", type: 3, jpeg)),
        ]))
    let found = try await locator(folder).locate(
      CoverRequest(audioFile: audio, albumKey: "A\u{1F}B"))
    XCTAssertEqual(found.source, .embedded)
    XCTAssertEqual(found.format, .jpeg)
    XCTAssertEqual([UInt8](found.data), jpeg)
    XCTAssertEqual(try ImageDecoder.decode(found.data).width, 16)
    let cacheFile = try XCTUnwrap(found.cacheFile)
    XCTAssertEqual(cacheFile.lastPathComponent, CoverDiskCache.stem(albumKey: "A\u{1F}B") + ".jpg")
    XCTAssertEqual(try Data(contentsOf: cacheFile), found.data)
  }

  func testWithoutAFrontCoverTheFirstPictureIsUsed() throws {
    let folder = try TemporaryFolder()
    let (png, jpeg) = try images(folder)
    let audio = try folder.write(
      "t.mp3",
      tagFile(
        version: 4,
        frames: [
          ("APIC", apic(mime: "image/png", type: 4, png)),
          ("APIC", apic(mime: "image/jpeg", type: 5, jpeg)),
        ]))
    let found = try XCTUnwrap(
      try locator(folder).locateLocally(CoverRequest(audioFile: audio, albumKey: "k")))
    XCTAssertEqual([UInt8](found.data), png)
  }

  func testUnsynchronisedTagsAndUTF16DescriptionsReadTheExactPicture() throws {
    let folder = try TemporaryFolder()
    let (_, jpeg) = try images(folder)
    // UTF-16 with a byte-order mark: "ab" then a two-byte terminator.
    let utf16: [UInt8] = [0xFF, 0xFE, 0x61, 0x00, 0x62, 0x00, 0x00, 0x00]
    for version: UInt8 in [3, 4] {
      let audio = try folder.write(
        "u\(version).mp3",
        tagFile(
          version: version,
          frames: [
            ("APIC", apic(mime: "image/jpeg", type: 3, description: utf16, encoding: 1, jpeg))
          ],
          unsync: true))
      let found = try XCTUnwrap(
        try locator(folder).locateLocally(CoverRequest(audioFile: audio, albumKey: "u\(version)")))
      XCTAssertEqual([UInt8](found.data), jpeg, "v2.\(version)")
    }
  }

  func testVersion22PICFrame() throws {
    let folder = try TemporaryFolder()
    let (png, _) = try images(folder)
    // PIC: encoding, a 3-letter format (here lying: "JPG"), type, description, picture.
    let content: [UInt8] = [0] + Array("JPG".utf8) + [3] + Array("front".utf8) + [0] + png
    let size = content.count
    let frame =
      Array("PIC".utf8) + [UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
    let body = frame + content
    let audio = try folder.write(
      "v22.mp3", Data([0x49, 0x44, 0x33, 2, 0, 0] + syncsafe(body.count) + body))
    let found = try XCTUnwrap(
      try locator(folder).locateLocally(CoverRequest(audioFile: audio, albumKey: "v22")))
    XCTAssertEqual(found.format, .png)
    XCTAssertEqual([UInt8](found.data), png)
  }

  func testA50MBEmbeddedPictureIsRefusedWithoutBeingRead() async throws {
    let folder = try TemporaryFolder()
    let pictureSize = 50_000_000
    let frameBody = [0] + Array("image/jpeg".utf8) + [0, 3, 0] + [0xFF, 0xD8, 0xFF, 0xE0]
    let frameSize = frameBody.count - 4 + pictureSize
    let header: [UInt8] = [0x49, 0x44, 0x33, 4, 0, 0] + syncsafe(10 + frameSize)
    let frameHeader = Array("APIC".utf8) + syncsafe(frameSize) + [0, 0]
    let audio = try folder.write("big.mp3", Data(header + frameHeader + frameBody))
    // A sparse file: the 50 MB are never written, and must never be read.
    let handle = try FileHandle(forWritingTo: audio)
    try handle.truncate(atOffset: UInt64(20 + frameSize + 100))
    try handle.close()
    let locator = locator(folder)
    do {
      _ = try await locator.locate(CoverRequest(audioFile: audio, albumKey: "big"))
      XCTFail("a 50 MB picture was accepted")
    } catch {
      XCTAssertEqual(error, .tooManyBytes(count: pictureSize, limit: 32 << 20))
    }
  }

  // MARK: - Folder images

  func testFolderImageNamesAnyCaseInOrderOfPreference() throws {
    let folder = try TemporaryFolder()
    let (png, jpeg) = try images(folder)
    let album = folder.url.appendingPathComponent("album")
    try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
    let audio = album.appendingPathComponent("01 song.mp3")
    try Data([0xFF, 0xFB, 0x90, 0x00]).write(to: audio)
    try Data(jpeg).write(to: album.appendingPathComponent("Folder.JPEG"))
    try Data(png).write(to: album.appendingPathComponent("back.png"))
    let request = CoverRequest(audioFile: audio, albumKey: "folder")
    var found = try XCTUnwrap(try locator(folder).locateLocally(request))
    XCTAssertEqual(found.source, .folderImage(album.appendingPathComponent("Folder.JPEG")))
    try Data(png).write(to: album.appendingPathComponent("COVER.png"))
    found = try XCTUnwrap(try locator(folder).locateLocally(request))
    XCTAssertEqual(found.source, .folderImage(album.appendingPathComponent("COVER.png")))
    XCTAssertEqual(found.format, .png)
  }

  func testNoSourceIsNotFound() async throws {
    let folder = try TemporaryFolder()
    let audio = try folder.write("plain.mp3", Data([0xFF, 0xFB, 0x90, 0x00]))
    _ = try folder.write("notes.txt", Data("cover".utf8))
    do {
      _ = try await locator(folder).locate(CoverRequest(audioFile: audio, albumKey: "none"))
      XCTFail("found a cover")
    } catch {
      XCTAssertEqual(error, .notFound)
    }
  }

  // MARK: - Catalog covers

  func testCatalogFileCover() throws {
    let folder = try TemporaryFolder()
    let (png, _) = try images(folder)
    let file = try folder.write("demo-cover.png", Data(png))
    let found = try XCTUnwrap(
      try locator(folder).locateLocally(CoverRequest(albumKey: "demo", catalogCover: file)))
    XCTAssertEqual(found.source, .catalog(file))
    XCTAssertEqual([UInt8](found.data), png)
  }

  /// Counts the fetches and answers each with the next scripted result.
  private final class ScriptedFetch: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<Data, any Error>]
    private(set) var calls = 0

    init(_ results: [Result<Data, any Error>]) { self.results = results }

    func fetch(_ url: URL) throws -> Data {
      try lock.withLock {
        calls += 1
        return try results.removeFirst().get()
      }
    }
  }

  private struct HTTPStatus: Error, CustomStringConvertible {
    var code: Int
    var description: String { "HTTP \(code)" }
  }

  func testDownloadedOnceThenServedFromTheDiskCache() async throws {
    let folder = try TemporaryFolder()
    let (_, jpeg) = try images(folder)
    let script = ScriptedFetch([.success(Data(jpeg)), .failure(HTTPStatus(code: 500))])
    let locator = locator(folder) { try script.fetch($0) }
    let request = CoverRequest(
      albumKey: "online", catalogCover: URL(string: "https://covers.invalid/a.jpg"))
    let first = try await locator.locate(request)
    XCTAssertEqual(first.source, .catalog(try XCTUnwrap(request.catalogCover)))
    let second = try await locator.locate(request)
    XCTAssertEqual(second.source, .diskCache)
    XCTAssertEqual(second.data, first.data)
    XCTAssertEqual(script.calls, 1)
  }

  func testADownloadThatDoesNotDecodeIsNotKeptAndIsFetchedAgain() async throws {
    let folder = try TemporaryFolder()
    let (_, jpeg) = try images(folder)
    let cut = Data(jpeg.prefix(jpeg.count / 3))
    let script = ScriptedFetch([.success(cut), .success(Data(jpeg))])
    let locator = locator(folder) { try script.fetch($0) }
    let request = CoverRequest(
      albumKey: "cut", catalogCover: URL(string: "https://covers.invalid/cut.jpg"))
    let box = CellSize(columns: 4, rows: 2)
    do {
      _ = try await locator.halfBlockCover(for: request, in: box, colors: .trueColor)
      XCTFail("a third of a JPEG decoded")
    } catch {
      XCTAssertEqual(error, .truncated)
    }
    let cached = try FileManager.default.contentsOfDirectory(
      atPath: folder.url.appendingPathComponent("cache").path)
    XCTAssertEqual(cached, [], "the damaged download is not kept")
    let cover = try await locator.halfBlockCover(for: request, in: box, colors: .trueColor)
    XCTAssertEqual(cover.columns, 4)
    XCTAssertEqual(script.calls, 2, "downloaded again")
  }

  func testAFailedOrNonImageDownloadIsAnError() async throws {
    let folder = try TemporaryFolder()
    let script = ScriptedFetch([.failure(HTTPStatus(code: 404)), .success(Data("<html>".utf8))])
    let locator = locator(folder) { try script.fetch($0) }
    let request = CoverRequest(
      albumKey: "gone", catalogCover: URL(string: "http://127.0.0.1:9/a.jpg"))
    do {
      _ = try await locator.locate(request)
      XCTFail("a 404 gave a cover")
    } catch {
      XCTAssertEqual(error, .fetchFailed(reason: "HTTP 404"))
      XCTAssertEqual(error.description, "cover art: the download failed (HTTP 404)")
    }
    do {
      _ = try await locator.locate(request)
      XCTFail("HTML gave a cover")
    } catch {
      XCTAssertEqual(error, .unsupportedFormat)
    }
  }

  // MARK: - Caches

  func testCacheNamesAreStableFNV1aHashes() {
    XCTAssertEqual(CoverDiskCache.stem(albumKey: ""), "cbf29ce484222325")
    XCTAssertEqual(CoverDiskCache.stem(albumKey: "a"), "af63dc4c8601ec8c")
    XCTAssertEqual(
      CoverDiskCache.defaultDirectory(
        environment: ["XDG_CACHE_HOME": "/x/cache"], home: URL(fileURLWithPath: "/home/u")
      ).path,
      "/x/cache/refrain/covers")
    XCTAssertEqual(
      CoverDiskCache.defaultDirectory(
        environment: ["XDG_CACHE_HOME": "relative"], home: URL(fileURLWithPath: "/home/u")
      ).path,
      "/home/u/.cache/refrain/covers")
  }

  func testStoreEvictsTheOldestFilesOverTheCap() throws {
    let folder = try TemporaryFolder()
    let cache = CoverDiskCache(directory: folder.url, maxBytes: 250)
    let manager = FileManager.default
    for (index, key) in ["old", "middle", "new"].enumerated() {
      let url = try cache.store(
        Data(repeating: UInt8(index), count: 100), format: .jpeg, albumKey: key)
      // Fixed times, oldest first: the test does not depend on today's date or the clock.
      try manager.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: 1_000_000 + Double(index) * 1000)],
        ofItemAtPath: url.path)
    }
    let newest = try cache.store(Data(repeating: 9, count: 100), format: .png, albumKey: "newest")
    let left = Set(try manager.contentsOfDirectory(atPath: folder.url.path))
    XCTAssertEqual(
      left,
      [newest.lastPathComponent, cache.file(albumKey: "new", format: .jpeg).lastPathComponent])
    // A new format for an album replaces its old file.
    let replaced = try cache.store(Data(repeating: 7, count: 10), format: .png, albumKey: "new")
    XCTAssertFalse(manager.fileExists(atPath: cache.file(albumKey: "new", format: .jpeg).path))
    XCTAssertTrue(manager.fileExists(atPath: replaced.path))
  }

  func testCellCacheKeepsTheMostRecentlyUsed() {
    let cache = CoverCellCache(capacity: 2)
    let cover = HalfBlockCover(image: RGBImage(width: 1, height: 2, pixels: [1, 2, 3, 4, 5, 6]))
    let box = CellSize(columns: 30, rows: 15)
    let a = CoverCellCache.Key(albumKey: "a", box: box, colors: .trueColor)
    let b = CoverCellCache.Key(albumKey: "b", box: box, colors: .trueColor)
    let c = CoverCellCache.Key(albumKey: "a", box: box, colors: .palette256)
    cache.insert(cover, for: a)
    cache.insert(cover, for: b)
    XCTAssertNotNil(cache.cover(for: a))  // a is now the most recent
    cache.insert(cover, for: c)
    XCTAssertNil(cache.cover(for: b))
    XCTAssertNotNil(cache.cover(for: a))
    XCTAssertEqual(cache.count, 2)
  }

  func testHalfBlockCoverIsMadeOnceAnAlbumAndSize() async throws {
    let folder = try TemporaryFolder()
    let (png, _) = try images(folder)
    let file = try folder.write("c.png", Data(png))
    let locator = locator(folder)
    let request = CoverRequest(albumKey: "demo", catalogCover: file)
    let box = CellSize(columns: 4, rows: 2)
    let cover = try await locator.halfBlockCover(for: request, in: box, colors: .trueColor)
    XCTAssertEqual(cover[0, 0].top, RGB(255, 0, 0))
    try FileManager.default.removeItem(at: file)
    let again = try await locator.halfBlockCover(for: request, in: box, colors: .trueColor)
    XCTAssertEqual(again, cover, "from the cell cache, without the file")
  }
}
