import Foundation
import RefrainCore

/// What a file's tags say, read without decoding its audio: the text fields, the pictures
/// and the duration its headers give.
package struct FileTags: Sendable, Equatable {
  /// The fields, keys upper-cased, in file order (a key may repeat).
  package var fields: [(key: String, value: String)] = []
  /// The pictures, in file order.
  package var pictures: [EmbeddedPicture] = []
  /// A picture over the limit that was not read: its size.
  package var tooLargePicture: Int?
  /// The duration from the headers, in seconds.
  package var duration: Double?
  /// A whole ID3v2 tag the file holds in a chunk of its own (WAV's `id3 `), up to 4 MiB.
  package var id3v2Tag: [UInt8]?

  package init() {}

  /// The first value of `key` (any case), trimmed; `nil` when missing or blank.
  package func first(_ key: String) -> String? {
    let wanted = key.uppercased()
    return fields.lazy.filter { $0.key == wanted }
      .map { $0.value.trimmingCharacters(in: .whitespacesAndNewlines) }
      .first { !$0.isEmpty }
  }

  /// The leading number of `key` ("3/12" → 3).
  package func number(_ key: String) -> Int? {
    first(key).flatMap { Int($0.prefix { $0.isNumber }) }
  }

  /// The lyrics: `LYRICS`, else `UNSYNCEDLYRICS`.
  package var lyrics: EmbeddedLyrics {
    EmbeddedLyrics(text: first("LYRICS") ?? first("UNSYNCEDLYRICS"))
  }

  /// The front cover (type 3), else the first picture.
  package var cover: EmbeddedCover {
    if let front = pictures.first(where: { $0.pictureType == 3 }) ?? pictures.first {
      return .picture(front)
    }
    return tooLargePicture.map { .tooLarge(bytes: $0) } ?? .none
  }

  package static func == (lhs: FileTags, rhs: FileTags) -> Bool {
    lhs.fields.elementsEqual(rhs.fields) { $0 == $1 } && lhs.pictures == rhs.pictures
      && lhs.tooLargePicture == rhs.tooLargePicture && lhs.duration == rhs.duration
      && lhs.id3v2Tag == rhs.id3v2Tag
  }

  // MARK: - Shared pieces

  /// Adds the fields of a Vorbis comment block (vendor, count, `KEY=value` entries).
  mutating func addVorbisComments(_ bytes: ArraySlice<UInt8>, maxPictureBytes: Int) {
    var reader = ByteReader(bytes)
    guard let vendor = reader.uint32LE(), reader.skip(Int(vendor)), let count = reader.uint32LE()
    else { return }
    for _ in 0..<min(Int(count), 10_000) {
      guard let length = reader.uint32LE(), let entry = reader.take(Int(length)) else { return }
      guard let equals = entry.firstIndex(of: 0x3D) else { continue }
      let key = String(decoding: entry[entry.startIndex..<equals], as: UTF8.self).uppercased()
      let value = entry[(equals + 1)...]
      if key == "METADATA_BLOCK_PICTURE" {
        let base64 = String(decoding: value, as: UTF8.self)
        if let block = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) {
          addPicture([UInt8](block)[...], maxPictureBytes: maxPictureBytes)
        }
        continue
      }
      fields.append((key, String(decoding: value, as: UTF8.self)))
    }
  }

  /// Adds a FLAC picture block (type, MIME, description, size, data).
  mutating func addPicture(_ bytes: ArraySlice<UInt8>, maxPictureBytes: Int) {
    var reader = ByteReader(bytes)
    guard let type = reader.uint32BE(), let mimeLength = reader.uint32BE(),
      let mime = reader.take(Int(mimeLength)), let descriptionLength = reader.uint32BE(),
      reader.skip(Int(descriptionLength)), reader.skip(16), let length = reader.uint32BE()
    else { return }
    guard Int(length) <= maxPictureBytes else {
      tooLargePicture = tooLargePicture ?? Int(length)
      return
    }
    guard let data = reader.take(Int(length)) else { return }
    pictures.append(
      EmbeddedPicture(
        mimeType: String(decoding: mime, as: UTF8.self), pictureType: UInt8(clamping: type),
        data: Array(data)))
  }
}

/// Reads little- and big-endian numbers and byte runs from a slice, never past its end.
struct ByteReader {
  private let bytes: ArraySlice<UInt8>
  private(set) var index: Int

  init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    index = bytes.startIndex
  }

  var remaining: Int { bytes.endIndex - index }

  mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
    guard count >= 0, count <= remaining else { return nil }
    defer { index += count }
    return bytes[index..<index + count]
  }

  mutating func skip(_ count: Int) -> Bool { take(count) != nil }

  mutating func uint32LE() -> UInt32? {
    take(4).map { $0.reversed().reduce(0) { $0 << 8 | UInt32($1) } }
  }

  mutating func uint32BE() -> UInt32? {
    take(4).map { $0.reduce(0) { $0 << 8 | UInt32($1) } }
  }
}

/// Reads at most `count` bytes at `offset` of an open file.
private func bytes(_ handle: FileHandle, at offset: UInt64, count: Int) -> [UInt8] {
  guard (try? handle.seek(toOffset: offset)) != nil else { return [] }
  return [UInt8]((try? handle.read(upToCount: count)) ?? Data())
}

// MARK: - FLAC

/// FLAC's metadata blocks: STREAMINFO (the duration), VORBIS_COMMENT and PICTURE.
package struct FLACTagFormat: TagFormat {
  package var name: String { "FLAC" }

  package func lyrics(in file: URL) throws -> EmbeddedLyrics {
    try Self.read(file, maxPictureBytes: 0).lyrics
  }

  package func frontCover(in file: URL, maxPictureBytes: Int) throws -> EmbeddedCover {
    try Self.read(file, maxPictureBytes: maxPictureBytes).cover
  }

  /// The tags of the FLAC file at `url`; pictures over `maxPictureBytes` are not read.
  package static func read(_ url: URL, maxPictureBytes: Int) throws -> FileTags {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    var tags = FileTags()
    var offset: UInt64 = 4
    guard bytes(handle, at: 0, count: 4).elementsEqual("fLaC".utf8) else { return tags }
    for _ in 0..<128 {
      let header = bytes(handle, at: offset, count: 4)
      guard header.count == 4 else { break }
      let type = header[0] & 0x7F
      let length = Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
      let body = offset + 4
      switch type {
      case 0:
        let info = bytes(handle, at: body, count: 18)
        if info.count == 18 {
          let rate = Int(info[10]) << 12 | Int(info[11]) << 4 | Int(info[12]) >> 4
          let frames =
            (UInt64(info[13] & 0x0F) << 32) | UInt64(info[14]) << 24 | UInt64(info[15]) << 16
            | UInt64(info[16]) << 8 | UInt64(info[17])
          if rate > 0, frames > 0 { tags.duration = Double(frames) / Double(rate) }
        }
      case 4:
        tags.addVorbisComments(bytes(handle, at: body, count: length)[...], maxPictureBytes: 0)
      case 6:
        if maxPictureBytes > 0, length <= maxPictureBytes + 65_536 {
          tags.addPicture(
            bytes(handle, at: body, count: length)[...], maxPictureBytes: maxPictureBytes)
        } else {
          tags.tooLargePicture = tags.tooLargePicture ?? length
        }
      default:
        break
      }
      offset = body + UInt64(length)
      if header[0] & 0x80 != 0 { break }  // the last metadata block
    }
    return tags
  }
}

// MARK: - Ogg

/// Ogg Vorbis and Opus: the comment packet (Vorbis comments, pictures as
/// `METADATA_BLOCK_PICTURE`), and the duration from the last page's granule position.
package struct OggTagFormat: TagFormat {
  package var name: String { "Ogg" }

  package func lyrics(in file: URL) throws -> EmbeddedLyrics {
    try Self.read(file, maxPictureBytes: 0).lyrics
  }

  package func frontCover(in file: URL, maxPictureBytes: Int) throws -> EmbeddedCover {
    try Self.read(file, maxPictureBytes: maxPictureBytes).cover
  }

  /// The largest comment packet read (pictures included).
  static let maxCommentBytes = 16 << 20

  /// The tags of the Ogg Vorbis or Opus file at `url`.
  package static func read(_ url: URL, maxPictureBytes: Int) throws -> FileTags {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    var tags = FileTags()
    var packets: [[UInt8]] = []
    var current: [UInt8] = []
    var offset: UInt64 = 0
    var serial: [UInt8] = []
    // The first two packets: the identification header and the comments.
    while packets.count < 2 {
      let header = bytes(handle, at: offset, count: 27)
      guard header.count == 27, header.starts(with: Array("OggS".utf8)) else { break }
      if serial.isEmpty { serial = Array(header[14..<18]) }
      let segments = bytes(handle, at: offset + 27, count: Int(header[26]))
      guard segments.count == Int(header[26]) else { break }
      var position = offset + 27 + UInt64(segments.count)
      for lacing in segments {
        if current.count + Int(lacing) <= maxCommentBytes {
          current += bytes(handle, at: position, count: Int(lacing))
        }
        position += UInt64(lacing)
        if lacing < 255 {
          packets.append(current)
          current = []
          if packets.count == 2 { break }
        }
      }
      offset = position
    }
    guard let identification = packets.first else { return tags }
    let isOpus = identification.starts(with: Array("OpusHead".utf8))
    var rate = 48_000.0
    var preSkip = 0.0
    if isOpus, identification.count >= 12 {
      preSkip = Double(UInt16(identification[10]) | UInt16(identification[11]) << 8)
    } else if identification.count >= 16, identification[1...6].elementsEqual("vorbis".utf8) {
      rate = Double(
        UInt32(identification[12]) | UInt32(identification[13]) << 8
          | UInt32(identification[14]) << 16 | UInt32(identification[15]) << 24)
    }
    if packets.count == 2 {
      let comments = packets[1]
      if isOpus, comments.starts(with: Array("OpusTags".utf8)) {
        tags.addVorbisComments(comments[8...], maxPictureBytes: maxPictureBytes)
      } else if comments.count > 7, comments[0] == 3, comments[1...6].elementsEqual("vorbis".utf8) {
        tags.addVorbisComments(comments[7...], maxPictureBytes: maxPictureBytes)
      }
    }
    if let granule = lastGranule(handle, serial: serial), rate > 0 {
      let frames = Double(granule) - preSkip
      if frames > 0 { tags.duration = frames / rate }
    }
    return tags
  }

  /// The granule position of the last page of the stream `serial`, from the file's end.
  private static func lastGranule(_ handle: FileHandle, serial: [UInt8]) -> UInt64? {
    guard let size = try? handle.seekToEnd(), size > 27 else { return nil }
    let window = min(size, 65_536 + 27)
    let tail = bytes(handle, at: size - window, count: Int(window))
    var index = tail.count - 27
    while index >= 0 {
      if tail[index] == 0x4F, tail[index + 1] == 0x67, tail[index + 2] == 0x67,
        tail[index + 3] == 0x53, Array(tail[(index + 14)..<(index + 18)]) == serial
      {
        let granule = tail[(index + 6)..<(index + 14)].reversed().reduce(UInt64(0)) {
          $0 << 8 | UInt64($1)
        }
        if granule != UInt64.max { return granule }
      }
      index -= 1
    }
    return nil
  }
}

// MARK: - WAV

/// WAV's `LIST`/`INFO` chunk (`INAM`, `IART`, `IPRD`, `ICRD`, `ITRK`), an `id3 ` chunk (a
/// whole ID3v2 tag, as MP3 carries: its lyrics and cover are read here, its text by the
/// scan's ID3 reader), and the duration from `fmt ` and `data`.
package struct WAVTagFormat: TagFormat {
  package var name: String { "WAV" }

  package func lyrics(in file: URL) throws -> EmbeddedLyrics {
    guard let tag = try Self.read(file).id3v2Tag else { return EmbeddedLyrics() }
    let lyrics = ID3v2Lyrics(tag: tag)
    return EmbeddedLyrics(
      text: lyrics.text, synced: lyrics.synced.map { (ms: $0.ms, text: $0.text) })
  }

  package func frontCover(in file: URL, maxPictureBytes: Int) throws -> EmbeddedCover {
    let handle = try FileHandle(forReadingFrom: file)
    defer { try? handle.close() }
    var tagOffset: UInt64?
    Self.forEachChunk(handle) { id, offset, _ in
      if Self.id3ChunkIDs.contains(id) { tagOffset = offset + 8 }
      return tagOffset == nil
    }
    guard let tagOffset else { return .none }
    return try ID3v2Pictures.frontCover(
      in: file, tagOffset: tagOffset, maxPictureBytes: maxPictureBytes)
  }

  /// INFO names for the fields the other formats call TITLE, ARTIST, ALBUM, DATE and
  /// TRACKNUMBER.
  static let names = [
    "INAM": "TITLE", "IART": "ARTIST", "IPRD": "ALBUM", "ICRD": "DATE", "ITRK": "TRACKNUMBER",
    "IPRT": "TRACKNUMBER",
  ]

  /// The ids of a chunk holding an ID3v2 tag, as writers spell it.
  static let id3ChunkIDs: Set<String> = ["id3 ", "ID3 "]

  /// The most bytes of an `id3 ` chunk read (as for an MP3's tag: text comes first).
  static let maxID3Bytes = 4 << 20

  /// The tags of the WAV file at `url`: the INFO fields, the `id3 ` chunk's bytes
  /// (``FileTags/id3v2Tag``) and the duration.
  package static func read(_ url: URL) throws -> FileTags {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    var tags = FileTags()
    var byteRate = 0
    forEachChunk(handle) { id, offset, size in
      if id == "fmt " {
        let body = bytes(handle, at: offset + 8, count: 16)
        if body.count == 16 {
          byteRate = Int(body[8]) | Int(body[9]) << 8 | Int(body[10]) << 16 | Int(body[11]) << 24
        }
      } else if id == "data", byteRate > 0, size != 0xFFFF_FFFF {
        tags.duration = Double(size) / Double(byteRate)
      } else if id == "LIST", size <= 1 << 20 {
        tags.fields += infoFields(bytes(handle, at: offset + 8, count: Int(size)))
      } else if id3ChunkIDs.contains(id), tags.id3v2Tag == nil {
        tags.id3v2Tag = bytes(handle, at: offset + 8, count: Int(min(size, UInt64(maxID3Bytes))))
      }
      return true
    }
    return tags
  }

  /// Calls `visit(id, offset, size)` for each of the first 64 chunks after the RIFF header,
  /// until it returns `false`.
  private static func forEachChunk(
    _ handle: FileHandle, _ visit: (String, UInt64, UInt64) -> Bool
  ) {
    var offset: UInt64 = 12
    for _ in 0..<64 {
      let chunk = bytes(handle, at: offset, count: 8)
      guard chunk.count == 8 else { return }
      let id = String(decoding: chunk[0..<4], as: UTF8.self)
      let size =
        UInt64(chunk[4]) | UInt64(chunk[5]) << 8 | UInt64(chunk[6]) << 16 | UInt64(chunk[7]) << 24
      guard visit(id, offset, size) else { return }
      offset += 8 + size + (size & 1)
    }
  }

  /// The fields of a `LIST` chunk's body when it is an `INFO` list, named as Vorbis names them.
  private static func infoFields(_ body: [UInt8]) -> [(key: String, value: String)] {
    guard body.count >= 4, body[0..<4].elementsEqual("INFO".utf8) else { return [] }
    var fields: [(key: String, value: String)] = []
    var index = 4
    while index + 8 <= body.count {
      let key = String(decoding: body[index..<index + 4], as: UTF8.self)
      let length =
        Int(body[index + 4]) | Int(body[index + 5]) << 8 | Int(body[index + 6]) << 16
        | Int(body[index + 7]) << 24
      let start = index + 8
      guard length >= 0, start + length <= body.count else { break }
      if let name = names[key] {
        let text = body[start..<start + length].prefix { $0 != 0 }
        fields.append((name, String(decoding: text, as: UTF8.self)))
      }
      index = start + length + (length & 1)
    }
    return fields
  }
}
