import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file that could not be written, and why; says plainly when the disk is full, and
/// where.
public struct FileWriteError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file that was being written.
  public var path: String
  /// The `errno` of the failure.
  public var code: Int32

  public init(path: String, code: Int32) {
    self.path = path
    self.code = code
  }

  /// Whether the disk (or the user's quota on it) is full.
  public var isDiskFull: Bool { code == ENOSPC || code == EDQUOT }

  public var description: String {
    if isDiskFull {
      return "the disk is full: \(path) could not be saved (free some space and try again)"
    }
    return "\(path) could not be saved: \(String(cString: strerror(code)))"
  }
}

/// Replaces a file in one step, so readers see the old bytes or the new, never half of them,
/// and a failed write (a full disk) leaves nothing behind.
public enum AtomicFile {
  /// Writes `data` to `url` through a temporary file beside it, flushed to disk, then renamed
  /// over it. Creates the folder when needed. With `backup`, the old file is kept under that
  /// name first. On failure the old file is untouched and the temporary file is removed.
  public static func write(_ data: Data, to url: URL, backup: URL? = nil) throws(FileWriteError) {
    let folder = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw FileWriteError(path: url.path, code: Self.code(of: error))
    }
    let temporary = folder.appendingPathComponent(
      ".\(url.lastPathComponent).\(getpid()).\(UUID().uuidString).tmp"
    ).path
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw FileWriteError(path: url.path, code: errno) }
    func fail(_ code: Int32) -> FileWriteError {
      unlink(temporary)
      return FileWriteError(path: url.path, code: code)
    }
    var failure = data.withUnsafeBytes { FileDescriptorWrite.all($0, to: descriptor) }
    if failure == 0, fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0, failure == 0 { failure = errno }
    if failure != 0 { throw fail(failure) }
    if let backup, FileManager.default.fileExists(atPath: url.path) {
      unlink(backup.path)
      if link(url.path, backup.path) != 0 {
        let code = errno
        guard (try? FileManager.default.copyItem(atPath: url.path, toPath: backup.path)) != nil
        else { throw fail(code) }
      }
    }
    guard rename(temporary, url.path) == 0 else { throw fail(errno) }
  }

  /// The POSIX code inside a Foundation error, or `EIO`.
  static func code(of error: any Error) -> Int32 {
    let nsError = error as NSError
    if nsError.domain == NSPOSIXErrorDomain { return Int32(nsError.code) }
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return Int32(underlying.code)
    }
    return EIO
  }
}

/// Writing a whole buffer to a file descriptor.
package enum FileDescriptorWrite {
  /// Writes every byte of `bytes` to `descriptor`, through short writes and interrupted
  /// ones; returns 0, or the `errno` of the write that failed.
  package static func all(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += written
    }
    return 0
  }
}
