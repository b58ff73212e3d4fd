import Foundation
import RefrainCore

/// Finds the front cover in the ID3v2 tag at the start of a file, reading only the tag and
/// never a picture larger than the caller's limit.
///
/// Prefers the first picture of type 3 (front cover), else the first picture. Reads v2.2,
/// v2.3 and v2.4 tags; unsynchronisation (whole-tag or per frame), extended headers, group
/// bytes and data length indicators are honoured, compressed and encrypted frames skipped.
/// Frames are found by reading their headers and seeking past their contents, so a 50 MB
/// picture costs a few small reads, not 50 MB of memory. A broken frame ends the walk
/// quietly; no input makes it trap.
package enum ID3v2Pictures {
  /// The most bytes of a picture frame's start read to find where its data begins (encoding,
  /// MIME type, picture type, description).
  static let prefixBytes = 4096

  /// The front cover of the file at `url`, in the tag at its start or at `tagOffset` (a
  /// WAV file's `id3 ` chunk).
  ///
  /// Throws when the file cannot be opened or read.
  package static func frontCover(in url: URL, tagOffset: UInt64 = 0, maxPictureBytes: Int)
    throws -> EmbeddedCover
  {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    try handle.seek(toOffset: tagOffset)
    let header = [UInt8](try handle.read(upToCount: 10) ?? Data())
    guard let size = ID3v2Lyrics.bodySize(header: header), size > 0 else { return .none }
    let version = header[3]
    let flags = header[5]
    if version == 2, flags & 0x40 != 0 { return .none }
    // v2.2 and v2.3 unsynchronise the whole body, so frames can only be found after undoing
    // it: read the body into memory, at most a little more than the largest picture allowed.
    if flags & 0x80 != 0, version < 4 {
      let limit = min(size, maxPictureBytes + maxPictureBytes / 8 + 65536)
      let raw = [UInt8](try handle.read(upToCount: limit) ?? Data())
      let body = ID3Bytes.removingUnsync(raw)
      return try frontCover(
        version: version, flags: flags, bodyLength: body.count, maxPictureBytes: maxPictureBytes
      ) { offset, count in
        guard offset < body.count else { return [] }
        return Array(body[offset..<min(body.count, offset + count)])
      }
    }
    return try frontCover(
      version: version, flags: flags, bodyLength: size, maxPictureBytes: maxPictureBytes
    ) { offset, count in
      try handle.seek(toOffset: tagOffset + UInt64(10 + offset))
      return [UInt8](try handle.read(upToCount: count) ?? Data())
    }
  }

  /// A picture frame found in the walk, before its data is read.
  private struct Candidate {
    var dataStart: Int
    var dataLength: Int
    var unsynchronised: Bool
    var mimeType: String
    var pictureType: UInt8
  }

  /// Walks the frames through `read(offset, count)` (offsets within the body, fewer bytes at
  /// its end) and reads the chosen picture.
  private static func frontCover(
    version: UInt8, flags: UInt8, bodyLength: Int, maxPictureBytes: Int,
    read: (Int, Int) throws -> [UInt8]
  ) throws -> EmbeddedCover {
    let headerLength = ID3Bytes.frameHeaderLength(version: version)
    let tagUnsynchronised = flags & 0x80 != 0
    guard var offset = ID3Bytes.framesStart(try read(0, 10), version: version, flags: flags)
    else { return .none }
    var chosen: Candidate?
    while offset <= bodyLength - headerLength,
      let frame = ID3Bytes.frameHeader(try read(offset, headerLength), at: 0, version: version)
    {
      let start = offset + headerLength
      guard frame.size <= bodyLength - start else { break }
      offset = start + frame.size
      guard frame.id == "APIC" || frame.id == "PIC",
        let format = ID3Bytes.frameFormat(
          flags: frame.flags, version: version, tagUnsynchronised: tagUnsynchronised),
        frame.size > format.skip
      else { continue }
      let contentStart = start + format.skip
      let contentLength = frame.size - format.skip
      var prefix = try read(contentStart, min(contentLength, prefixBytes))
      if format.unsynchronised { prefix = ID3Bytes.removingUnsync(prefix) }
      guard let header = pictureHeader(prefix, version: version) else { continue }
      // In an unsynchronised frame the prefix shrank; count the data from the raw bytes.
      let rawHeaderLength =
        format.unsynchronised
        ? rawLength(ofDecoded: header.length, in: try read(contentStart, prefixBytes))
        : header.length
      let candidate = Candidate(
        dataStart: contentStart + rawHeaderLength, dataLength: contentLength - rawHeaderLength,
        unsynchronised: format.unsynchronised, mimeType: header.mimeType,
        pictureType: header.pictureType)
      if chosen == nil || (chosen?.pictureType != 3 && candidate.pictureType == 3) {
        chosen = candidate
      }
      if candidate.pictureType == 3 { break }
    }
    guard let chosen else { return .none }
    guard chosen.dataLength <= maxPictureBytes else { return .tooLarge(bytes: chosen.dataLength) }
    var data = try read(chosen.dataStart, chosen.dataLength)
    if chosen.unsynchronised { data = ID3Bytes.removingUnsync(data) }
    return .picture(
      EmbeddedPicture(mimeType: chosen.mimeType, pictureType: chosen.pictureType, data: data))
  }

  /// An APIC/PIC frame's fields before the picture: its MIME type, picture type and their
  /// length in bytes; `nil` when they do not fit in `prefix`.
  private static func pictureHeader(_ prefix: [UInt8], version: UInt8) -> (
    mimeType: String, pictureType: UInt8, length: Int
  )? {
    guard let encoding = prefix.first, encoding <= 3 else { return nil }
    let typeIndex: Int
    let mimeType: String
    if version == 2 {
      // PIC: encoding, a 3-byte image format, picture type, description.
      guard prefix.count >= 5 else { return nil }
      mimeType = String(decoding: prefix[1..<4], as: UTF8.self)
      typeIndex = 4
    } else {
      guard let end = ID3Bytes.endOfTerminatedString(prefix, from: 1, encoding: 0) else {
        return nil
      }
      mimeType = String(decoding: prefix[1..<end - 1], as: UTF8.self)
      typeIndex = end
    }
    guard typeIndex < prefix.count,
      let end = ID3Bytes.endOfTerminatedString(prefix, from: typeIndex + 1, encoding: encoding)
    else { return nil }
    return (mimeType, prefix[typeIndex], end)
  }

  /// How many raw (unsynchronised) bytes decode to the first `decoded` bytes.
  private static func rawLength(ofDecoded decoded: Int, in raw: [UInt8]) -> Int {
    var produced = 0
    var previous: UInt8 = 0
    for (index, byte) in raw.enumerated() {
      if !(previous == 0xFF && byte == 0x00) {
        if produced == decoded { return index }
        produced += 1
      }
      previous = byte
    }
    return raw.count
  }
}
