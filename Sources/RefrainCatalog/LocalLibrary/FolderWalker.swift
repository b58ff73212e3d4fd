import Foundation
import RefrainCore
import RefrainTags

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An audio file found on disk, with what the scanner compares between scans.
struct FoundFile: Sendable, Hashable {
  /// The absolute path.
  var path: String
  /// The size in bytes.
  var size: Int64
  /// The modification time in nanoseconds since 1970.
  var mtime: Int64
  /// The `.lrc` file with the same base name next to it (extension in any case), if any.
  var lyricsPath: String?

  /// Whether a sidecar lyrics file sits next to it.
  var hasLyrics: Bool { lyricsPath != nil }

  /// Whether ``size`` and ``mtime`` are known (a walk without `stat` leaves them at -1).
  var isStamped: Bool { size >= 0 }
}

/// Walks folders for files with audio names (any case; see ``NameKind/audio``), following
/// symbolic links but never in circles.
///
/// It uses `readdir` and `fstatat` relative to the open folder directly: one system call per
/// audio file (and per link or unknown entry), no per-file objects, and a `String` only for
/// the names it keeps. An audio name that is not a readable regular file (a dangling link, a
/// pipe) is returned as skipped, never dropped silently.
enum FolderWalker {
  /// What a walk found: the audio files by path, the entries it could not read, and the
  /// audio names that are not files it can read.
  struct Result {
    var files: [FoundFile] = []
    var problems: [String] = []
    var skipped: [SkippedFile] = []
  }

  /// The canonical absolute path of a folder, or `nil` when it is not a readable folder.
  static func canonicalFolder(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    let canonical = String(cString: resolved)
    var status = stat()
    guard stat(canonical, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return nil }
    return canonical
  }

  /// Every audio file under `root` (a canonical folder path), sorted by path.
  ///
  /// Folders are read on `lanes` threads at once: a walk is mostly system calls, and a
  /// library of small album folders has thousands of them. Without `stamps`, regular files
  /// are not looked up one by one and their size and modification time stay unknown (-1):
  /// a first scan reads every file anyway, and the reader's `fstat` is cheaper.
  ///
  /// With `deliver`, each folder's files go to it as soon as the folder is read, unsorted
  /// (it is called on the walking threads, possibly at once), and the result holds only the
  /// problems.
  static func walk(
    _ root: String, lanes: Int = 2, stamps: Bool = true,
    deliver: (@Sendable ([FoundFile]) -> Void)? = nil
  ) -> Result {
    let work = WalkQueue(root: root)
    let lanes = max(1, lanes)
    var results = Array(repeating: Result(), count: lanes)
    results.withUnsafeMutableBufferPointer { slots in
      // Each lane writes only its own slot.
      nonisolated(unsafe) let slots = slots
      DispatchQueue.concurrentPerform(iterations: lanes) { lane in
        while let folder = work.next() {
          let (found, subfolders) = read(
            folder, stamps: stamps, into: &slots[lane], seen: work.firstVisit)
          if let deliver {
            if !found.isEmpty { deliver(found) }
          } else {
            slots[lane].files += found
          }
          work.finished(adding: subfolders)
        }
        // Each lane sorts its own files, on its own core; the lists are merged below.
        if deliver == nil { slots[lane].files.sort { precedes($0.path, $1.path) } }
      }
    }
    var result = Result()
    for part in results {
      result.files = merge(result.files, part.files)
      result.problems += part.problems
      result.skipped += part.skipped
    }
    result.problems.sort()
    result.skipped.sort { precedes($0.path, $1.path) }
    return result
  }

  /// Merges two lists of files sorted by path (``precedes(_:_:)``) into one.
  private static func merge(_ a: [FoundFile], _ b: [FoundFile]) -> [FoundFile] {
    if a.isEmpty { return b }
    if b.isEmpty { return a }
    var merged: [FoundFile] = []
    merged.reserveCapacity(a.count + b.count)
    var i = 0
    var j = 0
    while i < a.count, j < b.count {
      if precedes(b[j].path, a[i].path) {
        merged.append(b[j])
        j += 1
      } else {
        merged.append(a[i])
        i += 1
      }
    }
    merged += a[i...]
    merged += b[j...]
    return merged
  }

  /// Reads one folder: its audio files with their sidecar lyrics, and its subfolders.
  ///
  /// `seen(device, inode)` says whether the folder is visited for the first time (links can
  /// lead back to it); problems are added to `result`.
  private static func read(
    _ folder: String, stamps: Bool, into result: inout Result,
    seen firstVisit: (UInt64, UInt64) -> Bool
  ) -> ([FoundFile], [String]) {
    guard let directory = opendir(folder) else {
      result.problems.append("\(folder): \(String(cString: strerror(errno)))")
      return ([], [])
    }
    defer { closedir(directory) }
    let descriptor = dirfd(directory)
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      result.problems.append("\(folder): \(String(cString: strerror(errno)))")
      return ([], [])
    }
    guard firstVisit(UInt64(status.st_dev), UInt64(status.st_ino)) else { return ([], []) }
    let prefix = folder == "/" ? "/" : folder + "/"
    var subfolders: [String] = []
    var audio: [(name: String, base: Substring, regular: Bool)] = []
    var lyricNames: [Substring: String] = [:]
    while let entry = readdir(directory) {
      let type = entry.pointee.d_type
      let (kind, name) = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        let bytes = raw.bindMemory(to: UInt8.self)
        let (kind, length, baseLength) = classify(bytes)
        let keep = kind == .audio || kind == .lyrics || mayBeFolder(type)
        return (kind, keep ? (String(decoding: bytes[..<length], as: UTF8.self), baseLength) : nil)
      }
      if kind == .dots { continue }
      if kind == .invalid {
        result.problems.append("\(folder): a file name is not valid UTF-8")
        continue
      }
      guard let (name, baseLength) = name else { continue }
      var isFolder = type == UInt8(DT_DIR)
      if type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN) {
        var target = stat()
        isFolder =
          fstatat(descriptor, name, &target, 0) == 0 && target.st_mode & S_IFMT == S_IFDIR
      }
      if isFolder {
        subfolders.append(prefix + name)
        continue
      }
      // The base is the name before its audio or lyrics extension.
      let base = Substring(name.utf8.prefix(baseLength))
      switch kind {
      case .audio: audio.append((name, base, type == UInt8(DT_REG)))
      case .lyrics: lyricNames[base] = min(lyricNames[base] ?? name, name)
      default: break
      }
    }
    var files: [FoundFile] = []
    files.reserveCapacity(audio.count)
    for file in audio {
      let lyricsPath = lyricNames[file.base].map { prefix + $0 }
      if !stamps, file.regular {
        files.append(
          FoundFile(path: prefix + file.name, size: -1, mtime: -1, lyricsPath: lyricsPath))
        continue
      }
      var info = stat()
      guard fstatat(descriptor, file.name, &info, 0) == 0 else {
        let message = String(cString: strerror(errno))
        result.skipped.append(
          SkippedFile(
            path: prefix + file.name, reason: .unreadable(systemMessage: message),
            message: "cannot read \(prefix + file.name): \(message)"))
        continue
      }
      guard info.st_mode & S_IFMT == S_IFREG else {
        result.skipped.append(
          SkippedFile(
            path: prefix + file.name, reason: .unreadable("not a regular file"),
            message: "\(prefix + file.name) is not a regular file (a pipe, socket or device)"))
        continue
      }
      let stamp = FileStamp(info)
      files.append(
        FoundFile(
          path: prefix + file.name, size: stamp.size, mtime: stamp.mtime, lyricsPath: lyricsPath))
    }
    return (files, subfolders)
  }

  /// Whether `a` sorts before `b` byte by byte, as SQLite compares paths (String's own order
  /// is by Unicode scalars after normalisation, and much slower).
  static func precedes(_ a: String, _ b: String) -> Bool {
    // Native strings lend their bytes without a copy (`withUTF8` needs `var` copies, whose
    // retains and releases made sorting 10,000 paths half as slow again).
    let borrowed = a.utf8.withContiguousStorageIfAvailable { left in
      b.utf8.withContiguousStorageIfAvailable { right in precedes(left, right) }
    }
    if let borrowed, let result = borrowed { return result }
    var a = a
    var b = b
    return a.withUTF8 { left in b.withUTF8 { right in precedes(left, right) } }
  }

  /// Whether `left` sorts before `right`, byte by byte.
  private static func precedes(
    _ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    let common = min(left.count, right.count)
    if common > 0, let l = left.baseAddress, let r = right.baseAddress {
      let order = memcmp(l, r, common)
      if order != 0 { return order < 0 }
    }
    return left.count < right.count
  }

  /// What a directory entry's name says about it.
  private enum NameKind {
    /// `.` or `..`.
    case dots
    /// Not valid UTF-8.
    case invalid
    /// Ends in an audio extension (any case) after a non-empty base: an extension of a row of
    /// RefrainCore's ``AudioFormat`` table, the formats Refrain plays and those it names but
    /// does not play (which the scan reports as skipped). The file's first bytes decide its
    /// format either way.
    case audio
    /// Ends in `.lrc` (any case) after a non-empty base.
    case lyrics
    case other
  }

  /// The extensions of every ``AudioFormat`` (``AudioFormat/scannedExtensions``), each as
  /// `classify` packs a name's extension: its lower-case bytes, big-endian, in a `UInt32`.
  private static let audioKeys: Set<UInt32> = Set(
    AudioFormat.scannedExtensions.map { $0.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } })

  /// Whether an entry of this `d_type` may be a folder (or a link to one).
  private static func mayBeFolder(_ type: UInt8) -> Bool {
    type == UInt8(DT_DIR) || type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN)
  }

  /// Classifies a NUL-terminated name without making a `String` of it; also returns its
  /// length in bytes and the length of its base (before the extension's dot).
  private static func classify(_ bytes: UnsafeBufferPointer<UInt8>) -> (NameKind, Int, Int) {
    var length = 0
    var ascii = true
    while length < bytes.count, bytes[length] != 0 {
      if bytes[length] >= 0x80 { ascii = false }
      length += 1
    }
    if length > 0, bytes[0] == 0x2E, length == 1 || (length == 2 && bytes[1] == 0x2E) {
      return (.dots, length, length)
    }
    if !ascii, String(validating: bytes[..<length], as: UTF8.self) == nil {
      return (.invalid, length, length)
    }
    // The extension: 2 to 4 letters after the last dot. A name like ".mp3" has no base:
    // like "a.b" split at its last dot, it is not audio.
    var dot = length - 1
    while dot >= 0, length - dot <= 5, bytes[dot] != 0x2E { dot -= 1 }
    let extensionLength = length - dot - 1
    guard dot > 0, bytes[dot] == 0x2E, (2...4).contains(extensionLength) else {
      return (.other, length, length)
    }
    // ASCII letters differ from their capitals by bit 0x20 only; digits keep theirs.
    var key: UInt32 = 0
    for index in (dot + 1)..<length { key = key << 8 | UInt32(bytes[index] | 0x20) }
    if audioKeys.contains(key) { return (.audio, length, dot) }
    switch key {
    case 0x6C_72_63: return (.lyrics, length, dot)  // lrc
    default: return (.other, length, length)
    }
  }
}

/// The folders a walk has yet to read, shared by its threads.
private final class WalkQueue: @unchecked Sendable {
  /// Guards everything below.
  private let condition = NSCondition()
  private var pending: [String]
  /// Folders being read right now (they may add more).
  private var busy = 0
  /// Folders read, by device and inode.
  private var visited = Set<[UInt64]>()

  init(root: String) { pending = [root] }

  /// The next folder to read, waiting while others may still add some; `nil` when done.
  func next() -> String? {
    condition.lock()
    defer { condition.unlock() }
    while pending.isEmpty, busy > 0 { condition.wait() }
    guard let folder = pending.popLast() else { return nil }
    busy += 1
    return folder
  }

  /// Records that a folder was read and queues its subfolders.
  func finished(adding subfolders: [String]) {
    condition.lock()
    pending += subfolders
    busy -= 1
    condition.broadcast()
    condition.unlock()
  }

  /// Whether the folder with this device and inode is read for the first time.
  func firstVisit(_ device: UInt64, _ inode: UInt64) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    return visited.insert([device, inode]).inserted
  }
}
