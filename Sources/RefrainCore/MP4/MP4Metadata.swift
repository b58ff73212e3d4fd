import Foundation

/// The iTunes-style tags of an MP4 file (`moov/udta/meta/ilst`): text, numbers, the
/// freeform `----` items Refrain uses (ISRC, iTunSMPB), and where the cover is.
///
/// Items are read one at a time, each at most ``maxItemBytes``; the cover is only
/// located, so a 20 MB picture costs nothing until it is asked for (and never more than the
/// caller's limit). An item that does not parse is skipped; no input traps.
package struct MP4Metadata: Sendable, Equatable {
  /// The most bytes of one text or number item read.
  static let maxItemBytes = 1 << 20

  /// `©nam`.
  package var title: String?
  /// `©ART`.
  package var artist: String?
  /// `aART`.
  package var albumArtist: String?
  /// `©alb`.
  package var album: String?
  /// `trkn`: the track number.
  package var trackNumber: Int?
  /// `trkn`: the number of tracks.
  package var trackCount: Int?
  /// `disk`: the disc number.
  package var discNumber: Int?
  /// `disk`: the number of discs.
  package var discCount: Int?
  /// `©day`'s year.
  package var year: Int?
  /// `©lyr`: the lyrics text, which may be LRC.
  package var lyrics: String?
  /// `----:com.apple.iTunes:ISRC`.
  package var isrc: String?
  /// `----:com.apple.iTunes:iTunSMPB`: iTunes' encoder delay, padding and length.
  package var iTunSMPB: String?
  /// `----:com.apple.iTunes:replaygain_*`, names upper-cased: the first value of each.
  package var replayGainFields: [String: String] = [:]
  /// The first picture in `covr`, located but not read.
  package var cover: MP4Picture?

  /// An empty set of tags.
  package init() {}

  /// The tags in `ilst`; throws only when the file cannot be read or ends inside `ilst`.
  package init(ilst: MP4Box, from reader: MP4BoxReader) throws(MP4Error) {
    self.init()
    for item in try reader.children(of: ilst) {
      // One damaged item is skipped; the file's other tags still count.
      do {
        try read(item, from: reader)
      } catch {
        if case .unreadable = error { throw error }
      }
    }
  }

  /// Reads one item into the tags.
  private mutating func read(_ item: MP4Box, from reader: MP4BoxReader) throws(MP4Error) {
    switch item.type {
    case "covr":
      guard cover == nil, let data = try reader.child("data", of: item) else { return }
      var fields = MP4Fields(try reader.source.read(at: data.payloadOffset, count: 8), box: "data")
      let type = try fields.uint32() & 0xFF_FFFF
      guard data.payloadSize >= 8 else { return }
      cover = MP4Picture(
        offset: data.payloadOffset + 8, size: data.payloadSize - 8, dataType: type)
    case "----":
      var mean: String?
      var name: String?
      var value: String?
      for part in try reader.children(of: item) {
        let bytes = try reader.payload(of: part, limit: Self.maxItemBytes)
        switch part.type {
        case "mean": mean = Self.utf8(bytes.dropFirst(4))
        case "name": name = Self.utf8(bytes.dropFirst(4))
        case "data": value = value ?? Self.text(bytes)
        default: break
        }
      }
      guard mean == "com.apple.iTunes", let value else { return }
      switch name?.uppercased() {
      case "ISRC": isrc = isrc ?? value
      case "ITUNSMPB": iTunSMPB = iTunSMPB ?? value
      case let key? where key.hasPrefix("REPLAYGAIN_"):
        if replayGainFields[key] == nil { replayGainFields[key] = value }
      default: break
      }
    case "trkn", "disk":
      guard let data = try reader.child("data", of: item) else { return }
      let bytes = try reader.payload(of: data, limit: Self.maxItemBytes)
      let pair = Self.numberPair(bytes)
      if item.type == "trkn" {
        (trackNumber, trackCount) = pair
      } else {
        (discNumber, discCount) = pair
      }
    case "©nam", "©ART", "aART", "©alb", "©day", "©lyr":
      guard let data = try reader.child("data", of: item),
        let text = Self.text(try reader.payload(of: data, limit: Self.maxItemBytes))
      else { return }
      switch item.type {
      case "©nam": title = text
      case "©ART": artist = text
      case "aART": albumArtist = text
      case "©alb": album = text
      case "©day": year = Int(text.prefix(4)).flatMap { (1...9999).contains($0) ? $0 : nil }
      default: lyrics = text
      }
    default:
      break
    }
  }

  /// The text of a `data` box's contents (type 1 UTF-8, 2 UTF-16BE; 0 is read as UTF-8),
  /// trimmed; `nil` when empty or of another type.
  private static func text(_ bytes: [UInt8]) -> String? {
    guard bytes.count >= 8 else { return nil }
    let type = bytes[1..<4].reduce(0) { $0 << 8 | Int($1) }
    let value = bytes.dropFirst(8)
    let text: String?
    switch type {
    case 0, 1: text = utf8(value)
    case 2: text = String(data: Data(value), encoding: .utf16BigEndian)
    default: text = nil
    }
    let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed?.isEmpty == false ? trimmed : nil
  }

  /// UTF-8 text up to the first NUL, with invalid bytes replaced.
  private static func utf8(_ bytes: ArraySlice<UInt8>) -> String {
    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
  }

  /// The number and count of a `trkn` or `disk` item: two reserved bytes, then two 16-bit
  /// numbers (0 means none); or "3/10" written as text.
  private static func numberPair(_ bytes: [UInt8]) -> (Int?, Int?) {
    func positive(_ value: Int?) -> Int? { value.flatMap { $0 > 0 ? $0 : nil } }
    let type = bytes.count >= 4 ? bytes[1..<4].reduce(0) { $0 << 8 | Int($1) } : -1
    if type == 1, let text = text(bytes) {
      let parts = text.split(separator: "/", maxSplits: 1)
      return (
        positive(parts.first.flatMap { Int($0) }),
        positive(parts.dropFirst().first.flatMap { Int($0) })
      )
    }
    guard bytes.count >= 14 else { return (nil, nil) }
    let number = Int(bytes[10]) << 8 | Int(bytes[11])
    let count = Int(bytes[12]) << 8 | Int(bytes[13])
    return (positive(number), positive(count))
  }
}

/// Where a picture in `covr` is, and what kind the tag says it is.
package struct MP4Picture: Sendable, Equatable {
  /// Where its bytes start.
  package var offset: UInt64
  /// Its length in bytes.
  package var size: UInt64
  /// The `data` box's type: 13 JPEG, 14 PNG, 27 BMP.
  package var dataType: UInt32

  /// The MIME type its data type stands for; the bytes decide for an unknown type.
  package func mimeType(of bytes: [UInt8]) -> String {
    switch dataType {
    case 13: return "image/jpeg"
    case 14: return "image/png"
    case 27: return "image/bmp"
    default:
      if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
      if bytes.starts(with: [0xFF, 0xD8]) { return "image/jpeg" }
      return "application/octet-stream"
    }
  }
}

extension MP4Metadata {
  /// The movie (for the sound's length) and the tags of the file in `reader`, undecoded.
  ///
  /// Throws ``MP4Error`` when the file is not a whole MP4; tags that do not parse are
  /// left empty.
  package static func read(from reader: MP4BoxReader) throws(MP4Error) -> (
    movie: MP4Movie, tags: MP4Metadata
  ) {
    let movie = try MP4Movie.read(from: reader)
    guard let ilst = movie.tags else { return (movie, MP4Metadata()) }
    do {
      return (movie, try MP4Metadata(ilst: ilst, from: reader))
    } catch {
      // An ilst that does not parse is no tags, as a broken ID3 tag is.
      if case .unreadable = error { throw error }
      return (movie, MP4Metadata())
    }
  }
}
