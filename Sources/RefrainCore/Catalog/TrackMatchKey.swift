import Foundation

/// International Standard Recording Codes, as tags and catalogs spell them.
public enum ISRC {
  /// `code` in upper case without spaces or dashes when it is a well-formed ISRC (two
  /// letters, three letters or digits, seven digits), else `nil`.
  public static func normalized(_ code: String) -> String? {
    let compact = code.uppercased().filter { $0 != "-" && $0 != " " }
    let characters = Array(compact.utf8)
    guard characters.count == 12 else { return nil }
    let isLetter = { (c: UInt8) in c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") }
    let isDigit = { (c: UInt8) in c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
    guard isLetter(characters[0]), isLetter(characters[1]),
      characters[2..<5].allSatisfy({ isLetter($0) || isDigit($0) }),
      characters[5...].allSatisfy(isDigit)
    else { return nil }
    return compact
  }
}

/// The artist and title of a recording reduced to what two catalogs agree on, so that a
/// Spotify track and a local file of the same recording compare equal.
///
/// Case, accents, punctuation and spacing are ignored; a title drops its bracketed parts and
/// a trailing " - Remastered 2011"-style suffix; an artist keeps only its first name of a
/// list ("Zion & Lennox", "Mina feat. Jun" and "Mina, Jun" keep "zion" and "mina"), cut the
/// same way on both sides.
public struct TrackMatchKey: Hashable, Sendable {
  /// The reduced artist.
  public let artist: String
  /// The reduced title.
  public let title: String

  /// The key of `title` by `artist`; `nil` when either reduces to nothing.
  public init?(artist: String?, title: String) {
    guard let artist else { return nil }
    let first = Self.firstArtist(artist)
    let artistKey = Self.reduce(first)
    let titleKey = Self.reduce(Self.bareTitle(title))
    guard !artistKey.isEmpty, !titleKey.isEmpty else { return nil }
    self.artist = artistKey
    self.title = titleKey
  }

  /// Words that mark a title's trailing " - …" part as a version rather than the name.
  private static let versionWords = [
    "remaster", "live", "version", "edit", "mix", "mono", "stereo", "acoustic", "demo",
    "instrumental", "deluxe", "bonus", "single", "radio",
  ]

  /// The title without bracketed parts and a version suffix.
  static func bareTitle(_ title: String) -> String {
    var kept = ""
    var depth = 0
    for character in title {
      switch character {
      case "(", "[", "{": depth += 1
      case ")", "]", "}": depth = max(0, depth - 1)
      default: if depth == 0 { kept.append(character) }
      }
    }
    if let dash = kept.range(of: " - ", options: .backwards) {
      let tail = kept[dash.upperBound...].lowercased()
      if versionWords.contains(where: { tail.contains($0) }) {
        kept = String(kept[..<dash.lowerBound])
      }
    }
    return kept
  }

  /// The first artist of a list joined by ",", "&", "feat.", "ft.", "with", "x" or "/".
  static func firstArtist(_ artist: String) -> String {
    let lower = artist.lowercased()
    var end = lower.endIndex
    for separator in [
      ",", " & ", " feat. ", " feat ", " ft. ", " featuring ", " with ", " x ", " / ", ";",
    ] {
      if let range = lower.range(of: separator), range.lowerBound < end,
        range.lowerBound > lower.startIndex
      {
        end = range.lowerBound
      }
    }
    return String(lower[..<end])
  }

  /// Lower case, accents folded, every run of non-alphanumerics one space, trimmed.
  static func reduce(_ text: String) -> String {
    let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    var out = ""
    var pendingSpace = false
    for scalar in folded.unicodeScalars {
      if CharacterSet.alphanumerics.contains(scalar) {
        if pendingSpace && !out.isEmpty { out.append(" ") }
        pendingSpace = false
        out.unicodeScalars.append(scalar)
      } else {
        pendingSpace = true
      }
    }
    return out
  }
}
