import Foundation

/// Text rules shared by the index and the search: cleaning tags, grouping keys, file titles.
enum LocalText {
  /// A name as a grouping, sorting and exact-match key: lowercased, white space collapsed.
  static func key(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiKey(text) }
    return text.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
  }

  /// A tag value trimmed and in canonical (NFC) form; blank values become `nil`.
  ///
  /// Control characters are kept: the UI sanitises what it shows, and search must find what
  /// the tag says.
  static func clean(_ value: String?) -> String? {
    guard let value else { return nil }
    let scalars = value.unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
      let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
    else { return nil }
    let trimmed = String(scalars[first...last])
    if trimmed.unicodeScalars.allSatisfy(isStableInNFC) { return trimmed }
    return trimmed.precomposedStringWithCanonicalMapping
  }

  /// Whether a scalar is unchanged by NFC and never combines with its neighbours.
  ///
  /// These are ASCII, Latin-1 letters, Hangul syllables, kana (without the combining voicing
  /// marks) and unified ideographs. Text made only of these skips the (slow) normalisation.
  private static func isStableInNFC(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x2FF, 0x3000...0x3098, 0x309B...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xAC00...0xD7A3, 0xFF01...0xFFEF:
      return true
    default:
      return false
    }
  }

  /// The title used when a file has no title tag: its name without the extension.
  static func fileTitle(_ path: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
      return clean(name) ?? name
    }
    return clean(String(name[..<dot])) ?? name
  }

  /// ``key(_:)`` for ASCII text, byte by byte.
  private static func asciiKey(_ text: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var pendingSpace = false
    for byte in text.utf8 {
      switch byte {
      case 0x09...0x0D, 0x20:
        pendingSpace = !bytes.isEmpty
      default:
        if pendingSpace {
          bytes.append(0x20)
          pendingSpace = false
        }
        bytes.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
