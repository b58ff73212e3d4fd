import Foundation

/// Where `--output wav:PATH` writes, decided from what PATH is now: a path never changes
/// type.
///
/// - `-` is standard output, written in place.
/// - A symbolic link is followed (to its final target, whatever the chain), and the target
///   is decided by these same rules; the link stays a link.
/// - A regular file, or a path that does not exist yet, is replaced atomically: the WAV is
///   written beside it and renamed over it once complete.
/// - Anything else that can be opened for writing (a character device such as `/dev/null`,
///   a FIFO, a terminal) is written in place, never replaced.
public enum WavDestination: Equatable, Sendable {
  /// Standard output.
  case standardOutput
  /// An existing file that is not a regular one, written where it is.
  case inPlace(path: String)
  /// A regular file or a new path (the final target of any link), replaced when complete.
  case replaced(path: String)

  /// The destination `path` names now; throws when it cannot be one (a directory, a loop of
  /// links).
  public static func resolve(_ path: String) throws -> WavDestination {
    if path == "-" { return .standardOutput }
    var current = path
    for _ in 0..<40 {
      var info = stat()
      guard lstat(current, &info) == 0 else {
        guard errno == ENOENT else { throw failure(path, errno) }
        return .replaced(path: current)
      }
      switch info.st_mode & S_IFMT {
      case S_IFLNK:
        current = try target(of: current, named: path)
      case S_IFREG:
        return .replaced(path: current)
      case S_IFDIR:
        throw AudioError.cannotWrite(path: path, reason: "it is a directory")
      default:
        return .inPlace(path: current)
      }
    }
    throw AudioError.cannotWrite(path: path, reason: "too many levels of symbolic links")
  }

  /// Where the link at `link` points, relative to the link's folder when not absolute.
  private static func target(of link: String, named path: String) throws -> String {
    var bytes = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(link, &bytes, bytes.count - 1)
    guard count >= 0 else { throw failure(path, errno) }
    let target = String(decoding: bytes[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if target.hasPrefix("/") { return target }
    let folder = (link as NSString).deletingLastPathComponent
    return folder.isEmpty ? target : folder + "/" + target
  }

  static func failure(_ path: String, _ code: Int32) -> AudioError {
    .cannotWrite(path: path, reason: String(cString: strerror(code)))
  }
}
