import Foundation
import RefrainTags

/// Reads the tags of a list of files on background threads, ahead of the one thread that
/// writes them, and hands the rows over in list order.
///
/// The list may still grow while it is read: a first scan streams the walk's files in as each
/// folder is read (``append(_:)``, then ``finish()``). Each reading thread claims the next run
/// of files, reads it and publishes it. The writer waits for rows outside its transaction
/// (``waitForRows(from:count:)``), then takes the rows that are ready (``poll(_:)``) and
/// commits when it catches up, so it never holds the write lock while a slow disk is read. The
/// readers stay at most ``window`` files ahead, so a large library never holds more than that
/// many rows in memory.
final class TagReadAhead: @unchecked Sendable {
  /// A file's row, or why its tags could not be read.
  typealias Outcome = Result<LocalTrackRow, Failure>

  /// Why a file's tags could not be read, and the file with its size and modification time.
  struct Failure: Error {
    var error: TagReadError
    var file: FoundFile
  }

  /// The most files one reading thread claims at once.
  static let chunk = 32

  private let reader: any TagReader
  private let window: Int
  /// Guards everything below.
  private let condition = NSCondition()
  private var files: [FoundFile] = []
  private var outcomes: [Outcome?] = []
  /// Whether ``files`` is the whole list.
  private var complete = false
  /// The first file no reading thread has claimed.
  private var nextClaim = 0
  /// How many rows the writer has taken.
  private var taken = 0
  /// How many rows from the start are published (taken or waiting to be).
  private var ready = 0
  private var cancelled = false
  /// Whether files have been slow to read (not in the page cache): from then on each run is
  /// opened and announced to the kernel at once, so the disk reads them in parallel.
  private var prefetch = false
  /// Reading slower than this per file, on average over a run, turns ``prefetch`` on when the
  /// thread waited while reading (see ``waitedForTheDisk(_:_:count:)``).
  static let slowRead = 50e-6

  /// Starts `lanes` reading threads, at most `window` files ahead of the writer, for a list
  /// that ``append(_:)`` fills and ``finish()`` completes.
  init(reader: any TagReader, lanes: Int, window: Int) {
    self.reader = reader
    self.window = max(Self.chunk, window)
    for _ in 0..<max(1, lanes) {
      DispatchQueue.global(qos: .userInitiated).async { self.readChunks() }
    }
  }

  /// Adds files to the end of the list.
  func append(_ more: [FoundFile]) {
    guard !more.isEmpty else { return }
    condition.lock()
    files += more
    outcomes += Array(repeating: nil, count: more.count)
    condition.broadcast()
    condition.unlock()
  }

  /// Marks the list complete: no more files will be appended.
  func finish() {
    condition.lock()
    complete = true
    condition.broadcast()
    condition.unlock()
  }

  /// Waits until the `count` rows from `start` are read, or those up to the end of the
  /// complete list; returns `false` when the list ended before `start`.
  func waitForRows(from start: Int, count: Int) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if complete, start >= files.count { return false }
      let last = complete ? min(start + count, files.count) - 1 : start + count - 1
      if ready > last { return true }
      condition.wait()
    }
  }

  /// The row of file `index` if it is read, else `nil`; take 0, 1, 2, … in turn.
  func poll(_ index: Int) -> Outcome? {
    condition.lock()
    defer { condition.unlock() }
    guard index < ready, let outcome = outcomes[index] else { return nil }
    outcomes[index] = nil
    taken = index + 1
    // A reading thread may be waiting for the window to move on.
    if taken % Self.chunk == 0 { condition.broadcast() }
    return outcome
  }

  /// How many files the list holds so far.
  var count: Int {
    condition.lock()
    defer { condition.unlock() }
    return files.count
  }

  /// Stops the reading threads after their current chunk (when the writer gives up).
  func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
  }

  /// One reading thread: claims runs of files until the list is complete and all are claimed.
  private func readChunks() {
    while true {
      condition.lock()
      while !cancelled, nextClaim >= taken + window || (nextClaim >= files.count && !complete) {
        condition.wait()
      }
      guard !cancelled, nextClaim < files.count else {
        condition.unlock()
        return
      }
      let start = nextClaim
      let end = min(files.count, start + Self.chunk)
      nextClaim = end
      // A copy: a slice would keep the whole list shared, and the next append would copy it.
      let claimed = Array(files[start..<end])
      let advise = prefetch
      condition.unlock()

      let usageBefore = Self.threadUsage()
      let began = DispatchTime.now().uptimeNanoseconds
      let read = advise ? readAdvised(claimed) : claimed.map { outcome($0, descriptor: -1) }
      let seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
      let slow =
        !advise && seconds / Double(claimed.count) > Self.slowRead
        && Self.waitedForTheDisk(usageBefore, Self.threadUsage(), count: claimed.count)
      condition.lock()
      if slow { prefetch = true }
      for (offset, value) in read.enumerated() { outcomes[start + offset] = value }
      while ready < files.count, ready < taken || outcomes[ready] != nil { ready += 1 }
      condition.broadcast()
      condition.unlock()
    }
  }

  /// The calling thread's resource usage.
  private static func threadUsage() -> rusage {
    var usage = rusage()
    // RUSAGE_THREAD (1), which Glibc's module leaves out.
    getrusage(__rusage_who_t(1), &usage)
    return usage
  }

  /// Whether a thread slow over a run of `count` files was waiting rather than computing or
  /// waiting for a core: it read blocks from a disk (`ru_inblock`), or it slept (voluntary
  /// context switches, as on a network file system) for at least a quarter of the files.
  /// Sharing the cores with the walk and the writer makes a run just as slow by the clock,
  /// with neither.
  static func waitedForTheDisk(_ before: rusage, _ after: rusage, count: Int) -> Bool {
    after.ru_inblock > before.ru_inblock || (after.ru_nvcsw - before.ru_nvcsw) * 4 >= count
  }

  /// Reads a run of files after opening them all and asking the kernel for the first bytes
  /// of each: from a cold disk the reads overlap (a first scan of 10,000 files with the page
  /// cache dropped: 1.19 s → 0.60 s).
  private func readAdvised(_ run: [FoundFile]) -> [Outcome] {
    let descriptors = run.map { file in
      let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
      if descriptor >= 0 {
        _ = posix_fadvise(descriptor, 0, off_t(ID3TagReader.headBytes), POSIX_FADV_WILLNEED)
      }
      return descriptor
    }
    return zip(run, descriptors).map { file, descriptor in
      defer { if descriptor >= 0 { close(descriptor) } }
      return outcome(file, descriptor: descriptor)
    }
  }

  /// Reads one file and builds its row (a failure's stamp goes in ``failedStamps``).
  ///
  /// A file the walk did not look up takes its size and modification time from the reader's
  /// open file, else from `stat`.
  private func outcome(_ file: FoundFile, descriptor: Int32) -> Outcome {
    do {
      // A file that could not be opened here is read by path, for the reader's own error.
      let (info, stamp) =
        descriptor >= 0
        ? try reader.readStampedTags(atPath: file.path, descriptor: descriptor)
        : try reader.readStampedTags(atPath: file.path)
      return .success(LocalTrackRow(info, file: stamped(file, stamp)))
    } catch {
      let reason = (error as? TagReadError) ?? TagReadError("\(error)")
      return .failure(TagReadAhead.Failure(error: reason, file: stamped(file, nil)))
    }
  }

  /// `file` with its size and modification time filled in when the walk left them out.
  private func stamped(_ file: FoundFile, _ stamp: FileStamp?) -> FoundFile {
    guard !file.isStamped else { return file }
    var file = file
    // A file that vanished since the walk keeps 0: the next scan reads it again.
    let stamp = stamp ?? FileStamp.of(path: file.path) ?? FileStamp(size: 0, mtime: 0)
    file.size = stamp.size
    file.mtime = stamp.mtime
    return file
  }
}
