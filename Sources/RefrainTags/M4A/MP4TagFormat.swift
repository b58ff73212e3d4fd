import Foundation
import RefrainCore

/// iTunes-style tags in an MP4 file (M4A): lyrics from `©lyr`, the cover from `covr`.
///
/// A file whose boxes do not parse has no lyrics and no cover here, as an MP3 with a broken
/// ID3 tag has none; only a file that cannot be read at all throws.
package struct MP4TagFormat: TagFormat {
  package var name: String { "MP4" }

  /// Creates the format.
  package init() {}

  /// An `ftyp` box at the start: 4 bytes of size, then its type.
  /// The `©lyr` text, which the embedded lyrics source reads as LRC when it is timed.
  package func lyrics(in file: URL) throws -> EmbeddedLyrics {
    guard let found = try Self.tags(in: file) else { return EmbeddedLyrics() }
    return EmbeddedLyrics(text: found.tags.lyrics)
  }

  /// The first picture in `covr` (MP4 has no picture types: it is the front cover).
  package func frontCover(in file: URL, maxPictureBytes: Int) throws -> EmbeddedCover {
    guard let found = try Self.tags(in: file), let picture = found.tags.cover else {
      return .none
    }
    guard picture.size <= UInt64(max(0, maxPictureBytes)) else {
      return .tooLarge(bytes: Int(clamping: picture.size))
    }
    let bytes = try found.reader.source.read(at: picture.offset, count: Int(picture.size))
    guard bytes.count == Int(picture.size), !bytes.isEmpty else { return .none }
    return .picture(
      EmbeddedPicture(mimeType: picture.mimeType(of: bytes), pictureType: 3, data: bytes))
  }

  /// The file's reader and tags; `nil` when its boxes do not parse, thrown when unreadable.
  private static func tags(in file: URL) throws -> (reader: MP4BoxReader, tags: MP4Metadata)? {
    let reader = MP4BoxReader(try MP4FileSource(url: file))
    do {
      return (reader, try MP4Metadata.read(from: reader).tags)
    } catch {
      if case .unreadable = error { throw error }
      return nil
    }
  }
}
