import Foundation
import RefrainCore

/// The lyrics in the ID3v2 tag at the start of a file: the first USLT text and the first SYLT
/// timed in milliseconds.
///
/// Reads ID3v2.2, v2.3 and v2.4 tags, and only the tag: the 10-byte header, then at most
/// `maxTagBytes` of the tag's body, never the audio after it. Unsynchronisation, extended
/// headers, grouped frames and data length indicators are honoured; compressed and encrypted
/// frames are skipped. A broken or truncated frame ends the parse quietly and keeps what was
/// read before it; no input makes the parse trap.
struct ID3v2Lyrics: Sendable, Equatable {
  /// One SYLT entry: the time it starts and its text.
  struct SyncedLine: Sendable, Equatable {
    /// The start time, in milliseconds.
    var ms: Int
    /// The entry's text, as stored.
    var text: String
  }

  /// The text of the first non-blank USLT frame, trimmed; `nil` when there is none.
  var text: String?
  /// The entries of the first SYLT frame timed in milliseconds, in file order.
  var synced: [SyncedLine]
  /// The `TXXX` frames whose description starts with `REPLAYGAIN_`: description and value.
  var replayGainFields: [ReplayGainField] = []

  /// One user-defined text frame (`TXXX`): its description and its value.
  struct ReplayGainField: Sendable, Equatable {
    /// The description, such as `REPLAYGAIN_TRACK_GAIN`.
    var key: String
    /// The value, such as `-6.20 dB`.
    var value: String
  }

  /// The most bytes of a tag's body that are read; frames past it are not seen.
  static let maxTagBytes = 16 << 20

  /// Creates lyrics from their parts.
  init(text: String? = nil, synced: [SyncedLine] = []) {
    self.text = text
    self.synced = synced
  }

  /// Reads the tag at the start of the file at `url`; empty when the file starts with none.
  ///
  /// Throws when the file cannot be opened or read.
  static func read(from url: URL) throws -> ID3v2Lyrics {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    let header = [UInt8](try handle.read(upToCount: 10) ?? Data())
    guard let size = bodySize(header: header), size > 0 else { return ID3v2Lyrics() }
    let body = try handle.read(upToCount: min(size, maxTagBytes)) ?? Data()
    return ID3v2Lyrics(tag: header + [UInt8](body))
  }

  /// The size of the tag's body (frames, padding and any extended header) when `header`
  /// starts an ID3v2.2, v2.3 or v2.4 tag.
  static func bodySize(header: [UInt8]) -> Int? {
    guard header.count >= 10, header[0] == 0x49, header[1] == 0x44, header[2] == 0x33,
      (2...4).contains(header[3]), header[4] != 0xFF
    else { return nil }
    return ID3Bytes.syncsafe(header, at: 6)
  }

  /// Parses `bytes`: a tag header and as much of the tag's body as there is.
  init(tag bytes: [UInt8]) {
    self.init()
    guard let size = Self.bodySize(header: bytes) else { return }
    let version = bytes[3]
    let flags = bytes[5]
    // v2.2's compression flag names a scheme that was never defined: nothing is readable.
    if version == 2, flags & 0x40 != 0 { return }
    var body = Array(bytes[10..<min(bytes.count, 10 + min(size, Self.maxTagBytes))])
    // v2.2 and v2.3 unsynchronise the whole body; v2.4 unsynchronises each frame.
    let unsynchronised = flags & 0x80 != 0
    if unsynchronised, version < 4 { body = ID3Bytes.removingUnsync(body) }

    guard var offset = ID3Bytes.framesStart(body, version: version, flags: flags) else { return }

    let headerLength = ID3Bytes.frameHeaderLength(version: version)
    while let frame = ID3Bytes.frameHeader(body, at: offset, version: version) {
      let start = offset + headerLength
      guard frame.size <= body.count - start else { break }
      offset = start + frame.size
      guard
        let content = Self.frameContent(
          body[start..<offset], flags: frame.flags, version: version,
          tagUnsynchronised: unsynchronised)
      else { continue }
      switch frame.id {
      case "USLT", "ULT":
        if text == nil { text = Self.unsynchronisedText(content) }
      case "SYLT", "SLT":
        if synced.isEmpty { synced = Self.syncedLines(content) }
      case "TXXX", "TXX":
        if let field = Self.userText(content), field.key.uppercased().hasPrefix("REPLAYGAIN_") {
          replayGainFields.append(field)
        }
      default:
        break
      }
    }
  }

  // MARK: - Frames

  /// The frame's content after its format flags are honoured; `nil` for compressed or
  /// encrypted frames.
  private static func frameContent(
    _ content: ArraySlice<UInt8>, flags: UInt8, version: UInt8, tagUnsynchronised: Bool
  ) -> [UInt8]? {
    guard
      let format = ID3Bytes.frameFormat(
        flags: flags, version: version, tagUnsynchronised: tagUnsynchronised)
    else { return nil }
    let content = content.dropFirst(format.skip)
    return format.unsynchronised ? ID3Bytes.removingUnsync(Array(content)) : Array(content)
  }

  /// USLT: encoding, language, content descriptor, then the lyrics; `nil` when blank.
  private static func unsynchronisedText(_ content: [UInt8]) -> String? {
    guard let encoding = content.first, encoding <= 3 else { return nil }
    var reader = TextReader(bytes: content, index: 4, encoding: encoding)
    _ = reader.next()  // The content descriptor.
    let text = reader.next()?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    return text.isEmpty ? nil : text
  }

  /// TXXX: encoding, description, then the value; `nil` when either is missing.
  private static func userText(_ content: [UInt8]) -> ReplayGainField? {
    guard let encoding = content.first, encoding <= 3 else { return nil }
    var reader = TextReader(bytes: content, index: 1, encoding: encoding)
    guard let key = reader.next(), let value = reader.next() else { return nil }
    return ReplayGainField(key: key, value: value)
  }

  /// SYLT: encoding, language, timestamp format, content type, content descriptor, then
  /// entries of text and a 4-byte big-endian time; empty unless times are in milliseconds.
  ///
  /// Entries up to the first truncated one are kept.
  private static func syncedLines(_ content: [UInt8]) -> [SyncedLine] {
    guard content.count >= 6, content[0] <= 3 else { return [] }
    // Format 1 counts MPEG frames, which needs the audio's frame length: not read here.
    guard content[4] == 2 else { return [] }
    var reader = TextReader(bytes: content, index: 6, encoding: content[0])
    _ = reader.next()  // The content descriptor.
    var lines: [SyncedLine] = []
    while let text = reader.next(), let ms = ID3Bytes.bigEndian(content, at: reader.index, count: 4)
    {
      lines.append(SyncedLine(ms: ms, text: text))
      reader.index += 4
    }
    return lines
  }

  /// Reads the terminated strings of a frame, one after another, in its text encoding.
  private struct TextReader {
    /// The frame's content.
    let bytes: [UInt8]
    /// Where the next string starts.
    var index: Int
    /// 0 ISO-8859-1, 1 UTF-16 with a byte-order mark, 2 UTF-16BE, 3 UTF-8.
    let encoding: UInt8
    /// The byte order of UTF-16 strings without a byte-order mark: the last mark seen.
    var bigEndian: Bool

    init(bytes: [UInt8], index: Int, encoding: UInt8) {
      self.bytes = bytes
      self.index = index
      self.encoding = encoding
      bigEndian = encoding == 2
    }

    /// The string at `index`, up to its terminator or the end, moving `index` past the
    /// terminator; `nil` when no bytes are left.
    mutating func next() -> String? {
      guard index < bytes.count else { return nil }
      let wide = encoding == 1 || encoding == 2
      let width = wide ? 2 : 1
      var end = index
      while end <= bytes.count - width, !bytes[end..<end + width].allSatisfy({ $0 == 0 }) {
        end += width
      }
      end = min(end, bytes.count)
      let string = bytes[index..<end]
      index = min(end + width, bytes.count)
      return wide ? utf16(string) : decode(string)
    }

    /// ISO-8859-1 or UTF-8 bytes as text; invalid UTF-8 becomes U+FFFD.
    private func decode(_ string: ArraySlice<UInt8>) -> String {
      guard encoding == 0 else { return String(decoding: string, as: UTF8.self) }
      // ISO-8859-1 bytes are the first 256 Unicode scalars.
      var scalars = String.UnicodeScalarView()
      for byte in string { scalars.append(Unicode.Scalar(byte)) }
      return String(scalars)
    }

    /// UTF-16 code units as text, honouring a byte-order mark; a lone surrogate becomes
    /// U+FFFD and an odd last byte is dropped.
    private mutating func utf16(_ string: ArraySlice<UInt8>) -> String {
      var start = string.startIndex
      if string.count >= 2 {
        let mark = (string[start], string[start + 1])
        if mark == (0xFF, 0xFE) || mark == (0xFE, 0xFF) {
          bigEndian = mark.0 == 0xFE
          start += 2
        }
      }
      var units: [UInt16] = []
      units.reserveCapacity((string.endIndex - start) / 2)
      var index = start
      while index + 1 < string.endIndex {
        let (high, low) =
          bigEndian ? (string[index], string[index + 1]) : (string[index + 1], string[index])
        units.append(UInt16(high) << 8 | UInt16(low))
        index += 2
      }
      return String(decoding: units, as: UTF16.self)
    }
  }

}
