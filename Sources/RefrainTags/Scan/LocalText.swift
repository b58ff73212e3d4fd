import Foundation

/// Text rules shared by the index and the search: cleaning tags, grouping keys, file titles.
package enum LocalText {
  /// A name as a grouping, sorting and exact-match key: lowercased, white space collapsed.
  package static func key(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiKey(text) }
    // Nothing to collapse (a `Character` is white space when its first scalar is).
    if !text.unicodeScalars.contains(where: isWhitespace) { return text.lowercased() }
    return text.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
  }

  /// Whether a scalar has Unicode's `White_Space` property, as `properties.isWhitespace` says
  /// (a fixed list, and a switch is much faster than the property lookup).
  package static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F,
      0x3000:
      return true
    default:
      return false
    }
  }

  /// A tag value trimmed and in canonical (NFC) form; blank values become `nil`.
  ///
  /// Control characters are kept: the UI sanitises what it shows, and search must find what
  /// the tag says.
  package static func clean(_ value: String?) -> String? {
    guard let value else { return nil }
    let scalars = value.unicodeScalars
    guard let first = scalars.firstIndex(where: { !isWhitespace($0) }),
      let last = scalars.lastIndex(where: { !isWhitespace($0) })
    else { return nil }
    let whole = first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex
    let trimmed = whole ? value : String(scalars[first...last])
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
  package static func fileTitle(_ path: String) -> String {
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
