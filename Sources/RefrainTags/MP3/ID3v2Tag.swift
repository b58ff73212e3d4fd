import Foundation

/// The text fields Refrain indexes, parsed from an ID3v2.2, v2.3 or v2.4 tag.
///
/// Only text frames are decoded; pictures, lyrics and comments are skipped by size. Broken
/// frames end the parse quietly and keep what was read before them.
struct ID3v2Tag: Equatable {
  var title: String?
  var artist: String?
  var albumArtist: String?
  var album: String?
  var trackNumber: Int?
  /// TPOS: the disc number (the part before a slash).
  var discNumber: Int?
  var year: Int?
  var isrc: String?

  /// The size of the whole tag (header, frames, padding, footer) when `header` starts one.
  ///
  /// `header` must hold at least the 10-byte tag header.
  static func totalSize(header: [UInt8]) -> Int? {
    guard header.count >= 10, header[0] == 0x49, header[1] == 0x44, header[2] == 0x33,
      header[3] >= 2, header[3] <= 4, header[4] != 0xFF
    else { return nil }
    guard let size = ID3Bytes.syncsafe(header, at: 6) else { return nil }
    let footer = header[3] == 4 && header[5] & 0x10 != 0 ? 10 : 0
    return 10 + size + footer
  }

  /// Parses `bytes`, which start with the tag header and hold the whole tag.
  init?(bytes: [UInt8]) {
    guard let total = Self.totalSize(header: bytes) else { return nil }
    let version = bytes[3]
    let flags = bytes[5]
    var body = Array(bytes[10..<min(bytes.count, total)])
    // v2.2/v2.3 unsynchronise the whole tag; v2.4 marks it per frame (the tag flag implies all).
    if flags & 0x80 != 0, version < 4 { body = ID3Bytes.removingUnsync(body) }
    var offset = 0
    if flags & 0x40 != 0, version >= 3 {
      // Skip the extended header: v2.3 gives its size without the size field, v2.4 with it.
      if version == 3, let size = ID3Bytes.bigEndian(body, at: 0, count: 4) {
        offset = 4 + size
      } else if let size = ID3Bytes.syncsafe(body, at: 0) {
        offset = size
      }
    }
    let idLength = version == 2 ? 3 : 4
    let headerLength = version == 2 ? 6 : 10
    while offset + headerLength <= body.count {
      guard body[offset] != 0 else { break }  // Padding.
      let id = String(decoding: body[offset..<offset + idLength], as: UTF8.self)
      let sizeValue: Int?
      switch version {
      case 2: sizeValue = ID3Bytes.bigEndian(body, at: offset + 3, count: 3)
      case 3: sizeValue = ID3Bytes.bigEndian(body, at: offset + 4, count: 4)
      default: sizeValue = ID3Bytes.syncsafe(body, at: offset + 4)
      }
      guard let size = sizeValue, size >= 0, offset + headerLength + size <= body.count else {
        break
      }
      let start = offset + headerLength
      var content = Array(body[start..<start + size])
      offset = start + size
      if version >= 3 {
        let frameFlags = body[start - 1]
        guard
          let usable = Self.frameContent(
            content, flags: frameFlags, version: version,
            tagUnsync: flags & 0x80 != 0)
        else { continue }
        content = usable
      }
      apply(frame: id, text: Self.text(content))
    }
    if title == nil, artist == nil, album == nil, trackNumber == nil, year == nil,
      albumArtist == nil, isrc == nil, discNumber == nil
    {
      return nil
    }
  }

  /// Stores a text frame's value under the field it names.
  private mutating func apply(frame id: String, text: String?) {
    guard let text else { return }
    switch id {
    case "TIT2", "TT2": title = title ?? text
    case "TPE1", "TP1": artist = artist ?? text
    case "TPE2", "TP2": albumArtist = albumArtist ?? text
    case "TALB", "TAL": album = album ?? text
    case "TSRC", "TRC": isrc = isrc ?? text
    case "TRCK", "TRK": trackNumber = trackNumber ?? Self.leadingNumber(text)
    case "TPOS", "TPA": discNumber = discNumber ?? Self.leadingNumber(text)
    case "TYER", "TYE", "TDRC", "TDOR", "TORY":
      if year == nil, let number = Self.leadingNumber(String(text.prefix(4))), number > 0 {
        year = number
      }
    default: break
    }
  }

  // MARK: - Frame contents

  /// The frame's content after its flags are honoured; `nil` for compressed or encrypted frames.
  private static func frameContent(
    _ content: [UInt8], flags: UInt8, version: UInt8, tagUnsync: Bool
  )
    -> [UInt8]?
  {
    var content = content
    if version == 3 {
      guard flags & 0xC0 == 0 else { return nil }  // Compressed or encrypted.
      if flags & 0x20 != 0 { content = Array(content.dropFirst()) }  // Group byte.
      return content
    }
    guard flags & 0x0C == 0 else { return nil }  // Compressed or encrypted.
    if flags & 0x40 != 0 { content = Array(content.dropFirst()) }  // Group byte.
    if flags & 0x01 != 0 { content = Array(content.dropFirst(4)) }  // Data length indicator.
    if flags & 0x02 != 0 || tagUnsync { content = ID3Bytes.removingUnsync(content) }
    return content
  }

  /// The first string of a text frame, trimmed; `nil` when empty.
  static func text(_ content: [UInt8]) -> String? {
    guard let encoding = content.first else { return nil }
    let data = content.dropFirst()
    let decoded: String
    switch encoding {
    case 0:
      // Latin-1 bytes are the first 256 Unicode scalars.
      var scalars = String.UnicodeScalarView()
      for byte in data.prefix(while: { $0 != 0 }) { scalars.append(Unicode.Scalar(byte)) }
      decoded = String(scalars)
    case 1, 2:
      decoded = utf16(Array(data), bigEndianByDefault: encoding == 2)
    case 3:
      decoded = String(decoding: data.prefix { $0 != 0 }, as: UTF8.self)
    default:
      return nil
    }
    return LocalText.clean(decoded)
  }

  /// Decodes UTF-16 up to the first NUL code unit, honouring a byte-order mark.
  private static func utf16(_ bytes: [UInt8], bigEndianByDefault: Bool) -> String {
    var bigEndian = bigEndianByDefault
    var index = 0
    if bytes.count >= 2 {
      if bytes[0] == 0xFF, bytes[1] == 0xFE {
        bigEndian = false
        index = 2
      } else if bytes[0] == 0xFE, bytes[1] == 0xFF {
        bigEndian = true
        index = 2
      }
    }
    var units: [UInt16] = []
    while index + 1 < bytes.count {
      let unit =
        bigEndian
        ? UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
        : UInt16(bytes[index + 1]) << 8 | UInt16(bytes[index])
      if unit == 0 { break }
      units.append(unit)
      index += 2
    }
    return String(decoding: units, as: UTF16.self)
  }

  // MARK: - Numbers

  /// The number at the start of `text` ("3/12" → 3).
  static func leadingNumber(_ text: String) -> Int? {
    let utf8 = text.utf8
    if utf8.allSatisfy({ $0 < 0x80 }) {
      // ASCII (nearly every tag): spaces and tabs are the only white space to skip.
      let start = utf8.firstIndex { $0 != 0x20 && $0 != 0x09 } ?? utf8.endIndex
      let end = utf8[start...].firstIndex { !(0x30...0x39).contains($0) } ?? utf8.endIndex
      return start == end ? nil : Int(Substring(utf8[start..<end]))
    }
    let digits = text.trimmingCharacters(in: .whitespaces).prefix { $0.isASCII && $0.isNumber }
    return digits.isEmpty ? nil : Int(digits)
  }

}
