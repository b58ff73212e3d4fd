import Foundation
import GRDB

/// Indexes the MP3 files in the user's folders into the library file.
///
/// A scan walks the folders, skips files whose size and modification time are unchanged,
/// reads the tags of new and changed files on the other cores (``TagReadAhead``), and writes them
/// on the calling thread in transactions of up to ``batchSize`` files; a transaction ends
/// early rather than wait for the disk. Indexed files under the scanned folders that are gone
/// are dropped; a folder that does not exist (an unplugged disk) is reported and its tracks are
/// kept.
public struct LocalLibraryScanner: Sendable {
  /// The library the index lives in.
  public let store: LibraryStore
  /// Reads each file's tags and duration.
  public let tagReader: any TagReader
  /// The most files written per transaction (about 60 ms of writing on a 2-core machine).
  public var batchSize: Int
  /// Threads that walk folders at once; tags are read on one fewer (the writer needs a core).
  public var concurrency: Int
  /// Rows a transaction waits for before it starts (unless fewer are left).
  static let minimumRun = 256
  /// From this many files to read, a scan into an empty index builds the indexes on
  /// `local_tracks` after the rows (10,000 files: about 10 ms less CPU on the writing thread).
  var deferIndexesFrom = 1000

  /// Creates a scanner.
  public init(
    store: LibraryStore, tagReader: any TagReader, batchSize: Int = 2000,
    concurrency: Int = ProcessInfo.processInfo.activeProcessorCount
  ) {
    self.store = store
    self.tagReader = tagReader
    self.batchSize = max(1, batchSize)
    self.concurrency = max(1, concurrency)
  }

  /// Scans `folders` recursively; `progress` is called on the calling thread, at most about
  /// ten times a second and once at the end.
  public func scan(folders: [String], progress: @escaping (ScanProgress) -> Void = { _ in })
    throws -> ScanSummary
  {
    let start = Date()
    var summary = ScanSummary()
    for folder in folders {
      guard let canonical = FolderWalker.canonicalFolder(folder) else {
        summary.missingFolders.append(folder)
        continue
      }
      guard !summary.folders.contains(canonical) else { continue }
      summary.folders.append(canonical)
    }
    let known = try knownFiles(under: summary.folders)
    var found: [FoundFile] = []
    for folder in summary.folders {
      // With nothing indexed under these folders, every file is read: its size and time
      // come from the reading thread's `fstat`, not one `stat` a file here.
      let walk = FolderWalker.walk(folder, lanes: concurrency, stamps: !known.isEmpty)
      summary.problems += walk.problems
      found += walk.files
    }
    if summary.folders.count > 1 {
      // One folder may hold another: sort the lists together and keep each path once.
      found.sort { FolderWalker.precedes($0.path, $1.path) }
      var unique: [FoundFile] = []
      unique.reserveCapacity(found.count)
      for file in found where unique.last?.path != file.path { unique.append(file) }
      found = unique
    }

    var toRead: [FoundFile] = []
    var lyricsChanged: [FoundFile] = []
    // Failure notes to drop when these files index well this time.
    var failedBefore = Set<String>()
    var seen = known.isEmpty ? nil : Set<String>()
    for file in found {
      guard let old = known.isEmpty ? nil : known[file.path] else {
        toRead.append(file)
        continue
      }
      seen?.insert(file.path)
      if old.size == file.size, old.mtime == file.mtime {
        if old.lyricsPath != file.lyricsPath, !old.failed {
          lyricsChanged.append(file)
        } else {
          summary.unchanged += 1
        }
      } else {
        toRead.append(file)
        if old.failed { failedBefore.insert(file.path) }
      }
    }
    let removed = known.keys.filter { seen?.contains($0) != true }
    let removedTracks = removed.filter { known[$0]?.failed == false }.count
    // Albums and artists can lose their last track only when a track is removed or re-read.
    let mayLeaveOrphans = !known.isEmpty && (!removed.isEmpty || toRead.count > 0)
    if !removed.isEmpty || !lyricsChanged.isEmpty {
      try store.write { db in
        try LocalLibraryIndex.remove(paths: removed, in: db)
        for file in lyricsChanged {
          try db.execute(
            sql: """
              UPDATE local_tracks SET has_lrc = ?, lyrics_path = ?, updated_at = ? WHERE path = ?
              """,
            arguments: [file.hasLyrics, file.lyricsPath, LibraryStore.now(), file.path])
        }
      }
    }
    summary.removed = removedTracks
    summary.updated = lyricsChanged.count

    var meter = ProgressMeter(start: start, total: found.count, report: progress)
    meter.advance(to: summary.unchanged + lyricsChanged.count)
    var index = LocalLibraryIndex()
    // One core is the writer's: a reading thread more only takes turns with it (10,000 files
    // on 2 cores: 0.36 s with two reading threads, 0.32 s with one).
    let readAhead = TagReadAhead(
      files: toRead, reader: tagReader, lanes: max(1, concurrency - 1),
      window: max(batchSize, 1024))
    defer { readAhead.cancel() }
    // Into an empty index, the rows go in first and their indexes are built at the end (the
    // last transaction below, or the next open should this process die first).
    var indexesDropped = false
    do {
      try write(
        toRead, failedBefore: failedBefore, with: readAhead, into: &index, summary: &summary,
        meter: &meter
      ) { db in
        if toRead.count >= deferIndexesFrom {
          indexesDropped = try LocalLibrarySchema.dropTrackIndexesWhenEmpty(db)
        }
      }
    } catch {
      if indexesDropped { try? store.write { db in try LocalLibrarySchema.createTrackIndexes(db) } }
      throw error
    }

    try store.write { db in
      if mayLeaveOrphans { try LocalLibraryIndex.removeOrphans(in: db) }
      try LocalLibrarySchema.createTrackIndexes(db)
      let now = LibraryStore.now()
      for folder in summary.folders {
        try db.execute(
          sql: """
            INSERT INTO local_folders (path, added_at, last_scan_at) VALUES (?, ?, ?)
            ON CONFLICT (path) DO UPDATE SET last_scan_at = excluded.last_scan_at
            """,
          arguments: [folder, now, now])
      }
    }
    meter.finish()
    summary.elapsed = Date().timeIntervalSince(start)
    return summary
  }

  /// Writes the rows of `toRead` as the reading threads deliver them, in transactions of up
  /// to ``batchSize`` rows; `firstTransaction` runs at the start of the first one.
  ///
  /// `failedBefore` holds the files whose failure notes go when they index well now.
  private func write(
    _ toRead: [FoundFile], failedBefore: Set<String>, with readAhead: TagReadAhead,
    into index: inout LocalLibraryIndex,
    summary: inout ScanSummary, meter: inout ProgressMeter,
    firstTransaction: (Database) throws -> Void
  ) throws {
    var next = 0
    while next < toRead.count {
      // Each transaction starts with a run of rows ready, and ends at `batchSize` rows or
      // where the reading threads are, whichever comes first.
      let end = min(toRead.count, next + batchSize)
      readAhead.waitForRows(through: min(end, next + Self.minimumRun) - 1)
      let first = next
      try store.write { db in
        if first == 0 { try firstTransaction(db) }
        let statements = try LocalLibraryIndex.Statements(db)
        let now = LibraryStore.now()
        while next < end, let outcome = readAhead.poll(next) {
          let file = toRead[next]
          next += 1
          switch outcome {
          case .success(let row):
            let isNew = try index.upsert(row, now: now, with: statements)
            if !failedBefore.isEmpty, failedBefore.contains(file.path) {
              try db.cachedStatement(sql: "DELETE FROM local_scan_failures WHERE path = ?")
                .execute(arguments: [file.path])
            }
            if isNew { summary.added += 1 } else { summary.updated += 1 }
          case .failure(let failure):
            let (error, file) = (failure.error, failure.file)
            // Deleting reads the full-text rows: index this transaction's new rows first.
            try statements.flush()
            try LocalLibraryIndex.remove(paths: [file.path], in: db)
            try db.execute(
              sql: """
                INSERT OR REPLACE INTO local_scan_failures (path, size, mtime, reason)
                VALUES (?, ?, ?, ?)
                """,
              arguments: [file.path, file.size, file.mtime, error.reason])
            summary.failed += 1
            if summary.failures.count < 20 {
              // Decoder messages often name the file already.
              let reason =
                error.reason.contains(file.path) ? error.reason : "\(file.path): \(error.reason)"
              summary.failures.append(reason)
            }
          }
        }
        try statements.flush()
      }
      meter.advance(by: next - first)
    }
  }

  /// Indexes tracks without reading files (imports and benchmarks); paths must be unique.
  public func importTracks(_ tracks: [(path: String, info: LocalTrackInfo)]) throws {
    var index = LocalLibraryIndex()
    for batchStart in stride(from: 0, to: tracks.count, by: batchSize) {
      let batch = tracks[batchStart..<min(tracks.count, batchStart + batchSize)]
      try store.write { db in
        let statements = try LocalLibraryIndex.Statements(db)
        let now = LibraryStore.now()
        for track in batch {
          let file = FoundFile(path: track.path, size: 0, mtime: 0, lyricsPath: nil)
          try index.upsert(LocalTrackRow(track.info, file: file), now: now, with: statements)
        }
        try statements.flush()
      }
    }
    try store.write { db in try LocalLibraryIndex.removeOrphans(in: db) }
  }

  /// The folders scanned before, for a rescan of everything.
  public func knownFolders() throws -> [String] {
    try store.read { db in
      try String.fetchAll(db, sql: "SELECT path FROM local_folders ORDER BY path")
    }
  }

  // MARK: - Helpers

  /// What the index holds about one file.
  private struct KnownFile {
    var size: Int64
    var mtime: Int64
    var lyricsPath: String?
    var failed: Bool
  }

  /// The indexed and failed files under `folders`, by path.
  private func knownFiles(under folders: [String]) throws -> [String: KnownFile] {
    try store.read { db in
      var known: [String: KnownFile] = [:]
      for folder in folders {
        // Every path under `folder/` sorts between "folder/" and "folder0" ("0" follows "/").
        let low = folder == "/" ? "/" : folder + "/"
        let high = folder == "/" ? "0" : folder + "0"
        let tracks = try Row.fetchCursor(
          db,
          sql: """
            SELECT path, size, mtime, lyrics_path FROM local_tracks WHERE path >= ? AND path < ?
            """,
          arguments: [low, high])
        while let row = try tracks.next() {
          known[row["path"]] = KnownFile(
            size: row["size"], mtime: row["mtime"], lyricsPath: row["lyrics_path"], failed: false)
        }
        let failures = try Row.fetchCursor(
          db, sql: "SELECT path, size, mtime FROM local_scan_failures WHERE path >= ? AND path < ?",
          arguments: [low, high])
        while let row = try failures.next() {
          known[row["path"]] = KnownFile(
            size: row["size"], mtime: row["mtime"], lyricsPath: nil, failed: true)
        }
      }
      return known
    }
  }
}

/// Turns counts into ``ScanProgress`` reports, at most ten a second.
private struct ProgressMeter {
  let start: Date
  let total: Int
  let report: (ScanProgress) -> Void
  private var done = 0
  private var lastReport = Date.distantPast

  init(start: Date, total: Int, report: @escaping (ScanProgress) -> Void) {
    self.start = start
    self.total = total
    self.report = report
  }

  mutating func advance(by count: Int) { advance(to: done + count) }

  mutating func advance(to count: Int) {
    done = count
    let now = Date()
    if now.timeIntervalSince(lastReport) >= 0.1 {
      lastReport = now
      send(now)
    }
  }

  mutating func finish() { send(Date()) }

  private func send(_ now: Date) {
    let elapsed = now.timeIntervalSince(start)
    let rate = elapsed > 0 ? Double(done) / elapsed : 0
    let remaining = rate > 0 ? Double(total - done) / rate : nil
    report(
      ScanProgress(
        filesDone: done, filesTotal: total, elapsed: elapsed, filesPerSecond: rate,
        estimatedRemaining: remaining))
  }
}
