import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An MP3 file found on disk, with what the scanner compares between scans.
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
}

/// Walks folders for `*.mp3` files (any case), following symbolic links but never in circles.
///
/// It uses `readdir` and `stat` directly: one system call per entry, no per-file objects.
enum FolderWalker {
  /// What a walk found: the MP3 files by path, and the entries it could not read.
  struct Result {
    var files: [FoundFile] = []
    var problems: [String] = []
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

  /// Every MP3 file under `root` (a canonical folder path), sorted by path.
  static func walk(_ root: String) -> Result {
    var result = Result()
    var visited = Set<[UInt64]>()
    var pending = [root]
    while let folder = pending.popLast() {
      var status = stat()
      guard stat(folder, &status) == 0 else {
        result.problems.append("\(folder): \(String(cString: strerror(errno)))")
        continue
      }
      guard visited.insert([UInt64(status.st_dev), UInt64(status.st_ino)]).inserted else {
        continue
      }
      guard let directory = opendir(folder) else {
        result.problems.append("\(folder): \(String(cString: strerror(errno)))")
        continue
      }
      var audio: [(name: String, base: String)] = []
      var lyricNames: [String: String] = [:]
      while let entry = readdir(directory) {
        let type = entry.pointee.d_type
        let rawName = withUnsafePointer(to: entry.pointee.d_name) { pointer in
          pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) {
            String(validatingCString: $0)
          }
        }
        guard let name = rawName else {
          result.problems.append("\(folder): a file name is not valid UTF-8")
          continue
        }
        if name == "." || name == ".." { continue }
        let path = folder == "/" ? "/" + name : folder + "/" + name
        var isFolder = type == UInt8(DT_DIR)
        if type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN) {
          var target = stat()
          isFolder = stat(path, &target) == 0 && target.st_mode & S_IFMT == S_IFDIR
        }
        if isFolder {
          pending.append(path)
          continue
        }
        let (base, ext) = split(name)
        switch ext.lowercased() {
        case "mp3": audio.append((name, base))
        case "lrc": lyricNames[base] = min(lyricNames[base] ?? name, name)
        default: break
        }
      }
      closedir(directory)
      for file in audio {
        let path = folder == "/" ? "/" + file.name : folder + "/" + file.name
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
        let mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        result.files.append(
          FoundFile(
            path: path, size: Int64(info.st_size), mtime: mtime,
            lyricsPath: lyricNames[file.base].map { folder == "/" ? "/" + $0 : folder + "/" + $0 }))
      }
    }
    // Byte order, as SQLite compares paths (and much faster than String's Unicode order).
    result.files.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    return result
  }

  /// A file name's base and extension ("a.b.mp3" → "a.b", "mp3").
  private static func split(_ name: String) -> (String, String) {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
    return (String(name[..<dot]), String(name[name.index(after: dot)...]))
  }
}
