import Foundation
import XCTest

@testable import RefrainCore

/// Tests of `LyricsCache`, `CachedLyricsSource` and the LRC text the cache stores.
final class LyricsSourcesCacheTests: XCTestCase {
  private var folder = URL(fileURLWithPath: "/nonexistent")

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-cache-\(UUID().uuidString)")
  }

  override func tearDown() {
    try? FileManager.default.removeItem(at: folder)
  }

  private let query = LyricsQuery(
    title: "I Want to Live", artist: "Borislav Slavov", album: "Baldur's Gate 3", duration: 233.2)

  // MARK: - Round trip

  func test_syncedLyrics_roundTrip() throws {
    let cache = LyricsCache(directory: folder)
    let document = try LyricsDocument.load(
      from: LyricsFixtures.url("lrc/real/lrclib-borislav-slavov-i-want-to-live.lrc"))
    try cache.store(.lyrics(document), for: query)
    guard case .hit(.lyrics(let cached)) = cache.lookup(query) else {
      return XCTFail("\(cache.lookup(query))")
    }
    XCTAssertEqual(cached.lines, document.lines)
    XCTAssertTrue(cached.isSynced)
  }

  func test_plainLyrics_andInstrumental_roundTrip() throws {
    let cache = LyricsCache(directory: folder)
    let plain = LRCParser.parse("first\n\nsecond")
    try cache.store(.lyrics(plain), for: query)
    XCTAssertEqual(cache.lookup(query), .hit(.lyrics(plain)))

    try cache.store(.instrumental, for: query)
    XCTAssertEqual(cache.lookup(query), .hit(.instrumental))
  }

  func test_cachedSource_answersFromTheCache() async throws {
    let cache = LyricsCache(directory: folder)
    let source = CachedLyricsSource(cache: cache)
    let missing = try await source.lyrics(for: query)
    XCTAssertEqual(missing, .notFound(reasons: ["no cached lyrics"]))

    try cache.store(.instrumental, for: query)
    let instrumental = try await source.lyrics(for: query)
    XCTAssertEqual(instrumental, .instrumental(source: .cache))
  }

  func test_storedFile_isJSONWithTheRawText_andNoTemporaryFilesRemain() throws {
    let cache = LyricsCache(directory: folder)
    try cache.store(.lyrics(LRCParser.parse("[00:01.50]hello")), for: query)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    XCTAssertEqual(files, [LyricsCache.key(for: query) + ".json"])
    let object = try JSONSerialization.jsonObject(
      with: Data(
        contentsOf: LyricsCacheFolder(directory: folder).fileURL(for: LyricsCache.key(for: query))))
    let entry = try XCTUnwrap(object as? [String: Any])
    XCTAssertEqual(entry["lyrics"] as? String, "[00:01.500]hello\n")
    XCTAssertEqual(entry["instrumental"] as? Bool, false)
  }

  // MARK: - Corrupt entries

  func test_corruptEntry_isReported_andRemoved() async throws {
    let cache = LyricsCache(directory: folder)
    try cache.store(.instrumental, for: query)
    let url = LyricsCacheFolder(directory: folder).fileURL(for: LyricsCache.key(for: query))
    try Data("{\"version\":1,\"key\":".utf8).write(to: url)

    XCTAssertEqual(
      cache.lookup(query),
      .unreadable(reason: "the cached lyrics were unreadable and were discarded"))
    XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
    XCTAssertEqual(cache.lookup(query), .miss)
  }

  func test_entryOfAnotherTrack_withTheSameFileName_isAMiss() throws {
    let cache = LyricsCache(directory: folder)
    let other = LyricsQuery(title: "Other", artist: "Band")
    try cache.store(.instrumental, for: other)
    // Pretend the other track's entry sits at our key (a hash collision).
    try FileManager.default.moveItem(
      at: LyricsCacheFolder(directory: folder).fileURL(for: LyricsCache.key(for: other)),
      to: LyricsCacheFolder(directory: folder).fileURL(for: LyricsCache.key(for: query)))
    XCTAssertEqual(cache.lookup(query), .miss)
  }

  // MARK: - Keys and location

  func test_key_isStable_andIgnoresCaseSpacesAndFractionsOfASecond() {
    XCTAssertEqual(LyricsCache.key(for: query), "33163f5758cfd0e9")
    let variant = LyricsQuery(
      title: "  i want  TO live ", artist: "borislav slavov", album: "BALDUR'S GATE 3",
      duration: 232.8, fileURL: folder, embeddedText: "ignored")
    XCTAssertEqual(LyricsCache.key(for: variant), LyricsCache.key(for: query))
    var longer = query
    longer.duration = 240
    XCTAssertNotEqual(LyricsCache.key(for: longer), LyricsCache.key(for: query))
  }

  func test_defaultDirectory_followsXDG() {
    XCTAssertEqual(
      LyricsCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/tmp/x", "HOME": "/home/u"])
        .path, "/tmp/x/refrain/lyrics")
    XCTAssertEqual(
      LyricsCache.defaultDirectory(environment: ["HOME": "/home/u"]).path,
      "/home/u/.cache/refrain/lyrics")
    XCTAssertEqual(
      LyricsCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"])
        .path, "/home/u/.cache/refrain/lyrics")
  }

  // MARK: - LRC text

  func test_lrcText_roundTripsEveryVectorAndRealFile() throws {
    var texts: [String] = try LyricsFixtures.realLRCFiles().map {
      LyricsTextDecoder.decode(try Data(contentsOf: $0))
    }
    let vectors = try JSONSerialization.jsonObject(with: LyricsFixtures.data("lrc/vectors.json"))
    let cases =
      (vectors as? [[String: Any]]) ?? ((vectors as? [String: Any])?["cases"] as? [[String: Any]])
      ?? []
    XCTAssertGreaterThan(cases.count, 50)
    texts += cases.compactMap { $0["lrc"] as? String }

    for text in texts {
      let document = LRCParser.parse(text)
      let again = LRCParser.parse(document.lrcText())
      XCTAssertEqual(again.lines, document.lines, text)
      XCTAssertEqual(again.tags, document.tags, text)
      XCTAssertEqual(again.offsetMs, document.offsetMs, text)
      XCTAssertEqual(again.isSynced, document.isSynced, text)
    }
  }

  func test_lrcText_writesWordTimes_keepingCJKWordsJoined() {
    let document = LyricsDocument(
      tags: ["ar": "Band"], offsetMs: -250,
      lines: [
        LyricLine(
          ms: 1000, text: "사랑 해",
          words: [
            LyricWord(ms: 1000, text: "사"), LyricWord(ms: 1200, text: "랑"),
            LyricWord(ms: 1500, text: "해"),
          ], endMs: 1900)
      ])
    XCTAssertEqual(
      document.lrcText(),
      "[ar:Band]\n[offset:-250]\n[00:01.000]<00:01.000>사<00:01.200>랑 <00:01.500>해<00:01.900>\n")
    XCTAssertEqual(LRCParser.parse(document.lrcText()).lines, document.lines)
  }
}
