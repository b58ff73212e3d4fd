import Foundation
import GRDB
import RefrainTags

/// Indexes the audio files in the user's folders into the library file, and names every one
/// it leaves out, with the reason (``ScanSummary/skipped``).
///
/// A scan walks the folders, skips files whose size and modification time are unchanged,
/// reads the tags of new and changed files on the other cores (``TagReadAhead``), and writes them
/// on the calling thread in transactions of up to ``batchSize`` files; a transaction ends
/// early rather than wait for the disk. Indexed files under the scanned folders that are gone
/// are dropped; a folder that does not exist (an unplugged disk) is reported and its tracks are
/// kept. A file that failed before and has not changed is not read again, but it is reported
/// again with its stored reason; one that could not be opened is read again (its permissions
/// may have changed without its modification time).
public struct LocalLibraryScanner: Sendable {
  /// The library the index lives in.
  public let store: LibraryStore
  /// Reads each file's tags and duration.
  public let tagReader: any TagReader
  /// The most files written per transaction (about 60 ms of writing on a 2-core machine).
  public var batchSize: Int
  /// ``batchSize`` unless set.
  public static let defaultBatchSize = 2000
  /// Threads that walk folders at once; tags are read on one fewer (the writer needs a core).
  public var concurrency: Int
  /// Rows a transaction waits for before it starts (unless fewer are left).
  static let minimumRun = 256
  /// From this many files to read, a scan into an empty index builds the indexes on
  /// `local_tracks` after the rows (10,000 files: about 10 ms less CPU on the writing thread).
  var deferIndexesFrom = 1000

  /// Creates a scanner.
  public init(
    store: LibraryStore, tagReader: any TagReader, batchSize: Int = defaultBatchSize,
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
    // With nothing indexed under these folders, every file is read: its size and time come
    // from the reading thread's `fstat`, not one `stat` a file in the walk.
    let stamps = try hasIndexedFiles(under: folders.compactMap(FolderWalker.canonicalFolder))
    let walk = ScanWalk(folders: folders, stamps: stamps, lanes: concurrency)
    return try scan(walk, progress: progress)
  }

  /// Indexes the files `walk` finds (it may still be running); `progress` is called on the
  /// calling thread, at most about ten times a second and once at the end.
  public func scan(_ walk: ScanWalk, progress: @escaping (ScanProgress) -> Void = { _ in })
    throws -> ScanSummary
  {
    let start = walk.started
    var summary = ScanSummary()
    summary.folders = walk.folders
    summary.missingFolders = walk.missingFolders
    let known = try knownFiles(under: summary.folders)
    // One core is the writer's: a reading thread more only takes turns with it (10,000 files
    // on 2 cores: 0.36 s with two reading threads, 0.32 s with one).
    // A walk into a new library file may have started reading already.
    let readAhead: TagReadAhead
    if known.isEmpty, let early = walk.earlyReadAhead {
      readAhead = early
    } else {
      walk.earlyReadAhead?.cancel()
      readAhead = TagReadAhead(
        reader: tagReader, lanes: max(1, concurrency - 1), window: max(batchSize, 1024))
    }
    defer { readAhead.cancel() }
    var meter = ProgressMeter(start: start, report: progress)
    var failedBefore = Set<String>()
    var mayLeaveOrphans = false
    if known.isEmpty {
      // Nothing under these folders is indexed, so every file is new: each folder's files
      // are read as soon as the walk finds them, and written while it goes on.
      walk.stream(into: readAhead)
    } else {
      let changes = try applyUnchanged(walk.wait(), known: known, summary: &summary)
      failedBefore = changes.failedBefore
      mayLeaveOrphans = changes.mayLeaveOrphans
      meter.advance(to: summary.unchanged + summary.updated, of: changes.total)
      readAhead.append(changes.toRead)
      readAhead.finish()
    }
    var index = LocalLibraryIndex()
    // Into an empty index, the rows go in first and their indexes are built at the end (the
    // last transaction below, or the next open should this process die first).
    var indexesDropped = false
    do {
      try write(
        with: readAhead, failedBefore: failedBefore, into: &index, summary: &summary,
        meter: &meter
      ) { db in
        if readAhead.count >= deferIndexesFrom {
          indexesDropped = try LocalLibrarySchema.dropTrackIndexesWhenEmpty(db)
        }
      }
    } catch {
      if indexesDropped { try? store.write { db in try LocalLibrarySchema.createTrackIndexes(db) } }
      throw error
    }
    if known.isEmpty {
      let walked = walk.wait()
      summary.problems += walked.problems
      summary.skip(walked.skipped)
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
    summary.failures.sort()
    summary.skipped.sort { ($0.reason, $0.path) < ($1.reason, $1.path) }
    summary.unplayable.sort { ($0.reason, $0.path) < ($1.reason, $1.path) }
    // The lyrics of new and changed sidecars, for search by a line (usually none changed).
    try LyricSearchIndex.refresh(store)
    meter.finish()
    summary.elapsed = Date().timeIntervalSince(start)
    return summary
  }

  /// What a rescan must still do once the unchanged files are counted.
  private struct Changes {
    /// The new and changed files, to read.
    var toRead: [FoundFile] = []
    /// The files whose failure notes go when they index well now.
    var failedBefore = Set<String>()
    /// Whether albums and artists may have lost their last track.
    var mayLeaveOrphans = false
    /// All the files found.
    var total = 0
  }

  /// Compares the files a walk found with the index: counts the unchanged ones, records new
  /// lyrics files, drops the files that are gone, and returns the ones to read.
  private func applyUnchanged(
    _ walked: FolderWalker.Result, known: [String: KnownFile], summary: inout ScanSummary
  ) throws -> Changes {
    summary.problems += walked.problems
    summary.skip(walked.skipped)
    var changes = Changes(total: walked.files.count)
    var lyricsChanged: [FoundFile] = []
    var seen = Set<String>()
    for file in walked.files {
      guard let old = known[file.path] else {
        changes.toRead.append(file)
        continue
      }
      seen.insert(file.path)
      if let failure = old.failure, old.size == file.size, old.mtime == file.mtime {
        if case .unreadable = failure.reason {
          // Permissions change without the modification time: try it again.
          changes.toRead.append(file)
          changes.failedBefore.insert(file.path)
        } else {
          summary.unchanged += 1
          summary.skipped.append(failure)
        }
      } else if old.size == file.size, old.mtime == file.mtime {
        if old.lyricsPath != file.lyricsPath {
          lyricsChanged.append(file)
        } else {
          summary.unchanged += 1
        }
      } else {
        changes.toRead.append(file)
        if old.failure != nil { changes.failedBefore.insert(file.path) }
      }
    }
    let removed = known.keys.filter { !seen.contains($0) }
    // Albums and artists can lose their last track only when a track is removed or re-read.
    changes.mayLeaveOrphans = !removed.isEmpty || !changes.toRead.isEmpty
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
    summary.removed = removed.filter { known[$0]?.failure == nil }.count
    summary.updated = lyricsChanged.count
    return changes
  }

  /// Writes the rows `readAhead` delivers, in list order, in transactions of up to
  /// ``batchSize`` rows; `firstTransaction` runs at the start of the first one.
  ///
  /// `failedBefore` holds the files whose failure notes go when they index well now.
  private func write(
    with readAhead: TagReadAhead, failedBefore: Set<String>,
    into index: inout LocalLibraryIndex,
    summary: inout ScanSummary, meter: inout ProgressMeter,
    firstTransaction: (Database) throws -> Void
  ) throws {
    var next = 0
    // Each transaction starts with a run of rows ready, and ends at `batchSize` rows or
    // where the reading threads are, whichever comes first.
    while readAhead.waitForRows(from: next, count: Self.minimumRun) {
      let end = next + batchSize
      let first = next
      try store.write { db in
        if first == 0 {
          try firstTransaction(db)
          index.insertsFirst = try LocalLibraryIndex.hasNoArtistsOrAlbums(db)
        }
        let statements = try LocalLibraryIndex.Statements(db)
        let now = LibraryStore.now()
        while next < end, let outcome = readAhead.poll(next) {
          next += 1
          switch outcome {
          case .success(let row):
            let isNew = try index.upsert(row, now: now, with: statements)
            if !failedBefore.isEmpty, failedBefore.contains(row.file.path) {
              try db.cachedStatement(sql: "DELETE FROM local_scan_failures WHERE path = ?")
                .execute(arguments: [row.file.path])
            }
            if isNew { summary.added += 1 } else { summary.updated += 1 }
            if let unplayable = row.unplayable { summary.unplayable.append(unplayable) }
          case .failure(let failure):
            let (error, file) = (failure.error, failure.file)
            let skipped = SkippedFile(path: file.path, reason: error.kind, message: error.reason)
            // Deleting reads the full-text rows: index this transaction's new rows first.
            try statements.flush()
            try LocalLibraryIndex.remove(paths: [file.path], in: db)
            try db.execute(
              sql: """
                INSERT OR REPLACE INTO local_scan_failures (path, size, mtime, reason)
                VALUES (?, ?, ?, ?)
                """,
              arguments: [file.path, file.size, file.mtime, skipped.stored])
            summary.failed += 1
            summary.skipped.append(skipped)
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
      meter.advance(to: summary.filesSeen, of: summary.filesSeen + readAhead.count - next)
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
    /// Why it was skipped, when it failed the last time it was read.
    var failure: SkippedFile?
  }

  /// Whether any file under `folders` is indexed or noted as failed.
  private func hasIndexedFiles(under folders: [String]) throws -> Bool {
    try store.read { db in
      for folder in folders {
        let (low, high) = Self.pathRange(under: folder)
        for table in ["local_tracks", "local_scan_failures"] {
          let sql = "SELECT EXISTS (SELECT 1 FROM \(table) WHERE path >= ? AND path < ?)"
          if try Bool.fetchOne(db, sql: sql, arguments: [low, high]) == true { return true }
        }
      }
      return false
    }
  }

  /// The indexed and failed files under `folders`, by path.
  private func knownFiles(under folders: [String]) throws -> [String: KnownFile] {
    try store.read { db in
      var known: [String: KnownFile] = [:]
      for folder in folders {
        let (low, high) = Self.pathRange(under: folder)
        let tracks = try Row.fetchCursor(
          db,
          sql: """
            SELECT path, size, mtime, lyrics_path FROM local_tracks WHERE path >= ? AND path < ?
            """,
          arguments: [low, high])
        while let row = try tracks.next() {
          known[row["path"]] = KnownFile(
            size: row["size"], mtime: row["mtime"], lyricsPath: row["lyrics_path"], failure: nil)
        }
        let failures = try Row.fetchCursor(
          db,
          sql: """
            SELECT path, size, mtime, reason FROM local_scan_failures WHERE path >= ? AND path < ?
            """,
          arguments: [low, high])
        while let row = try failures.next() {
          let path: String = row["path"]
          let reason: String = row["reason"] ?? ""
          known[path] = KnownFile(
            size: row["size"], mtime: row["mtime"], lyricsPath: nil,
            failure: SkippedFile(path: path, stored: reason))
        }
      }
      return known
    }
  }

  /// The bounds of the paths under `folder`: every path under `folder/` sorts between
  /// "folder/" and "folder0" ("0" follows "/").
  private static func pathRange(under folder: String) -> (low: String, high: String) {
    folder == "/" ? ("/", "0") : (folder + "/", folder + "0")
  }
}

/// Turns counts into ``ScanProgress`` reports, at most ten a second.
private struct ProgressMeter {
  let start: Date
  let report: (ScanProgress) -> Void
  private var done = 0
  /// The files found so far (a first scan's walk may still be going).
  private var total = 0
  private var lastReport = Date.distantPast

  init(start: Date, report: @escaping (ScanProgress) -> Void) {
    self.start = start
    self.report = report
  }

  mutating func advance(to count: Int, of total: Int) {
    done = count
    self.total = max(total, count)
    let now = Date()
    if now.timeIntervalSince(lastReport) >= 0.1 {
      lastReport = now
      send(now)
    }
  }

  mutating func finish() {
    total = done
    send(Date())
  }

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
