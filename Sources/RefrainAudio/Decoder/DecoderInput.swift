import Foundation

/// The bytes a decoder reads at offsets: a local file, or an HTTP(S) resource.
///
/// The decoders of formats that read their own container (WAV) and the libraries' stream
/// callbacks (FLAC, Ogg) go through it; an ``HTTPByteSource`` is one.
///
/// An input is used from one thread at a time (the player's).
protocol DecoderInput: AnyObject {
  /// The path or the URL, for messages.
  var name: String { get }
  /// The size in bytes, when it is known.
  var size: UInt64? { get }
  /// Up to `count` bytes from `offset`: fewer only where the input ends. Waits for bytes
  /// still on their way, as long as the input's own timeout; throws an ``AudioError`` when
  /// they cannot be had.
  func read(at offset: UInt64, count: Int) throws -> [UInt8]
  /// Up to `count` bytes from `offset`, at least one unless the input ends there: what has
  /// arrived, waiting only when nothing has (a C library's `read`).
  func readSome(at offset: UInt64, count: Int) throws -> [UInt8]
  /// Waits until `count` bytes from `offset` (or those up to the end) can be read without
  /// waiting; `false` when `shouldStop` said to give up first. Decoders call it before
  /// handing control to a C library, so that a command is never stuck behind the network.
  func prepare(at offset: UInt64, count: Int, shouldStop: () -> Bool) throws -> Bool
}

/// A local file as a ``DecoderInput``: reads never wait, and a failed read throws
/// ``AudioError/fileNotReadable(path:reason:)``.
final class FileInput: DecoderInput {
  let path: String
  var name: String { path }
  let size: UInt64?
  private let handle: FileHandle

  /// Opens `path` for reading.
  init(path: String) throws {
    self.path = path
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw AudioError.fileNotReadable(path: path, reason: "cannot open it")
    }
    self.handle = handle
    size = try? handle.seekToEnd()
  }

  deinit { try? handle.close() }

  func read(at offset: UInt64, count: Int) throws -> [UInt8] {
    guard count > 0 else { return [] }
    do {
      try handle.seek(toOffset: offset)
      return [UInt8](try handle.read(upToCount: count) ?? Data())
    } catch {
      throw AudioError.fileNotReadable(path: path, reason: error.localizedDescription)
    }
  }

  func readSome(at offset: UInt64, count: Int) throws -> [UInt8] {
    try read(at: offset, count: count)
  }

  func prepare(at offset: UInt64, count: Int, shouldStop: () -> Bool) throws -> Bool { true }
}

/// A read position in a ``DecoderInput`` for the C libraries' stream callbacks (read, seek,
/// tell, length, end of file), which cannot throw: the first error is kept in ``failure``
/// for the decoder to report.
final class InputCursor {
  let input: any DecoderInput
  /// The next byte a read returns.
  var offset: UInt64 = 0
  /// Why a read failed, from the first failure on.
  private(set) var failure: AudioError?

  init(_ input: any DecoderInput) { self.input = input }

  /// Copies up to `count` bytes (at least one, waiting for it, unless at the end) into
  /// `buffer` from the cursor and moves it past them.
  ///
  /// Returns 0 at the end with `errno` 0, and 0 with `errno` set to `EIO` after a failure,
  /// on this call and every later one: the C libraries (libvorbisfile's `_get_data`) tell an
  /// error from the end only by `errno`, and one that takes an error for the end walks back
  /// through a file whose server claims a length it does not have, one chunk at a time.
  func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
    guard failure == nil else {
      errno = EIO
      return 0
    }
    guard count > 0 else { return 0 }
    do {
      let bytes = try input.readSome(at: offset, count: count)
      bytes.withUnsafeBytes { source in
        if let base = source.baseAddress { buffer.copyMemory(from: base, byteCount: bytes.count) }
      }
      offset += UInt64(bytes.count)
      errno = 0
      return bytes.count
    } catch let error as AudioError {
      failure = error
    } catch {
      failure = .transport(url: input.name, detail: "\(error)")
    }
    errno = EIO
    return 0
  }

  /// Moves the cursor as `fseek` does (`SEEK_SET`, `SEEK_CUR`, `SEEK_END`); `false` when the
  /// place is before the start, past the end when the end is known, or relative to an end
  /// that is not known, and after a failure.
  func seek(_ delta: Int64, whence: Int32) -> Bool {
    guard failure == nil else { return false }
    let base: Int64
    let size = input.size.map { Int64(clamping: $0) }
    switch whence {
    case SEEK_SET: base = 0
    case SEEK_CUR: base = Int64(clamping: offset)
    case SEEK_END:
      guard let size else { return false }
      base = size
    default: return false
    }
    let (target, overflow) = base.addingReportingOverflow(delta)
    guard !overflow, target >= 0, size.map({ target <= $0 }) ?? true else { return false }
    offset = UInt64(target)
    return true
  }

  /// Waits until the next 16 KiB (a few frames of any format, or what remains) is here.
  ///
  /// Returns `false` when `shouldStop` said to give up first. A decoder calls it before its
  /// library reads, so a command is never stuck behind the network.
  func ready(shouldStop: () -> Bool) throws -> Bool {
    try input.prepare(at: offset, count: 16_384, shouldStop: shouldStop)
  }

  /// Whether the cursor is at or past the end.
  var isAtEnd: Bool { input.size.map { offset >= $0 } ?? false }
}
