import Foundation
import RefrainCore

/// Lyrics stored in a file's tags: a text (which may be LRC) and lines timed in
/// milliseconds, whichever the format holds.
package struct EmbeddedLyrics: Sendable, Equatable {
  /// The stored lyrics text, trimmed; `nil` when there is none.
  package var text: String?
  /// Timed lines, in file order.
  package var synced: [(ms: Int, text: String)]

  package init(text: String? = nil, synced: [(ms: Int, text: String)] = []) {
    self.text = text
    self.synced = synced
  }

  package static func == (lhs: EmbeddedLyrics, rhs: EmbeddedLyrics) -> Bool {
    lhs.text == rhs.text && lhs.synced.elementsEqual(rhs.synced) { $0 == $1 }
  }
}

/// What a file's tags hold as its cover.
package enum EmbeddedCover: Sendable, Equatable {
  /// No tag, or no readable picture in it.
  case none
  /// The chosen picture: the front cover, else the first.
  case picture(EmbeddedPicture)
  /// The chosen picture is `bytes` long, more than the limit: it was not read.
  case tooLarge(bytes: Int)
}

/// A picture from a file's tags.
package struct EmbeddedPicture: Sendable, Equatable {
  /// The MIME type as stored (ID3v2.2: the 3-letter format, such as `JPG`); it may lie.
  package var mimeType: String
  /// The picture type: 3 is the front cover, 0 "other".
  package var pictureType: UInt8
  /// The picture's bytes.
  package var data: [UInt8]

  package init(mimeType: String, pictureType: UInt8, data: [UInt8]) {
    self.mimeType = mimeType
    self.pictureType = pictureType
    self.data = data
  }
}

/// One way audio files carry tags, after the decoders' ``AudioDecoderFormat``: embedded
/// lyrics and covers read every file through ``TagFormats``, never one format directly.
///
/// ID3v2 (MP3), FLAC, Ogg (Vorbis and Opus), WAV and MP4 atoms (M4A) are one type each,
/// chosen by ``AudioFormat/tagFormat``.
package protocol TagFormat: Sendable {
  /// The format's name, for messages ("ID3v2").
  var name: String { get }
  /// The lyrics in the file's tags; empty when it has none. Throws when the file cannot be
  /// read.
  func lyrics(in file: URL) throws -> EmbeddedLyrics
  /// The file's front cover, never reading a picture larger than `maxPictureBytes`. Throws
  /// when the file cannot be read.
  func frontCover(in file: URL, maxPictureBytes: Int) throws -> EmbeddedCover
  /// The ReplayGain values in the file's tags; empty when it has none. Throws when the file
  /// cannot be read.
  func replayGain(in file: URL) throws -> ReplayGain
}

/// The choice of a file's tag format by its first bytes (RefrainCore's ``AudioFormat`` table,
/// then ``AudioFormat/tagFormat``).
package enum TagFormats {
  /// The format of the file at `url`, from its first bytes; a file no format claims is read
  /// as ID3v2, which finds nothing in a file without an ID3 tag. Throws when the file cannot
  /// be read.
  package static func format(of url: URL) throws -> any TagFormat {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    let head = [UInt8](try handle.read(upToCount: 64) ?? Data())
    return AudioFormat.detect(head: head)?.tagFormat ?? ID3v2Format()
  }
}

/// ID3v2 tags at the start of a file (MP3): USLT/SYLT lyrics, APIC/PIC pictures.
package struct ID3v2Format: TagFormat {
  package var name: String { "ID3v2" }

  package func lyrics(in file: URL) throws -> EmbeddedLyrics {
    let tag = try ID3v2Lyrics.read(from: file)
    return EmbeddedLyrics(text: tag.text, synced: tag.synced.map { (ms: $0.ms, text: $0.text) })
  }

  package func frontCover(in file: URL, maxPictureBytes: Int) throws -> EmbeddedCover {
    try ID3v2Pictures.frontCover(in: file, maxPictureBytes: maxPictureBytes)
  }
}
