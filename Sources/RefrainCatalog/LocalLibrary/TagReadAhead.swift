import Foundation

/// Reads the tags of a list of files on background threads, ahead of the one thread that
/// writes them, and hands the rows over in list order.
///
/// Each reading thread claims the next chunk of files, reads it and publishes it. The writer
/// waits for rows outside its transaction (``waitForRows(through:)``), then takes the rows
/// that are ready (``poll(_:)``) and commits when it catches up, so it never holds the write
/// lock while a slow disk is read. The readers stay at most ``window`` files ahead, so a large
/// library never holds more than that many rows in memory.
final class TagReadAhead: @unchecked Sendable {
  /// A file's row, or why its tags could not be read.
  typealias Outcome = Result<LocalTrackRow, Failure>

  /// Why a file's tags could not be read, and the file with its size and modification time.
  struct Failure: Error {
    var error: TagReadError
    var file: FoundFile
  }

  /// Files claimed at once by one reading thread.
  static let chunk = 32

  private let files: [FoundFile]
  private let reader: any TagReader
  private let window: Int
  /// Guards everything below.
  private let condition = NSCondition()
  private var outcomes: [Outcome?]
  /// The next chunk a reading thread claims.
  private var nextChunk = 0
  /// How many rows the writer has taken.
  private var taken = 0
  /// How many rows from the start are published (taken or waiting to be).
  private var ready = 0
  private var cancelled = false

  /// Starts reading `files` on `lanes` threads, at most `window` files ahead of the writer.
  init(files: [FoundFile], reader: any TagReader, lanes: Int, window: Int) {
    self.files = files
    self.reader = reader
    self.window = max(Self.chunk, window)
    outcomes = Array(repeating: nil, count: files.count)
    let lanes = max(1, min(lanes, (files.count + Self.chunk - 1) / Self.chunk))
    for _ in 0..<lanes {
      DispatchQueue.global(qos: .userInitiated).async { self.readChunks() }
    }
  }

  /// Waits until the rows up to `index` (clamped to the list) are all read.
  func waitForRows(through index: Int) {
    condition.lock()
    defer { condition.unlock() }
    while ready <= min(index, files.count - 1) { condition.wait() }
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

  /// Stops the reading threads after their current chunk (when the writer gives up).
  func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
  }

  /// One reading thread: claims chunks until none are left.
  private func readChunks() {
    while true {
      condition.lock()
      var start = nextChunk * Self.chunk
      while !cancelled, start < files.count, start >= taken + window {
        condition.wait()
        start = nextChunk * Self.chunk
      }
      guard !cancelled, start < files.count else {
        condition.unlock()
        return
      }
      nextChunk += 1
      condition.unlock()

      let end = min(files.count, start + Self.chunk)
      let read = files[start..<end].map(outcome)
      condition.lock()
      for (offset, value) in read.enumerated() { outcomes[start + offset] = value }
      while ready < files.count, ready < taken || outcomes[ready] != nil { ready += 1 }
      condition.broadcast()
      condition.unlock()
    }
  }

  /// Reads one file and builds its row (a failure's stamp goes in ``failedStamps``).
  ///
  /// A file the walk did not look up takes its size and modification time from the reader's
  /// open file, else from `stat`.
  private func outcome(_ file: FoundFile) -> Outcome {
    do {
      let (info, stamp) = try reader.readStampedTags(atPath: file.path)
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
