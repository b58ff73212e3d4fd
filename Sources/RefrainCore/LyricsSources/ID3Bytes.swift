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
}
