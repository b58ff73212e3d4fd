import Foundation
import RefrainCore

#if canImport(Glibc)
  import Glibc
#endif

/// Writes PCM to a WAV file as fast as the decoder produces it (for tests and benchmarks).
///
/// Where it writes follows ``WavDestination``: a regular file or a new path is replaced
/// atomically when the output closes; standard output, a device or a FIFO is written in
/// place. The header's sizes are exact wherever the output can seek back to them; on a
/// stream they are the largest a header holds (what streaming readers expect). The file
/// holds the format of the first track throughout (``heldFormat``): the player converts
/// every later track to it.
public final class WavOutput: AudioOutput {
  public let name = "wav"
  /// The path asked for (`-` for standard output).
  public let path: String
  private var descriptor: Int32 = -1
  /// The temporary file renamed over ``WavDestination/replaced(path:)`` at close.
  private var pendingRename: (temporary: String, final: String)?
  private var format: PCMFormat?
  private var dataBytes = 0
  /// Whether the header can be rewritten at close (the output seeks).
  private var seekable = false

  /// Creates an output that will write to `path` when opened.
  public init(path: String) {
    self.path = path
  }

  deinit { close() }

  public var heldFormat: PCMFormat? { format }

  public func open(_ format: PCMFormat) throws {
    if descriptor >= 0 {
      guard self.format == format else {
        throw AudioError.cannotWrite(
          path: path, reason: "the file holds \(self.format.map { "\($0)" } ?? "another format")")
      }
      return
    }
    guard StreamLimits.allows(format) else {
      throw AudioError.cannotWrite(path: path, reason: "a WAV cannot hold \(format)")
    }
    switch try WavDestination.resolve(path) {
    case .standardOutput:
      descriptor = dup(STDOUT_FILENO)
    case .inPlace(let target):
      descriptor = Glibc.open(target, O_WRONLY | O_CLOEXEC)
    case .replaced(let target):
      descriptor = try temporaryFile(beside: target)
    }
    guard descriptor >= 0 else { throw WavDestination.failure(path, errno) }
    seekable = lseek(descriptor, 0, SEEK_CUR) >= 0
    self.format = format
    dataBytes = 0
    try writeAll(Self.header(format: format, dataBytes: seekable ? 0 : nil))
  }

  /// Opens a new file in the folder of `target`, with its mode when it exists, to be
  /// renamed over it at close.
  private func temporaryFile(beside target: String) throws -> Int32 {
    let folder = (target as NSString).deletingLastPathComponent
    let base = (target as NSString).lastPathComponent
    var template = Array(
      ((folder.isEmpty ? "" : folder + "/") + ".\(base).refrain-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard made >= 0 else { throw WavDestination.failure(path, errno) }
    _ = fcntl(made, F_SETFD, FD_CLOEXEC)
    let temporary = String(
      decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var existing = stat()
    fchmod(made, stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : 0o666 & ~currentUmask())
    pendingRename = (temporary, target)
    return made
  }

  private func currentUmask() -> mode_t {
    let mask = umask(0o022)
    umask(mask)
    return mask
  }

  public func write(_ bytes: UnsafeRawBufferPointer) throws {
    guard descriptor >= 0 else { return }
    try writeAll(bytes)
    dataBytes += bytes.count
  }

  private func writeAll(_ data: Data) throws {
    try data.withUnsafeBytes { try writeAll($0) }
  }

  private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
    let failure = FileDescriptorWrite.all(bytes, to: descriptor)
    if failure != 0 { throw WavDestination.failure(path, failure) }
  }

  public func drop() {}

  public func drain() throws {}

  public var latency: Double { 0 }

  public func close() {
    guard descriptor >= 0, let format else { return }
    if seekable, lseek(descriptor, 0, SEEK_SET) == 0 {
      try? writeAll(Self.header(format: format, dataBytes: dataBytes))
    }
    Glibc.close(descriptor)
    descriptor = -1
    if let pending = pendingRename {
      if rename(pending.temporary, pending.final) != 0 { unlink(pending.temporary) }
      pendingRename = nil
    }
  }

  /// The 44-byte RIFF header for 16-bit PCM; `dataBytes` `nil` (a stream) or beyond 4 GiB
  /// gives the largest sizes a header holds. No number traps, whatever the format.
  static func header(format: PCMFormat, dataBytes: Int?) -> Data {
    var data = Data()
    func append(_ value: UInt32) {
      withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
    func append16(_ value: UInt16) {
      withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
    let size = dataBytes.map { UInt32(clamping: $0) } ?? .max
    let frameBytes = format.channels.multipliedReportingOverflow(by: 2)
    let perSecond = format.sampleRate.multipliedReportingOverflow(by: frameBytes.partialValue)
    data.append(contentsOf: Array("RIFF".utf8))
    append(size > UInt32.max - 36 ? .max : size + 36)
    data.append(contentsOf: Array("WAVEfmt ".utf8))
    append(16)
    append16(1)
    append16(UInt16(clamping: format.channels))
    append(UInt32(clamping: format.sampleRate))
    append(perSecond.overflow ? .max : UInt32(clamping: perSecond.partialValue))
    append16(frameBytes.overflow ? .max : UInt16(clamping: frameBytes.partialValue))
    append16(16)
    data.append(contentsOf: Array("data".utf8))
    append(size)
    return data
  }
}
