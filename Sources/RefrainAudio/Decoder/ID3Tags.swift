import CMPG123
import Foundation

/// Metadata read from a file's ID3 tags.
public struct ID3Tags: Sendable, Equatable {
  /// TIT2.
  public var title: String?
  /// TPE1.
  public var artist: String?
  /// TALB.
  public var album: String?
  /// TRCK's number (the part before a slash).
  public var trackNumber: Int?
  /// TYER / TDRC, as the year number.
  public var year: Int?
  /// USLT text (unsynchronised lyrics, often LRC-formatted).
  public var lyrics: String?
  /// The first APIC picture's bytes.
  public var picture: Data?
  /// The first APIC picture's MIME type.
  public var pictureMIMEType: String?

  /// Creates empty tags.
  public init() {}

  /// Whether no field was found.
  public var isEmpty: Bool { self == ID3Tags() }
}

extension ID3Tags {
  /// Reads the tags libmpg123 parsed from an open handle (after a scan or the first frame).
  init(handle: OpaquePointer) {
    self.init()
    guard mpg123_meta_check(handle) & Int32(MPG123_ID3) != 0 else { return }
    var v1: UnsafeMutablePointer<mpg123_id3v1>?
    var v2: UnsafeMutablePointer<mpg123_id3v2>?
    guard mpg123_id3(handle, &v1, &v2) == Int32(MPG123_OK.rawValue) else { return }
    if let tag = v2?.pointee {
      title = Self.string(tag.title)
      artist = Self.string(tag.artist)
      album = Self.string(tag.album)
      year = Self.string(tag.year).flatMap { Int($0.prefix(4)) }
      for index in 0..<tag.texts {
        guard let entry = tag.text?[index] else { continue }
        let id = withUnsafeBytes(of: entry.id) { String(decoding: $0, as: UTF8.self) }
        var text = entry.text
        let value = Self.string(&text)
        switch id {
        case "TRCK":
          trackNumber = value.flatMap { Int($0.split(separator: "/").first ?? "") }
        case "TDRC", "TYER":
          year = year ?? value.flatMap { Int($0.prefix(4)) }
        case "USLT" where lyrics == nil:
          lyrics = value
        default:
          break
        }
      }
      if tag.pictures > 0, let picture = tag.picture?.pointee, let data = picture.data {
        self.picture = Data(bytes: data, count: picture.size)
        var mime = picture.mime_type
        pictureMIMEType = Self.string(&mime)
      }
    }
    if let tag = v1?.pointee, Self.fixed(tag.tag) == "TAG" {
      title = title ?? Self.fixed(tag.title)
      artist = artist ?? Self.fixed(tag.artist)
      album = album ?? Self.fixed(tag.album)
      year = year ?? Self.fixed(tag.year).flatMap { Int($0) }
    }
  }

  private static func string(_ value: UnsafeMutablePointer<mpg123_string>?) -> String? {
    guard let value, let base = value.pointee.p, value.pointee.fill > 1 else { return nil }
    // Multi-string frames are NUL-separated; the first string is the value.
    let text = String(cString: base).trimmingCharacters(in: .whitespacesAndNewlines)
    return text.isEmpty ? nil : text
  }

  private static func fixed<T>(_ tuple: T) -> String? {
    let bytes = withUnsafeBytes(of: tuple) { Array($0.prefix { $0 != 0 }) }
    // ID3v1 has no declared encoding; Latin-1 never fails.
    let text = (String(bytes: bytes, encoding: .isoLatin1) ?? "").trimmingCharacters(
      in: .whitespaces)
    return text.isEmpty ? nil : text
  }
}
