import Foundation

/// Bytes at offsets, from a file or from memory: what the MP4 box reader walks.
///
/// A source is used from one thread at a time. Reads past the end give fewer bytes (none at
/// or beyond it), never an error; an error means the bytes could not be read at all.
package protocol MP4ByteSource: AnyObject {
  /// How many bytes the source holds.
  var length: UInt64 { get }
  /// Up to `count` bytes from `offset`: fewer only where the source ends. Throws
  /// ``MP4Error/unreadable(_:)`` when the bytes cannot be read.
  func read(at offset: UInt64, count: Int) throws(MP4Error) -> [UInt8]
}

/// An MP4 file read through `FileHandle`, a block at a time, so that walking box headers
/// costs one system call per 64 KiB rather than one per header.
package final class MP4FileSource: MP4ByteSource {
  /// The size of the block kept from the last read.
  static let blockSize = 65_536

  package let length: UInt64
  private let handle: FileHandle
  private var block: [UInt8] = []
  private var blockStart: UInt64 = 0

  /// Opens the file at `url` for reading; throws ``MP4Error/unreadable(_:)`` if it cannot.
  package init(url: URL) throws(MP4Error) {
    do {
      handle = try FileHandle(forReadingFrom: url)
      length = try handle.seekToEnd()
    } catch {
      throw .unreadable(error.localizedDescription)
    }
  }

  deinit { try? handle.close() }

  package func read(at offset: UInt64, count: Int) throws(MP4Error) -> [UInt8] {
    guard count > 0, offset < length else { return [] }
    let count = Int(min(UInt64(count), length - offset))
    let blockEnd = blockStart + UInt64(block.count)
    if offset >= blockStart, offset + UInt64(count) <= blockEnd {
      let start = Int(offset - blockStart)
      return Array(block[start..<start + count])
    }
    // Small reads fill the block; a large one (a picture, a frame table) is read directly.
    let wanted = count >= Self.blockSize ? count : Self.blockSize
    let bytes: [UInt8]
    do {
      try handle.seek(toOffset: offset)
      bytes = [UInt8](try handle.read(upToCount: wanted) ?? Data())
    } catch {
      throw .unreadable(error.localizedDescription)
    }
    if count < Self.blockSize {
      block = bytes
      blockStart = offset
    }
    return Array(bytes.prefix(count))
  }
}

/// MP4 bytes held in memory: for tests, fuzzing and boxes already read.
package final class MP4MemorySource: MP4ByteSource {
  /// The bytes.
  package let bytes: [UInt8]

  /// Wraps `bytes`.
  package init(_ bytes: [UInt8]) { self.bytes = bytes }

  package var length: UInt64 { UInt64(bytes.count) }

  package func read(at offset: UInt64, count: Int) throws(MP4Error) -> [UInt8] {
    guard count > 0, offset < length else { return [] }
    let start = Int(offset)
    return Array(bytes[start..<start + Int(min(UInt64(count), length - offset))])
  }
}
