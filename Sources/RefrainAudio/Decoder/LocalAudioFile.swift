import Foundation

/// Checks made before a decoder opens a local file, so every format says the same thing
/// about a missing, unreadable, empty file or a folder.
enum LocalAudioFile {
  /// Throws the reason `path` cannot be played as a file; returns its size.
  @discardableResult
  static func check(_ path: String) throws -> Int {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw AudioError.fileNotReadable(path: path, reason: "no such file")
    }
    guard !isDirectory.boolValue else {
      throw AudioError.fileNotReadable(path: path, reason: "it is a folder")
    }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw AudioError.fileNotReadable(path: path, reason: "permission denied")
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    guard size > 0 else { throw AudioError.emptyFile(path: path) }
    return size
  }
}

/// Decoded PCM waiting to be read: 16-bit interleaved bytes a decoder produced in larger
/// blocks than its reader asks for.
struct PendingPCM {
  private(set) var bytes: [UInt8] = []
  private var offset = 0

  var isEmpty: Bool { offset >= bytes.count }

  mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
    offset = 0
  }

  /// Appends one 16-bit sample (little-endian, as PulseAudio's s16le).
  mutating func append(_ sample: Int16) {
    let value = UInt16(bitPattern: sample)
    bytes.append(UInt8(truncatingIfNeeded: value))
    bytes.append(UInt8(truncatingIfNeeded: value >> 8))
  }

  /// Copies up to `buffer.count` bytes (whole frames of `frameBytes`) into `buffer`.
  mutating func drain(into buffer: UnsafeMutableRawBufferPointer, frameBytes: Int) -> Int {
    let available = bytes.count - offset
    let count = min(available, buffer.count / frameBytes * frameBytes)
    guard count > 0, let base = buffer.baseAddress else { return 0 }
    bytes.withUnsafeBytes { source in
      base.copyMemory(from: source.baseAddress! + offset, byteCount: count)
    }
    offset += count
    if offset >= bytes.count { removeAll() }
    return count
  }

  /// A sample of `bits` bits as 16 bits: wider ones lose their low bits, narrower ones are
  /// scaled up.
  static func sixteen(_ sample: Int32, bits: Int) -> Int16 {
    if bits == 16 { return Int16(truncatingIfNeeded: sample) }
    if bits > 16 { return Int16(truncatingIfNeeded: sample >> Int32(bits - 16)) }
    return Int16(truncatingIfNeeded: sample << Int32(16 - bits))
  }
}
