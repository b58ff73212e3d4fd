import Foundation

/// Turns the bytes of a lyrics file into text, whichever encoding the user's file came in.
///
/// In order: a UTF-8 BOM means UTF-8; an `FF FE` or `FE FF` BOM means UTF-16 LE or BE;
/// a zero in one of the first two bytes means UTF-16 without BOM; valid UTF-8 is UTF-8;
/// anything else is Latin-1, read as Windows-1252 (as browsers do) so that the curly quotes
/// of old Windows files show as quotes rather than control characters.
/// The BOM itself is dropped.
enum LyricsTextDecoder {
  /// Decodes `data` into a string; never fails.
  static func decode(_ data: Data) -> String {
    let bytes = [UInt8](data)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      return String(decoding: bytes[3...], as: UTF8.self)
    }
    if bytes.starts(with: [0xFF, 0xFE]) { return utf16(bytes[2...], bigEndian: false) }
    if bytes.starts(with: [0xFE, 0xFF]) { return utf16(bytes[2...], bigEndian: true) }
    if bytes.count >= 2, (bytes[0] == 0) != (bytes[1] == 0) {
      return utf16(bytes[...], bigEndian: bytes[0] == 0)
    }
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    return windows1252(bytes)
  }

  /// Decodes UTF-16 code units; an odd trailing byte is dropped, bad surrogates are replaced.
  private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
    var units: [UInt16] = []
    units.reserveCapacity(bytes.count / 2)
    var index = bytes.startIndex
    while index + 1 < bytes.endIndex {
      let first = UInt16(bytes[index])
      let second = UInt16(bytes[index + 1])
      units.append(bigEndian ? first << 8 | second : second << 8 | first)
      index += 2
    }
    let text = String(decoding: units, as: UTF16.self)
    return text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
  }

  /// Decodes single bytes as Windows-1252: Latin-1 with printable characters at 0x80–0x9F.
  private static func windows1252(_ bytes: [UInt8]) -> String {
    var scalars = String.UnicodeScalarView()
    for byte in bytes {
      let value =
        (0x80...0x9F).contains(byte) ? windows1252High[Int(byte - 0x80)] : UInt32(byte)
      scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
    }
    return String(scalars)
  }

  /// Windows-1252 code points for bytes 0x80–0x9F; unassigned bytes keep their Latin-1 value.
  private static let windows1252High: [UInt32] = [
    0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
    0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
  ]
}
