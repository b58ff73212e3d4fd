import Foundation
import RefrainArt
import RefrainCore
import XCTest

/// Catalog covers asked at the size the pane draws: the buckets, the URL rewriting, and a
/// disk cache that never serves a picture smaller than the one needed.
///
/// No network: the fetch closure is the test's own and records every URL asked.
final class CoverSizingTests: XCTestCase {
  /// A Subsonic cover URL as the catalog builds it, with a percent-encoded user and id.
  private let subsonic =
    "http://127.0.0.1:4533/music/rest/getCoverArt.view?u=a%2Bb%20c&t=0f1e&s=s%26alt&c=refrain&v=1.16.1&id=al-1%2F2&size=300"

  private func url(_ text: String) throws -> URL { try XCTUnwrap(URL(string: text)) }

  // MARK: - Buckets

  func testTheBucketIsTheSmallestThatHoldsThePixelsWithAFloorAndACeiling() {
    let cases: [(pixels: Int, bucket: Int)] = [
      (-5, 256), (0, 256), (1, 256), (40, 256), (256, 256), (257, 512), (400, 512), (512, 512),
      (513, 1024), (1024, 1024), (1025, 1024), (50_000, 1024),
    ]
    for (pixels, bucket) in cases {
      XCTAssertEqual(CoverSizing.bucket(forPixels: pixels), bucket, "\(pixels) pixels")
    }
    XCTAssertEqual(CoverSizing.servingBuckets(for: 256), [256, 512, 1024])
    XCTAssertEqual(CoverSizing.servingBuckets(for: 512), [512, 1024])
    XCTAssertEqual(CoverSizing.servingBuckets(for: 1024), [1024])
  }

  func testPixelsAreTheBoxsLongerSideInHalfBlocksOrInPNGPixels() {
    // The Player pane's square box at 100×30: 40 columns by 20 rows.
    let box = CellSize(columns: 40, rows: 20)
    XCTAssertEqual(LocatedCovers.pixels(for: box, png: false), 40)
    XCTAssertEqual(LocatedCovers.pixels(for: box, png: true), 400)
    XCTAssertEqual(LocatedCovers.pixels(for: CellSize(columns: 12, rows: 30), png: false), 60)
    XCTAssertEqual(LocatedCovers.pixels(for: CellSize(columns: 120, rows: 20), png: true), 1200)
  }

  // MARK: - URLs

  func testTheSizeIsReplacedAndEveryOtherItemKeptByteForByte() throws {
    let sized = try XCTUnwrap(CoverSizing.url(try url(subsonic), size: 512))
    XCTAssertEqual(
      sized.absoluteString,
      "http://127.0.0.1:4533/music/rest/getCoverArt.view?u=a%2Bb%20c&t=0f1e&s=s%26alt&c=refrain&v=1.16.1&id=al-1%2F2&size=512"
    )
    let bare = try url("https://127.0.0.1:8443/rest/getCoverArt?id=7&size=300&f=json")
    XCTAssertTrue(CoverSizing.namesSize(bare))
    XCTAssertEqual(
      CoverSizing.url(bare, size: 1024)?.absoluteString,
      "https://127.0.0.1:8443/rest/getCoverArt?id=7&size=1024&f=json")
  }

  func testARepeatedEmptyOrNonNumericSizeBecomesOneNumber() throws {
    let cases = [
      ("size=1&id=3&size=2", "size=256&id=3"),
      ("id=3&size=", "id=3&size=256"),
      ("id=3&size", "id=3&size=256"),
      ("size=huge&id=3", "size=256&id=3"),
      ("size=-4&id=3&size=99999999999999999999", "size=256&id=3"),
    ]
    for (query, expected) in cases {
      let original = try url("http://127.0.0.1:1/rest/getCoverArt.view?" + query)
      XCTAssertEqual(
        CoverSizing.url(original, size: 256)?.query, expected, query)
    }
  }

  func testURLsThatDoNotNameTheirSizeAreAskedAsTheyAre() throws {
    let untouched = [
      "http://127.0.0.1:1/rest/getCoverArt.view?id=3",  // no size
      "http://127.0.0.1:1/rest/getCoverArt.view",  // no query at all
      "http://127.0.0.1:1/rest/getAvatar.view?username=a&size=300",  // another method
      "http://127.0.0.1:1/rest/GETCOVERART.VIEW?id=3&size=300",  // not the method's spelling
      "http://127.0.0.1:1/rest/getCoverArt.view.jpg?id=3&size=300",
      "http://127.0.0.1:1/size/300/getCoverArt.view?id=3",  // size in the path
      "http://127.0.0.1:1/rest/getCoverArt.view?id=3#size=300",  // size in the fragment
      "http://127.0.0.1:1/rest/getCoverArt.view?id=3&Size=300&sizes=300",
      "http://127.0.0.1:1/rest/getCoverArt.view?id=3&%73ize=300",  // an encoded name
      "http://127.0.0.1:1/rest/getCoverArt.view?id=size&x=size",  // size as a value
      "ftp://127.0.0.1/rest/getCoverArt.view?id=3&size=300",
      "https://127.0.0.1:9/images/cover/abc/500x500-000000-80-0-0.jpg",
    ]
    for text in untouched {
      let original = try url(text)
      XCTAssertFalse(CoverSizing.namesSize(original), text)
      XCTAssertNil(CoverSizing.url(original, size: 512), text)
      let request = CoverRequest(albumKey: "a", catalogCover: original, pixels: 900)
      XCTAssertEqual(request.download?.url, original, text)
      XCTAssertNil(request.download?.size, text)
    }
    let file = URL(fileURLWithPath: "/covers/getCoverArt.view")
    XCTAssertFalse(CoverSizing.namesSize(file))
    XCTAssertNil(CoverRequest(albumKey: "a", catalogCover: file).download, "read, not fetched")
  }

  func testARequestAsksTheBucketOfItsPixelsAndTheSmallestWithoutThem() throws {
    let cover = try url(subsonic)
    XCTAssertEqual(
      CoverRequest(albumKey: "a", catalogCover: cover, pixels: 400).download?.size, 512)
    XCTAssertEqual(
      CoverRequest(albumKey: "a", catalogCover: cover, pixels: 400).download?.url.query?
        .hasSuffix("&size=512"), true)
    XCTAssertEqual(CoverRequest(albumKey: "a", catalogCover: cover).download?.size, 256)
  }

  // MARK: - The disk cache

  /// Answers every fetch with the same picture and keeps the URLs asked, in order.
  private final class RecordingFetch: @unchecked Sendable {
    private let lock = NSLock()
    private let picture: Data
    private var asked: [URL] = []

    init(_ picture: Data) { self.picture = picture }

    func fetch(_ url: URL) -> Data {
      lock.withLock {
        asked.append(url)
        return picture
      }
    }

    /// The `size` of each URL asked so far.
    var sizes: [String] {
      lock.withLock {
        asked.map { url in
          URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == "size" }?.value ?? "none"
        }
      }
    }
  }

  private func picture(in folder: TemporaryFolder) throws -> Data {
    try ImageMagick.convert(ImageMagick.quadrants, output: "q.jpg", in: folder)
  }

  private func locator(_ folder: TemporaryFolder, _ recorder: RecordingFetch) -> CoverLocator {
    CoverLocator(
      cache: CoverDiskCache(directory: folder.url.appendingPathComponent("cache")),
      fetch: { recorder.fetch($0) })
  }

  private func cachedNames(_ folder: TemporaryFolder) throws -> [String] {
    try FileManager.default.contentsOfDirectory(
      atPath: folder.url.appendingPathComponent("cache").path
    ).sorted()
  }

  func testACoverCachedAtTheNeededSizeIsNotFetchedAgainEvenAfterARestart() async throws {
    let folder = try TemporaryFolder()
    let recorder = RecordingFetch(try picture(in: folder))
    let request = CoverRequest(albumKey: "A\u{1F}B", catalogCover: try url(subsonic), pixels: 400)
    let first = try await locator(folder, recorder).locate(request)
    XCTAssertEqual(recorder.sizes, ["512"])
    XCTAssertEqual(first.source, .catalog(try XCTUnwrap(request.download?.url)))
    let stem = CoverDiskCache.stem(albumKey: "A\u{1F}B")
    XCTAssertEqual(first.cacheFile?.lastPathComponent, stem + "-512.jpg")
    // The same pane again, and a new locator over the same folder (Refrain started again).
    let again = try await locator(folder, recorder).locate(request)
    let restarted = try await locator(folder, recorder).locate(request)
    XCTAssertEqual(again.source, .diskCache)
    XCTAssertEqual(restarted.source, .diskCache)
    XCTAssertEqual(restarted.data, first.data)
    XCTAssertEqual(recorder.sizes, ["512"], "nothing fetched again")
  }

  func testASmallerCachedCoverIsNeverServedForALargerNeed() async throws {
    let folder = try TemporaryFolder()
    let recorder = RecordingFetch(try picture(in: folder))
    let locator = locator(folder, recorder)
    let cover = try url(subsonic)
    let stem = CoverDiskCache.stem(albumKey: "k")
    func located(_ pixels: Int?) async throws -> LocatedCover {
      try await locator.locate(CoverRequest(albumKey: "k", catalogCover: cover, pixels: pixels))
    }
    _ = try await located(40)  // half blocks
    XCTAssertEqual(recorder.sizes, ["256"])
    let large = try await located(900)  // a large kitty pane: 256 is too small
    XCTAssertEqual(recorder.sizes, ["256", "1024"])
    XCTAssertEqual(large.cacheFile?.lastPathComponent, stem + "-1024.jpg")
    // A middle need is served by the larger picture, not fetched and not the smaller one.
    let middle = try await located(300)
    XCTAssertEqual(middle.source, .diskCache)
    XCTAssertEqual(middle.cacheFile?.lastPathComponent, stem + "-1024.jpg")
    // The smallest need takes its own size first.
    let small = try await located(100)
    XCTAssertEqual(small.cacheFile?.lastPathComponent, stem + "-256.jpg")
    // No size in particular (the desktop's art): any cached size, the smallest first.
    let desktop = try await located(nil)
    XCTAssertEqual(desktop.cacheFile?.lastPathComponent, stem + "-256.jpg")
    XCTAssertEqual(recorder.sizes, ["256", "1024"])
    XCTAssertEqual(try cachedNames(folder), [stem + "-1024.jpg", stem + "-256.jpg"])
  }

  func testTheDesktopWithNothingCachedAsksTheSmallestBucket() async throws {
    let folder = try TemporaryFolder()
    let recorder = RecordingFetch(try picture(in: folder))
    let request = CoverRequest(albumKey: "d", catalogCover: try url(subsonic))
    let found = try await locator(folder, recorder).locate(request)
    XCTAssertEqual(recorder.sizes, ["256"])
    XCTAssertEqual(
      found.cacheFile?.lastPathComponent, CoverDiskCache.stem(albumKey: "d") + "-256.jpg")
  }

  func testAnUnsizedURLIsFetchedAsItIsAndCachedForTheAlbumAtAnySize() async throws {
    let folder = try TemporaryFolder()
    let recorder = RecordingFetch(try picture(in: folder))
    let locator = locator(folder, recorder)
    let cover = try url("http://127.0.0.1:9/covers/a.jpg")
    _ = try await locator.locate(CoverRequest(albumKey: "u", catalogCover: cover, pixels: 40))
    let large = try await locator.locate(
      CoverRequest(albumKey: "u", catalogCover: cover, pixels: 1000))
    XCTAssertEqual(recorder.sizes, ["none"])
    XCTAssertEqual(large.source, .diskCache)
    XCTAssertEqual(try cachedNames(folder), [CoverDiskCache.stem(albumKey: "u") + ".jpg"])
  }

  func testTheGraphicsPaneAsksALargerCoverThanHalfBlocks() async throws {
    let folder = try TemporaryFolder()
    let recorder = RecordingFetch(try picture(in: folder))
    let covers = LocatedCovers(locator: locator(folder, recorder))
    var track = Track(
      id: "s1", location: try url("http://127.0.0.1:4533/rest/stream.view?id=s1"), title: "Song",
      artist: "Artist", album: "Album")
    track.coverURL = try url(subsonic)
    let box = CellSize(columns: 40, rows: 20)
    let blocks = try await covers.cover(for: track, fitting: box, png: false)
    XCTAssertNil(blocks.png)
    XCTAssertEqual(recorder.sizes, ["256"])
    let graphics = try await covers.cover(for: track, fitting: box, png: true)
    XCTAssertNotNil(graphics.png)
    XCTAssertEqual(recorder.sizes, ["256", "512"], "a 400-pixel PNG needs the 512 picture")
  }
}
