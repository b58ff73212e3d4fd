/// A box type: four bytes, written as Latin-1 text (`moov`, `©nam`).
package struct FourCC: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  /// The four bytes, big-endian.
  package var rawValue: UInt32

  /// The type with these four bytes.
  package init(rawValue: UInt32) { self.rawValue = rawValue }

  /// The type spelled by `text`'s first four Latin-1 characters (`©` is the byte A9);
  /// missing characters are spaces and others are `?`, so no literal traps.
  package init(stringLiteral text: String) {
    var value: UInt32 = 0
    var scalars = text.unicodeScalars.makeIterator()
    for _ in 0..<4 {
      let scalar = scalars.next()?.value ?? 0x20
      value = value << 8 | (scalar <= 0xFF ? scalar : 0x3F)
    }
    rawValue = value
  }

  /// The type as text: each byte as its Latin-1 character, but a byte that is not a printable
  /// character (a control, DEL) as `\xNN`, so a hostile file's box type names its bytes.
  package var description: String {
    let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: rawValue >> $0) }
    return bytes.map { byte in
      guard (0x20...0x7E).contains(byte) || byte >= 0xA0 else {
        return (byte < 0x10 ? "\\x0" : "\\x") + String(byte, radix: 16)
      }
      return String(Unicode.Scalar(byte))
    }.joined()
  }
}

/// One box's place in its source: its type, where it starts, its header and total sizes.
///
/// A box read from a walk always lies inside what was walked, except where
/// ``MP4BoxReader/topLevelBoxes()`` says otherwise.
package struct MP4Box: Sendable, Equatable {
  /// The box's type.
  package var type: FourCC
  /// Where the box's header starts.
  package var offset: UInt64
  /// The header's length: 8, or 16 with a 64-bit size.
  package var headerSize: UInt64
  /// The whole box's length, header included, as its header declares it.
  package var size: UInt64

  /// Where the box's contents start.
  package var payloadOffset: UInt64 { offset + headerSize }
  /// The contents' length.
  package var payloadSize: UInt64 { size - headerSize }
  /// Where the box ends as declared; the largest offset when that is past any file.
  package var end: UInt64 {
    let sum = offset.addingReportingOverflow(size)
    return sum.overflow ? .max : sum.partialValue
  }
}

/// Why an MP4 file could not be read; each message says what is wrong with the file.
package enum MP4Error: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file has no `ftyp` box first: it is not an MP4 file.
  case notMP4
  /// The file ends inside a box (`detail` says which): a download or copy was cut short.
  case cutShort(String)
  /// A box contradicts itself or its parent (`detail` names it and how).
  case damaged(String)
  /// A box is larger than Refrain reads; a music file never has one that large.
  case tooLarge(box: FourCC, bytes: UInt64)
  /// The file has no sound track.
  case noAudioTrack
  /// The bytes could not be read (`detail` is the system's reason).
  case unreadable(String)

  package var description: String {
    switch self {
    case .notMP4:
      return "it does not start with an MP4 ftyp box"
    case .cutShort(let detail):
      return "the file is cut short: \(detail); download or copy it again"
    case .damaged(let detail):
      return "the file is damaged: \(detail)"
    case .tooLarge(let box, let bytes):
      return "its \(box) box is \(bytes) bytes, more than Refrain reads"
    case .noAudioTrack:
      return "it has no sound track"
    case .unreadable(let detail):
      return "it cannot be read: \(detail)"
    }
  }
}

/// Walks the boxes of an MP4 (ISO base media) file: finds boxes by type and reads their
/// contents, never trusting a size it has not checked.
///
/// Only headers are read while walking, so a 100 MB `mdat` costs one 8-byte read. Every
/// child must lie inside its parent, sizes smaller than a header are refused, 64-bit sizes
/// are read, a size of 0 means "to the end of the parent", and no walk visits more than
/// ``maxBoxes`` boxes or reads contents larger than its caller's limit: no input traps, and
/// none makes the reader allocate more than the limits it is given.
package struct MP4BoxReader {
  /// The most boxes one walk visits; a music file has a few dozen.
  package static let maxBoxes = 65_536

  /// Where the bytes come from.
  package let source: any MP4ByteSource

  /// A reader of `source`.
  package init(_ source: any MP4ByteSource) { self.source = source }

  /// The boxes at the top level of the file, in order.
  ///
  /// The last may run past the end of the file (`end > source.length`) when the file is
  /// cut short; bytes after the last whole header are ignored.
  package func topLevelBoxes() throws(MP4Error) -> [MP4Box] {
    try boxes(from: 0, to: source.length, parent: "file", allowOverrun: true)
  }

  /// The boxes inside `box`, after the first `skipping` bytes of its contents.
  ///
  /// `skipping` passes a full box's version and flags or a sample entry's fields. Throws
  /// ``MP4Error/damaged(_:)`` when a child runs past the end of `box`.
  package func children(of box: MP4Box, skipping: UInt64 = 0) throws(MP4Error) -> [MP4Box] {
    guard skipping <= box.payloadSize else {
      throw .damaged("its \(box.type) box is shorter than its fields")
    }
    return try boxes(
      from: box.payloadOffset + skipping, to: box.end, parent: "\(box.type)", allowOverrun: false)
  }

  /// The first child of `box` of type `type`, if any.
  package func child(_ type: FourCC, of box: MP4Box, skipping: UInt64 = 0) throws(MP4Error)
    -> MP4Box?
  {
    try children(of: box, skipping: skipping).first { $0.type == type }
  }

  /// The box at the end of `path` below `box` (each step the first child of its type).
  package func descendant(_ path: [FourCC], of box: MP4Box) throws(MP4Error) -> MP4Box? {
    var current = box
    for type in path {
      guard let next = try child(type, of: current) else { return nil }
      current = next
    }
    return current
  }

  /// The contents of `box`, refused unread when larger than `limit` bytes.
  ///
  /// Throws ``MP4Error/cutShort(_:)`` when the file ends before the box does.
  package func payload(of box: MP4Box, limit: Int) throws(MP4Error) -> [UInt8] {
    guard box.payloadSize <= UInt64(max(0, limit)) else {
      throw .tooLarge(box: box.type, bytes: box.payloadSize)
    }
    let bytes = try source.read(at: box.payloadOffset, count: Int(box.payloadSize))
    guard bytes.count == Int(box.payloadSize) else {
      throw .cutShort("it ends inside its \(box.type) box")
    }
    return bytes
  }

  /// The boxes from `start` to `end`, one after another.
  private func boxes(from start: UInt64, to end: UInt64, parent: String, allowOverrun: Bool)
    throws(MP4Error) -> [MP4Box]
  {
    var found: [MP4Box] = []
    var offset = start
    while end >= 8, offset <= end - 8 {
      guard found.count < Self.maxBoxes else {
        throw .damaged("its \(parent) holds more than \(Self.maxBoxes) boxes")
      }
      let header = try source.read(at: offset, count: 16)
      guard header.count >= 8 else { break }
      let type = FourCC(rawValue: Self.uint32(header, at: 4))
      var size = UInt64(Self.uint32(header, at: 0))
      var headerSize: UInt64 = 8
      if size == 1 {
        guard header.count >= 16, end - offset >= 16 else {
          if allowOverrun { break }
          throw .damaged("its \(type) box in \(parent) has a cut-off 64-bit size")
        }
        size = UInt64(Self.uint32(header, at: 8)) << 32 | UInt64(Self.uint32(header, at: 12))
        headerSize = 16
      } else if size == 0 {
        size = end - offset
      }
      guard size >= headerSize else {
        throw .damaged("its \(type) box in \(parent) declares \(size) bytes")
      }
      let box = MP4Box(type: type, offset: offset, headerSize: headerSize, size: size)
      guard size <= end - offset else {
        guard allowOverrun else {
          throw .damaged("its \(type) box runs past the end of \(parent)")
        }
        found.append(box)
        break
      }
      found.append(box)
      offset += size
    }
    return found
  }

  /// A big-endian 32-bit value at `offset` of `bytes`, which holds at least `offset + 4`.
  private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
  }
}

/// Big-endian fields read one after another from a box's contents; a read past the end
/// throws ``MP4Error/damaged(_:)`` naming the box, never traps.
package struct MP4Fields {
  /// The contents being read.
  package let bytes: [UInt8]
  /// The box they belong to, for messages.
  package let box: FourCC
  /// The next byte to read.
  package private(set) var index = 0

  /// Fields of `bytes`, the contents of a `box` box.
  package init(_ bytes: [UInt8], box: FourCC) {
    self.bytes = bytes
    self.box = box
  }

  /// How many bytes are left.
  package var remaining: Int { bytes.count - index }

  /// The next `count` bytes.
  package mutating func take(_ count: Int) throws(MP4Error) -> ArraySlice<UInt8> {
    guard count >= 0, count <= remaining else {
      throw .damaged("its \(box) box is shorter than its fields")
    }
    defer { index += count }
    return bytes[index..<index + count]
  }

  /// Skips `count` bytes.
  package mutating func skip(_ count: Int) throws(MP4Error) { _ = try take(count) }

  /// The next unsigned integer of `count` bytes (at most 8).
  package mutating func uint(_ count: Int) throws(MP4Error) -> UInt64 {
    try take(min(count, 8)).reduce(0) { $0 << 8 | UInt64($1) }
  }

  /// The next byte.
  package mutating func uint8() throws(MP4Error) -> UInt8 { UInt8(try uint(1)) }
  /// The next 16-bit value.
  package mutating func uint16() throws(MP4Error) -> UInt16 { UInt16(try uint(2)) }
  /// The next 32-bit value.
  package mutating func uint32() throws(MP4Error) -> UInt32 { UInt32(try uint(4)) }
  /// The next 64-bit value.
  package mutating func uint64() throws(MP4Error) -> UInt64 { try uint(8) }
}
