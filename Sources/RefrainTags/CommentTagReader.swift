import Foundation
import RefrainCatalog
import RefrainCore

/// The text tags of FLAC, Ogg (Vorbis and Opus) and WAV files, read from their metadata
/// without decoding audio: `TITLE`, `ARTIST`, `ALBUMARTIST`, `ALBUM`, `TRACKNUMBER`, `DATE`
/// and `ISRC` (WAV's INFO names mapped to these), and the duration from the headers.
struct CommentTagReader: TagReader {
  /// Which format's metadata to read.
  enum Kind {
    case flac, ogg, wav
  }

  let kind: Kind

  func readTags(atPath path: String) throws -> LocalTrackInfo {
    let url = URL(fileURLWithPath: path)
    let tags: FileTags
    do {
      switch kind {
      case .flac: tags = try FLACTagFormat.read(url, maxPictureBytes: 0)
      case .ogg: tags = try OggTagFormat.read(url, maxPictureBytes: 0)
      case .wav: tags = try WAVTagFormat.read(url)
      }
    } catch {
      throw TagReadError("\(error.localizedDescription)")
    }
    guard tags.duration != nil || !tags.fields.isEmpty else {
      throw TagReadError("no stream information in the file's headers")
    }
    return LocalTrackInfo(
      title: tags.first("TITLE"), artist: tags.first("ARTIST"),
      albumArtist: tags.first("ALBUMARTIST") ?? tags.first("ALBUM ARTIST"),
      album: tags.first("ALBUM"), trackNumber: tags.number("TRACKNUMBER"),
      year: tags.number("DATE") ?? tags.number("YEAR"), duration: tags.duration,
      isrc: tags.first("ISRC"))
  }
}
