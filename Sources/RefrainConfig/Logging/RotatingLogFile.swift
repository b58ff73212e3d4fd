import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An append-only text file that never grows past a size: when a line would not fit, the
/// file becomes `NAME.1`, `NAME.1` becomes `NAME.2`, and so on, and the oldest is dropped.
///
/// Writes from any thread are serialized; each line reaches the file in one `write(2)`, with
/// `O_APPEND`, so lines from other processes logging to the same file do not interleave.
/// Failures (a read-only disk, a missing home) drop the line: logging never stops Refrain
/// and never writes to the terminal.
public final class RotatingLogFile: @unchecked Sendable {
  /// The file written to.
  public let url: URL
  /// The largest size the file may reach, in bytes.
  public let maxBytes: Int
  /// How many rotated files (`NAME.1` … `NAME.keep`) are kept.
  public let keep: Int

  private let lock = NSLock()
  private var descriptor: Int32 = -1
  private var inode: ino_t = 0

  /// Creates a log file at `url`; nothing is opened until the first line.
  public init(url: URL, maxBytes: Int = 1 << 20, keep: Int = 3) {
    self.url = url
    self.maxBytes = max(maxBytes, 64)
    self.keep = max(keep, 0)
  }

  deinit {
    if descriptor >= 0 { closeFile(descriptor) }
  }

  /// Appends `line` and a newline, rotating first when the file would grow past `maxBytes`.
  ///
  /// A line longer than the cap is cut to fit.
  public func write(_ line: String) {
    let bytes = Array(Self.fitting(line, in: maxBytes - 1).utf8) + [0x0A]
    lock.lock()
    defer { lock.unlock() }
    guard let size = openIfNeeded() else { return }
    if size > 0, size + bytes.count > maxBytes {
      rotate()
      guard openIfNeeded() != nil else { return }
    }
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count, let base = buffer.baseAddress {
        let written = writeFile(descriptor, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return
        }
        offset += written
      }
    }
  }

  /// Closes the file; the next line opens it again.
  public func close() {
    lock.lock()
    defer { lock.unlock() }
    closeDescriptor()
  }

  /// The rotated file number `index` (`refrain.log.1`).
  public func rotatedURL(_ index: Int) -> URL {
    url.deletingLastPathComponent().appendingPathComponent("\(url.lastPathComponent).\(index)")
  }

  // MARK: - Private (called with the lock held)

  /// Opens the file when it is closed, or was rotated or removed by someone else; returns
  /// its size, or `nil` when it cannot be opened.
  private func openIfNeeded() -> Int? {
    var status = stat()
    if descriptor >= 0 {
      // Another Refrain process may have rotated the file: follow the name, not the inode.
      if stat(url.path, &status) != 0 || status.st_ino != inode {
        closeDescriptor()
      }
    }
    if descriptor < 0 {
      try? FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
      descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { return nil }
    }
    guard fstat(descriptor, &status) == 0 else {
      closeDescriptor()
      return nil
    }
    inode = status.st_ino
    return Int(status.st_size)
  }

  private func rotate() {
    closeDescriptor()
    guard keep > 0 else {
      _ = truncate(url.path, 0)
      return
    }
    _ = unlink(rotatedURL(keep).path)
    for index in stride(from: keep - 1, through: 1, by: -1) {
      _ = rename(rotatedURL(index).path, rotatedURL(index + 1).path)
    }
    _ = rename(url.path, rotatedURL(1).path)
  }

  private func closeDescriptor() {
    if descriptor >= 0 { closeFile(descriptor) }
    descriptor = -1
    inode = 0
  }

  /// `line` cut at a character boundary to at most `limit` UTF-8 bytes.
  static func fitting(_ line: String, in limit: Int) -> String {
    guard line.utf8.count > limit else { return line }
    var result = ""
    var count = 0
    for scalar in line.unicodeScalars {
      let size = String(scalar).utf8.count
      if count + size > limit { break }
      count += size
      result.unicodeScalars.append(scalar)
    }
    return result
  }
}

/// `close(2)`, out of reach of the methods named `close`.
private func closeFile(_ descriptor: Int32) {
  _ = close(descriptor)
}

/// `write(2)`, out of reach of the methods named `write`.
private func writeFile(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
