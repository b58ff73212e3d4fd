/// The integer and unsynchronisation rules of ID3v2 tags, shared by the lyrics tag read and
/// the library scan's tag reader. Out-of-range reads give `nil`, never a trap.
package enum ID3Bytes {
  /// A 28-bit "syncsafe" integer: 7 bits in each of 4 bytes.
  @inlinable
  package static func syncsafe(_ bytes: [UInt8], at offset: Int) -> Int? {
    guard offset >= 0, offset <= bytes.count - 4 else { return nil }
    return bytes[offset..<offset + 4].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
  }

  /// A big-endian integer of `count` bytes (at most 4).
  @inlinable
  package static func bigEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int? {
    guard offset >= 0, offset <= bytes.count - count else { return nil }
    return bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
  }

  /// Undoes ID3 unsynchronisation: every `FF 00` becomes `FF`.
  @inlinable
  package static func removingUnsync(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var previous: UInt8 = 0
    for byte in bytes {
      if !(previous == 0xFF && byte == 0x00) { out.append(byte) }
      previous = byte
    }
    return out
  }

  /// A frame header at `offset` of a tag body: the frame's id, its size (without the header)
  /// and its format flags (0 in v2.2); `nil` for padding, garbage or too few bytes.
  package static func frameHeader(_ bytes: [UInt8], at offset: Int, version: UInt8) -> (
    id: String, size: Int, flags: UInt8
  )? {
    let idLength = version == 2 ? 3 : 4
    let headerLength = frameHeaderLength(version: version)
    guard offset >= 0, offset <= bytes.count - headerLength else { return nil }
    let id = bytes[offset..<offset + idLength]
    guard id.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }) else {
      return nil
    }
    let size: Int?
    switch version {
    case 2: size = bigEndian(bytes, at: offset + 3, count: 3)
    case 3: size = bigEndian(bytes, at: offset + 4, count: 4)
    default: size = syncsafe(bytes, at: offset + 4)
    }
    guard let size else { return nil }
    let flags = version == 2 ? 0 : bytes[offset + headerLength - 1]
    return (String(decoding: id, as: UTF8.self), size, flags)
  }

  /// A frame header's length: 6 bytes in v2.2, 10 in v2.3 and v2.4.
  package static func frameHeaderLength(version: UInt8) -> Int { version == 2 ? 6 : 10 }

  /// How to read a frame's content given its format flags: how many bytes of group and
  /// length information to skip and whether it is unsynchronised; `nil` when it is
  /// compressed or encrypted (not readable here).
  package static func frameFormat(flags: UInt8, version: UInt8, tagUnsynchronised: Bool) -> (
    skip: Int, unsynchronised: Bool
  )? {
    switch version {
    case 2:
      return (0, false)
    case 3:
      guard flags & 0xC0 == 0 else { return nil }  // Compressed or encrypted.
      return (flags & 0x20 != 0 ? 1 : 0, false)  // Group byte.
    default:
      guard flags & 0x0C == 0 else { return nil }  // Compressed or encrypted.
      // Group byte, then the data length indicator.
      let skip = (flags & 0x40 != 0 ? 1 : 0) + (flags & 0x01 != 0 ? 4 : 0)
      return (skip, flags & 0x02 != 0 || tagUnsynchronised)
    }
  }

  /// The index just past the terminator of the string starting at `start`: one zero byte,
  /// or two aligned zero bytes in the UTF-16 encodings (1, 2); `nil` when there is none.
  package static func endOfTerminatedString(_ bytes: [UInt8], from start: Int, encoding: UInt8)
    -> Int?
  {
    let width = encoding == 1 || encoding == 2 ? 2 : 1
    var index = start
    while index <= bytes.count - width {
      if bytes[index..<index + width].allSatisfy({ $0 == 0 }) { return index + width }
      index += width
    }
    return nil
  }

  /// Where the first frame starts in a tag body (after any extended header), given the tag
  /// header's version and flags; `nil` when the extended header's size cannot be read.
  package static func framesStart(_ body: [UInt8], version: UInt8, flags: UInt8) -> Int? {
    guard flags & 0x40 != 0, version >= 3 else { return 0 }
    // v2.3 gives the extended header's size without its size field, v2.4 with it.
    let field = version == 3 ? bigEndian(body, at: 0, count: 4) : syncsafe(body, at: 0)
    guard let field else { return nil }
    return version == 3 ? 4 + field : field
  }
}
