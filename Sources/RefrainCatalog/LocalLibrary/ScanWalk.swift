import Foundation
import RefrainTags

/// The walk of the folders a scan indexes, on background threads, so it can start before the
/// library is open and its files can be read while it goes on.
///
/// `refrain scan` starts it first and opens the library meanwhile (creating and migrating a
/// new library file takes about as long as walking a few thousand folders). A first scan of
/// the folders then reads each folder's files as soon as the walk finds them
/// (``stream(into:)``); a rescan, which compares every file with the index, waits for the
/// whole list (``wait()``). Into a new library file every file is new, so the walk can start
/// reading tags at once too (``init(folders:stamps:lanes:readingWith:window:)``).
public final class ScanWalk: @unchecked Sendable {
  /// The canonical paths of the folders that exist, each once, in the order given.
  public let folders: [String]
  /// The folders given that are not readable folders (an unplugged disk).
  public let missingFolders: [String]
  /// When the walk started: a scan's elapsed time counts from here.
  let started: Date
  /// Guards everything below.
  private let condition = NSCondition()
  /// Files found and not yet streamed, in the order found.
  private var found: [FoundFile] = []
  /// The paths found so far, when several folders may hold the same file.
  private var paths: Set<String>?
  private var problems: [String] = []
  /// Audio names that are not readable files (dangling links, pipes).
  private var skipped: [SkippedFile] = []
  private var consumer: TagReadAhead?
  /// The reading started with the walk, if any: it holds every file found so far and every
  /// later one, and is finished when the walk ends.
  let earlyReadAhead: TagReadAhead?
  /// Whether files streamed to ``earlyReadAhead`` are kept too, until a scan takes it.
  private var keepsStreamed: Bool
  private var finished = false

  /// Starts walking `folders` on `lanes` threads; `stamps` looks up every file's size and
  /// modification time, which only a rescan compares.
  ///
  /// With `reader` and without `stamps` (a new library file), the files' tags are read as the
  /// walk finds them, on one thread fewer than `lanes` and at most `window` files ahead,
  /// while the library opens; a scan that finds the folders indexed after all drops them.
  public init(
    folders: [String], stamps: Bool,
    lanes: Int = ProcessInfo.processInfo.activeProcessorCount,
    readingWith reader: (any TagReader)? = nil, window: Int = LocalLibraryScanner.defaultBatchSize
  ) {
    started = Date()
    earlyReadAhead =
      stamps
      ? nil : reader.map { TagReadAhead(reader: $0, lanes: max(1, lanes - 1), window: window) }
    consumer = earlyReadAhead
    keepsStreamed = earlyReadAhead != nil
    var canonical: [String] = []
    var missing: [String] = []
    for folder in folders {
      guard let path = FolderWalker.canonicalFolder(folder) else {
        missing.append(folder)
        continue
      }
      if !canonical.contains(path) { canonical.append(path) }
    }
    self.folders = canonical
    missingFolders = missing
    // One folder may hold another.
    if canonical.count > 1 { paths = [] }
    DispatchQueue.global(qos: .userInitiated).async { [self] in
      var problems: [String] = []
      var skipped: [SkippedFile] = []
      for folder in self.folders {
        let walk = FolderWalker.walk(folder, lanes: lanes, stamps: stamps) { self.receive($0) }
        problems += walk.problems
        skipped += walk.skipped
      }
      condition.lock()
      self.problems = problems.sorted()
      // One folder may hold another: each path once.
      var paths = Set<String>()
      self.skipped = skipped.filter { paths.insert($0.path).inserted }
      finished = true
      consumer?.finish()
      condition.broadcast()
      condition.unlock()
    }
  }

  /// Waits for the walk: every audio file found that was not streamed, sorted by path, the
  /// entries it could not read, and the audio names that are not readable files.
  func wait() -> FolderWalker.Result {
    condition.lock()
    defer { condition.unlock() }
    while !finished { condition.wait() }
    found.sort { FolderWalker.precedes($0.path, $1.path) }
    return FolderWalker.Result(files: found, problems: problems, skipped: skipped)
  }

  /// Appends every file found so far to `readAhead`, and every later one as the walk finds
  /// it; finishes its list when the walk ends.
  func stream(into readAhead: TagReadAhead) {
    condition.lock()
    defer { condition.unlock() }
    if readAhead === earlyReadAhead {
      found = []
      keepsStreamed = false
      return
    }
    readAhead.append(found)
    found = []
    if finished {
      readAhead.finish()
    } else {
      consumer = readAhead
    }
  }

  /// Takes one folder's files from a walking thread.
  private func receive(_ files: [FoundFile]) {
    condition.lock()
    defer { condition.unlock() }
    var files = files
    if paths != nil { files.removeAll { !paths!.insert($0.path).inserted } }
    if let consumer {
      consumer.append(files)
      // Early reading may be dropped for a rescan, which needs the whole list.
      if keepsStreamed { found += files }
    } else {
      found += files
    }
  }
}
