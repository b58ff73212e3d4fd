import Foundation
import GRDB
import RefrainTestSupport
import XCTest

@testable import RefrainCatalog
@testable import RefrainTags

/// Scanning generated folders of tagged MP3s: first scan, rescans after changes, failures.
final class LocalLibraryScanTests: XCTestCase {
  private var store: LibraryStore!
  private var music: URL!
  private var manifest: [[String: Any]] = []
  private var scanner: LocalLibraryScanner!

  override func setUpWithError() throws {
    let folder = try LibraryTestSupport.temporaryFolder(self)
    music = folder.appendingPathComponent("Music", isDirectory: true)
    manifest = try LibraryTestSupport.makeFixture(count: 200, in: music)
    store = try LibraryStore(fileURL: folder.appendingPathComponent("library.sqlite"))
    scanner = LocalLibraryScanner(store: store, tagReader: ID3TagReader(), batchSize: 64)
  }

  private var brokenCount: Int { manifest.filter { $0["style"] as? String == "broken" }.count }

  private func row(_ relative: String) throws -> Row? {
    try store.read { db in
      try Row.fetchOne(
        db, sql: "SELECT * FROM local_tracks WHERE path = ?",
        arguments: [music.appendingPathComponent(relative).path])
    }
  }

  private func count(_ table: String) throws -> Int {
    try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
  }

  // MARK: - First scan

  func testFirstScanIndexesEveryMP3AndReportsTheBrokenOnes() throws {
    var reports: [ScanProgress] = []
    let summary = try scanner.scan(folders: [music.path]) { reports.append($0) }
    XCTAssertEqual(summary.added, manifest.count - brokenCount)
    XCTAssertEqual(summary.failed, brokenCount)
    XCTAssertEqual(summary.failures.count, brokenCount)
    XCTAssertEqual([summary.updated, summary.removed, summary.unchanged], [0, 0, 0])
    XCTAssertEqual(try count("local_tracks"), manifest.count - brokenCount)
    XCTAssertEqual(try count("local_scan_failures"), brokenCount)
    let last = try XCTUnwrap(reports.last)
    XCTAssertEqual(last.filesDone, manifest.count)
    XCTAssertEqual(last.filesTotal, manifest.count)
    XCTAssertGreaterThan(last.filesPerSecond, 0)
    // New rows reach the full-text tables at the end of each transaction, and before a
    // broken file's removal between them.
    try LibraryTestSupport.checkFullText(store)
  }

  func testAFirstScanBuildsTheTrackIndexesAfterItsRows() throws {
    var first = scanner!
    first.deferIndexesFrom = 1
    let summary = try first.scan(folders: [music.path])
    XCTAssertEqual(summary.added, manifest.count - brokenCount)
    XCTAssertTrue(try store.read(LocalLibrarySchema.hasTrackIndexes))
    try LibraryTestSupport.checkFullText(store)
    // Only an empty index loses them for a while.
    XCTAssertFalse(try store.write(LocalLibrarySchema.dropTrackIndexesWhenEmpty))
    XCTAssertTrue(try store.read(LocalLibrarySchema.hasTrackIndexes))
  }

  func testOpeningTheLibraryRebuildsIndexesAKilledScanLeftOut() throws {
    XCTAssertTrue(try store.write(LocalLibrarySchema.dropTrackIndexesWhenEmpty))
    XCTAssertFalse(try store.read(LocalLibrarySchema.hasTrackIndexes))
    let reopened = try LibraryStore(fileURL: store.fileURL)
    XCTAssertTrue(try reopened.read(LocalLibrarySchema.hasTrackIndexes))
  }

  func testIndexedTagsMatchWhatTheFixtureWrote() throws {
    try scanner.scan(folders: [music.path])
    var checked = 0
    for entry in manifest {
      let relative = try XCTUnwrap(entry["path"] as? String)
      let style = entry["style"] as? String
      guard style != "broken" else {
        XCTAssertNil(try row(relative))
        continue
      }
      let indexed = try XCTUnwrap(try row(relative), relative)
      let title: String = indexed["title"]
      if let tags = entry["tags"] as? [String: Any] {
        XCTAssertEqual(title, tags["title"] as? String, relative)
        XCTAssertEqual(indexed["artist"] as String?, tags["artist"] as? String, relative)
        XCTAssertEqual(indexed["album"] as String?, tags["album"] as? String, relative)
        XCTAssertEqual(indexed["track_number"] as Int?, tags["track"] as? Int, relative)
        XCTAssertEqual(indexed["year"] as Int?, tags["year"] as? Int, relative)
      } else {
        // No tags: the title is the file name without its extension.
        let name = URL(fileURLWithPath: relative).deletingPathExtension().lastPathComponent
        XCTAssertEqual(title, name, relative)
        XCTAssertNil(indexed["artist"] as String?)
      }
      let duration: Double? = indexed["duration"]
      XCTAssertEqual(try XCTUnwrap(duration, relative), 1.07, accuracy: 0.1)
      let lyrics: String? = indexed["lyrics_path"]
      if let sidecar = entry["lyrics"] as? String {
        let expected = music.appendingPathComponent(relative).deletingLastPathComponent()
          .appendingPathComponent(sidecar).path
        XCTAssertEqual(lyrics, expected, relative)
        XCTAssertEqual(indexed["has_lrc"] as Bool, true)
      } else {
        XCTAssertNil(lyrics, relative)
      }
      checked += 1
    }
    XCTAssertEqual(checked, manifest.count - brokenCount)
  }

  func testHostileTitlesAreStoredAsTheTagsHoldThem() throws {
    try scanner.scan(folders: [music.path])
    let titles = try store.read { db in
      try String.fetchAll(
        db, sql: "SELECT title FROM local_tracks WHERE title LIKE '%' || char(27) || '%'")
    }
    XCTAssertFalse(titles.isEmpty, "the fixture has titles with escape sequences")
  }

  func testArtistsAndAlbumsAreGrouped() throws {
    try scanner.scan(folders: [music.path])
    let tagged = manifest.compactMap { $0["tags"] as? [String: Any] }
    let artists = Set(tagged.compactMap { ($0["artist"] as? String)?.lowercased() })
      .union(tagged.compactMap { ($0["album_artist"] as? String)?.lowercased() })
    XCTAssertEqual(try count("local_artists"), artists.count)
    let orphans = try store.read { db in
      try Int.fetchOne(
        db,
        sql:
          "SELECT COUNT(*) FROM local_albums a WHERE NOT EXISTS (SELECT 1 FROM local_tracks t WHERE t.album_id = a.id)"
      )
    }
    XCTAssertEqual(orphans, 0)
  }

  // MARK: - Rescans

  func testARescanWithNothingChangedReadsNothing() throws {
    try scanner.scan(folders: [music.path])
    let counting = CountingReader()
    let again = try LocalLibraryScanner(store: store, tagReader: counting).scan(folders: [
      music.path
    ])
    XCTAssertEqual(again.unchanged, manifest.count)
    XCTAssertEqual([again.added, again.updated, again.removed, again.failed], [0, 0, 0, 0])
    XCTAssertEqual(counting.count, 0)
  }

  func testAFirstScanWithAReaderThatGivesNoStampLooksFilesUp() throws {
    // The walk of a first scan leaves sizes and times to the reader; this one gives none.
    let plain = LocalLibraryScanner(store: store, tagReader: PlainReader(), batchSize: 64)
    let summary = try plain.scan(folders: [music.path])
    XCTAssertEqual(summary.failed, brokenCount)
    let relative = try XCTUnwrap(
      manifest.first { $0["style"] as? String == "v24" }?["path"] as? String)
    let path = music.appendingPathComponent(relative).path
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber
    XCTAssertEqual(try row(relative)?["size"] as Int64?, size?.int64Value)
    let counting = CountingReader()
    let again = try LocalLibraryScanner(store: store, tagReader: counting).scan(folders: [
      music.path
    ])
    XCTAssertEqual(again.unchanged, manifest.count)
    XCTAssertEqual(counting.count, 0)
  }

  func testARescanSeesModifiedDeletedAddedAndNewLyrics() throws {
    try scanner.scan(folders: [music.path])
    let tagged = manifest.filter { ($0["style"] as? String) == "v24" && $0["lyrics"] is NSNull }
    let paths = tagged.compactMap { $0["path"] as? String }
    XCTAssertGreaterThan(paths.count, 5)
    let manager = FileManager.default

    // Modified: a new tag in front of the same audio.
    let modified = music.appendingPathComponent(paths[0])
    let audio = try Data(contentsOf: modified).dropFirst(try tagSize(of: modified))
    let frames = ID3Fixture.frame("TIT2", [3] + Array("Changed Title".utf8), version: 4)
    try (Data(ID3Fixture.tag(version: 4, frames: frames)) + audio).write(to: modified)
    // Deleted: two files.
    try manager.removeItem(at: music.appendingPathComponent(paths[1]))
    try manager.removeItem(at: music.appendingPathComponent(paths[2]))
    // Added: a copy in a new folder.
    let added = music.appendingPathComponent("New Folder/Deep/새 노래.mp3")
    try manager.createDirectory(
      at: added.deletingLastPathComponent(), withIntermediateDirectories: true)
    try manager.copyItem(at: music.appendingPathComponent(paths[3]), to: added)
    // Lyrics appear next to an unchanged file.
    let withLyrics = music.appendingPathComponent(paths[4])
    let sidecar = withLyrics.deletingPathExtension().appendingPathExtension("lrc")
    try "[00:00.10]new lyrics\n".write(to: sidecar, atomically: true, encoding: .utf8)

    let summary = try scanner.scan(folders: [music.path])
    XCTAssertEqual(summary.added, 1)
    XCTAssertEqual(summary.updated, 2)
    XCTAssertEqual(summary.removed, 2)
    XCTAssertEqual(summary.unchanged, manifest.count - 4)  // 2 deleted, 2 changed
    XCTAssertEqual(summary.failed, 0)
    XCTAssertEqual(try row(paths[0])?["title"] as String?, "Changed Title")
    XCTAssertNil(try row(paths[1]))
    XCTAssertNotNil(try row("New Folder/Deep/새 노래.mp3"))
    XCTAssertEqual(try row(paths[4])?["lyrics_path"] as String?, sidecar.path)
    try LibraryTestSupport.checkFullText(store)
  }

  func testABrokenFileBeforeAChangedOneInOneBatchLeavesBothRight() throws {
    try scanner.scan(folders: [music.path])
    // Only these two are read again, so one transaction handles both: the removal runs
    // the full-text deletes through GRDB, then the changed file's update runs them again.
    let paths = manifest.filter { ($0["style"] as? String) == "v24" }
      .compactMap { $0["path"] as? String }
      .map { music.appendingPathComponent($0).path }
      .sorted { FolderWalker.precedes($0, $1) }
    let broken = URL(fileURLWithPath: try XCTUnwrap(paths.first))
    let changed = URL(fileURLWithPath: paths[1])
    try Data(repeating: 0x55, count: 4096).write(to: broken)
    let audio = try Data(contentsOf: changed).dropFirst(try tagSize(of: changed))
    let frames = ID3Fixture.frame("TIT2", [3] + Array("Renamed".utf8), version: 4)
    try (Data(ID3Fixture.tag(version: 4, frames: frames)) + audio).write(to: changed)

    let summary = try scanner.scan(folders: [music.path])
    XCTAssertEqual(summary.failed, 1)  // The files broken before are unchanged.
    XCTAssertEqual(summary.updated, 1)
    XCTAssertNil(try row(broken.path.dropFirst(music.path.count + 1).description))
    let renamed = try store.read { db in
      try Int.fetchOne(
        db,
        sql: """
          SELECT COUNT(*) FROM local_track_words w JOIN local_tracks t ON t.id = w.rowid
          WHERE local_track_words MATCH 'renamed' AND t.path = ?
          """, arguments: [changed.path])
    }
    XCTAssertEqual(renamed, 1)
    try LibraryTestSupport.checkFullText(store)
  }

  func testATouchedFileIsReadAgainAndKeepsItsRow() throws {
    try scanner.scan(folders: [music.path])
    let relative = try XCTUnwrap(
      manifest.first { $0["style"] as? String == "v23" }?["path"] as? String)
    let before: Int64? = try row(relative)?["id"]
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: 60)],
      ofItemAtPath: music.appendingPathComponent(relative).path)
    let summary = try scanner.scan(folders: [music.path])
    XCTAssertEqual(summary.updated, 1)
    XCTAssertEqual(try row(relative)?["id"] as Int64?, before)
  }

  func testDeletingAWholeAlbumRemovesItsAlbumAndArtistRows() throws {
    try scanner.scan(folders: [music.path])
    let albumsBefore = try count("local_albums")
    let loose = manifest.compactMap { $0["path"] as? String }.filter { $0.hasPrefix("Loose/") }
    XCTAssertFalse(loose.isEmpty)
    let victim = try XCTUnwrap(
      manifest.first {
        ($0["path"] as? String)?.hasPrefix("Loose/") == false && $0["tags"] is [String: Any]
      })
    let folder = music.appendingPathComponent(try XCTUnwrap(victim["path"] as? String))
      .deletingLastPathComponent()
    try FileManager.default.removeItem(at: folder)
    let summary = try scanner.scan(folders: [music.path])
    XCTAssertGreaterThan(summary.removed, 0)
    XCTAssertLessThan(try count("local_albums"), albumsBefore + 1)
    let orphans = try store.read { db in
      try Int.fetchOne(
        db,
        sql: """
          SELECT COUNT(*) FROM local_artists r
          WHERE NOT EXISTS (SELECT 1 FROM local_tracks t WHERE t.artist_id = r.id)
            AND NOT EXISTS (SELECT 1 FROM local_albums a WHERE a.artist_id = r.id)
          """)
    }
    XCTAssertEqual(orphans, 0)
  }

  func testAMissingFolderKeepsItsTracks() throws {
    try scanner.scan(folders: [music.path])
    let missing = music.path + "-unplugged"
    let summary = try scanner.scan(folders: [missing])
    XCTAssertEqual(summary.missingFolders, [missing])
    XCTAssertEqual(summary.removed, 0)
    XCTAssertEqual(try count("local_tracks"), manifest.count - brokenCount)
  }

  func testScanningASubfolderOnlyTouchesThatSubfolder() throws {
    try scanner.scan(folders: [music.path])
    let loose = music.appendingPathComponent("Loose")
    let inside = try FileManager.default.contentsOfDirectory(atPath: loose.path)
      .filter { $0.lowercased().hasSuffix(".mp3") }
    try FileManager.default.removeItem(
      at: loose.appendingPathComponent(try XCTUnwrap(inside.first)))
    let summary = try scanner.scan(folders: [loose.path])
    XCTAssertEqual(summary.removed, 1)
    XCTAssertEqual(summary.unchanged, inside.count - 1)
    XCTAssertEqual(try count("local_tracks"), manifest.count - brokenCount - 1)
    XCTAssertEqual(Set(try scanner.knownFolders()), [music.path, loose.path])
  }

  func testAFixedBrokenFileIsIndexedOnTheNextScan() throws {
    try scanner.scan(folders: [music.path])
    let broken = music.appendingPathComponent("Broken/not-audio-0.mp3")
    try Data(ID3Fixture.cbrFrames(30)).write(to: broken)
    let summary = try scanner.scan(folders: [music.path])
    XCTAssertEqual(summary.added, 1)
    XCTAssertEqual(summary.failed, 0)
    XCTAssertEqual(try row("Broken/not-audio-0.mp3")?["title"] as String?, "not-audio-0")
    XCTAssertEqual(try count("local_scan_failures"), brokenCount - 1)
  }

  func testAFirstScanOfAFolderAndOneInsideItIndexesEachFileOnce() throws {
    // The walk streams files to the readers as it finds them; both folders lead to Loose.
    let loose = music.appendingPathComponent("Loose")
    let summary = try scanner.scan(folders: [loose.path, music.path])
    XCTAssertEqual(summary.added, manifest.count - brokenCount)
    XCTAssertEqual(summary.failed, brokenCount)
    XCTAssertEqual(summary.folders, [loose.path, music.path])
    XCTAssertEqual(try count("local_tracks"), manifest.count - brokenCount)
    try LibraryTestSupport.checkFullText(store)
  }

  func testAWalkStartedBeforeTheLibraryKnewTheFilesReadsThemAgain() throws {
    try scanner.scan(folders: [music.path])
    // `refrain scan` walks without sizes and times when the library file is new; if another
    // scan filled it meanwhile, every file is read again and keeps its row.
    let before = try store.read { db in
      try Int64.fetchAll(db, sql: "SELECT id FROM local_tracks ORDER BY path")
    }
    let walk = ScanWalk(folders: [music.path], stamps: false)
    let summary = try scanner.scan(walk)
    XCTAssertEqual(summary.added, 0)
    XCTAssertEqual(summary.updated, manifest.count - brokenCount)
    XCTAssertEqual(summary.failed, brokenCount)
    let after = try store.read { db in
      try Int64.fetchAll(db, sql: "SELECT id FROM local_tracks ORDER BY path")
    }
    XCTAssertEqual(after, before)
    // With the sizes and times now stored, the next scan reads nothing.
    let again = try scanner.scan(ScanWalk(folders: [music.path], stamps: true))
    XCTAssertEqual(again.unchanged, manifest.count)
    try LibraryTestSupport.checkFullText(store)
  }

  func testAWalkThatReadsTagsFromTheStartIndexesEveryFileOnce() throws {
    // Into a new library file, `refrain scan` reads tags while the library opens.
    let reader = InstrumentedReader()
    let walk = ScanWalk(folders: [music.path], stamps: false, readingWith: reader)
    let summary = try scanner.scan(walk)
    XCTAssertEqual(summary.added, manifest.count - brokenCount)
    XCTAssertEqual(summary.failed, brokenCount)
    XCTAssertEqual(reader.reads, manifest.count, "each file read once, by the walk's readers")
    XCTAssertEqual(try count("local_tracks"), manifest.count - brokenCount)
    try LibraryTestSupport.checkFullText(store)
    let again = try scanner.scan(folders: [music.path])
    XCTAssertEqual(again.unchanged, manifest.count)
  }

  func testAWalkThatReadTagsEarlyIntoAnIndexedFolderRescansIt() throws {
    try scanner.scan(folders: [music.path])
    // Another scan filled the library after this walk started reading: its reads are
    // dropped, and the files are compared with the index like any rescan's.
    let walk = ScanWalk(folders: [music.path], stamps: false, readingWith: InstrumentedReader())
    let summary = try scanner.scan(walk)
    XCTAssertEqual(summary.added, 0)
    XCTAssertEqual(summary.updated, manifest.count - brokenCount)
    XCTAssertEqual(summary.failed, brokenCount)
    XCTAssertEqual(try count("local_tracks"), manifest.count - brokenCount)
    try LibraryTestSupport.checkFullText(store)
  }

  func testAnArtistAndAlbumAddedByAnotherScanMeanwhileAreReused() throws {
    // A first scan inserts artists and albums without looking them up; one that another
    // scan added since the first transaction must be found, not duplicated or failed on.
    try store.write { db in
      XCTAssertTrue(try LocalLibraryIndex.hasNoArtistsOrAlbums(db))
      var index = LocalLibraryIndex()
      index.insertsFirst = true
      let info = LocalTrackInfo(title: "첫눈", artist: "달빛 우체국", album: "밤의 편지")
      let first = FoundFile(path: "/music/a.mp3", size: 1, mtime: 1, lyricsPath: nil)
      var other = LocalLibraryIndex()
      let statements = try LocalLibraryIndex.Statements(db)
      // Unrelated rows first, so track, album and artist IDs differ.
      for name in ["z1", "z2"] {
        let file = FoundFile(path: "/music/\(name).mp3", size: 1, mtime: 1, lyricsPath: nil)
        let blue = LocalTrackInfo(title: name, artist: "Nina Blue", album: "Blue")
        try other.upsert(LocalTrackRow(blue, file: file), now: 1, with: statements)
      }
      try other.upsert(LocalTrackRow(info, file: first), now: 1, with: statements)
      let second = FoundFile(path: "/music/b.mp3", size: 1, mtime: 1, lyricsPath: nil)
      XCTAssertTrue(try index.upsert(LocalTrackRow(info, file: second), now: 2, with: statements))
      try statements.flush()
    }
    XCTAssertEqual(try count("local_artists"), 2)
    XCTAssertEqual(try count("local_albums"), 2)
    let owners = try store.read { db in
      try String.fetchAll(
        db,
        sql: """
          SELECT t.path || ' ' || a.title || ' ' || r.name FROM local_tracks t
          JOIN local_albums a ON a.id = t.album_id JOIN local_artists r ON r.id = t.artist_id
          WHERE t.title = '첫눈' ORDER BY t.path
          """)
    }
    XCTAssertEqual(owners, ["/music/a.mp3 밤의 편지 달빛 우체국", "/music/b.mp3 밤의 편지 달빛 우체국"])
    try LibraryTestSupport.checkFullText(store)
  }

  func testSlowReadsSwitchToOpeningEachRunAtOnce() throws {
    // Files slow to read (a cold disk) make the reading thread open each later run of files
    // and announce it to the kernel before reading; every file is still indexed right, from
    // the descriptor it was given, and every descriptor is closed.
    _ = try count("local_tracks")  // the library's reading connection is open from here on
    let openBefore = try openDescriptors()
    let reader = InstrumentedReader(delay: .waiting)
    let summary = try LocalLibraryScanner(store: store, tagReader: reader, batchSize: 64)
      .scan(folders: [music.path])
    XCTAssertEqual(summary.added, manifest.count - brokenCount)
    XCTAssertEqual(summary.failed, brokenCount)
    XCTAssertGreaterThan(reader.byPath, 0, "the first run, by path")
    XCTAssertGreaterThan(reader.byDescriptor, manifest.count / 2, "later runs, opened at once")
    XCTAssertEqual(reader.badDescriptors, 0)
    XCTAssertEqual(try openDescriptors(), openBefore)
    try LibraryTestSupport.checkFullText(store)
  }

  func testReadsSlowedByABusyCoreKeepReadingOneFileAtATime() throws {
    // Slow by the clock but never waiting (another thread holds the core, as when the walk,
    // the reader and the writer share two): no prefetching, every file read by path.
    let reader = InstrumentedReader(delay: .busy)
    let summary = try LocalLibraryScanner(store: store, tagReader: reader, batchSize: 64)
      .scan(folders: [music.path])
    XCTAssertEqual(summary.added, manifest.count - brokenCount)
    XCTAssertEqual(reader.byDescriptor, 0)
  }

  /// How many file descriptors this process has open.
  private func openDescriptors() throws -> Int {
    try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
  }

  func testSymbolicLinkLoopsDoNotHangTheScan() throws {
    try FileManager.default.createSymbolicLink(
      atPath: music.appendingPathComponent("Loose/loop").path, withDestinationPath: music.path)
    let summary = try scanner.scan(folders: [music.path])
    XCTAssertEqual(summary.added + summary.failed, manifest.count)
  }

  // MARK: - Helpers

  /// The size of the ID3v2 tag at the start of a file.
  private func tagSize(of url: URL) throws -> Int {
    let head = [UInt8](try Data(contentsOf: url).prefix(10))
    return try XCTUnwrap(ID3v2Tag.totalSize(header: head))
  }
}

/// A tag reader that counts its calls and reads nothing.
private final class CountingReader: TagReader, @unchecked Sendable {
  private let lock = NSLock()
  private var calls = 0

  var count: Int { lock.withLock { calls } }

  func readTags(atPath path: String) throws -> LocalTrackInfo {
    lock.withLock { calls += 1 }
    return LocalTrackInfo(title: "counted")
  }
}

/// ``ID3TagReader`` that counts how each file was read (by path, or from a descriptor the
/// scan opened, checked to be that file's), optionally 0.2 ms slower per file read by path.
private final class InstrumentedReader: TagReader, @unchecked Sendable {
  /// How a file read by path is slowed down.
  enum Delay {
    case none
    /// Sleeping, like a thread waiting for a cold disk.
    case waiting
    /// Spinning, like a thread that waits for a core rather than the disk.
    case busy
  }

  private let delay: Delay
  private let lock = NSLock()
  private var paths = 0
  private var descriptors = 0
  private var bad = 0

  init(delay: Delay = .none) { self.delay = delay }

  var byPath: Int { lock.withLock { paths } }
  var byDescriptor: Int { lock.withLock { descriptors } }
  var badDescriptors: Int { lock.withLock { bad } }
  var reads: Int { lock.withLock { paths + descriptors } }

  func readTags(atPath path: String) throws -> LocalTrackInfo {
    try readStampedTags(atPath: path).0
  }

  func readStampedTags(atPath path: String) throws -> (LocalTrackInfo, FileStamp?) {
    lock.withLock { paths += 1 }
    switch delay {
    case .none: break
    case .waiting: usleep(200)
    case .busy:
      let until = DispatchTime.now().uptimeNanoseconds + 200_000
      while DispatchTime.now().uptimeNanoseconds < until {}
    }
    return try ID3TagReader().readStampedTags(atPath: path)
  }

  func readStampedTags(atPath path: String, descriptor: Int32) throws
    -> (LocalTrackInfo, FileStamp?)
  {
    // The descriptor must be open, at the start of the file at `path`.
    var opened = stat()
    var named = stat()
    let same =
      fstat(descriptor, &opened) == 0 && stat(path, &named) == 0
      && opened.st_ino == named.st_ino && lseek(descriptor, 0, SEEK_CUR) == 0
    lock.withLock {
      descriptors += 1
      if !same { bad += 1 }
    }
    return try ID3TagReader().readStampedTags(atPath: path, descriptor: descriptor)
  }
}

/// ``ID3TagReader`` behind the protocol's plain requirement only (no size or time).
private struct PlainReader: TagReader {
  func readTags(atPath path: String) throws -> LocalTrackInfo {
    try ID3TagReader().readTags(atPath: path)
  }
}
