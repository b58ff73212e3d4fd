import Foundation
import RefrainCore

/// The text tags of FLAC, Ogg (Vorbis and Opus) and WAV files, read from their metadata
/// without decoding audio: `TITLE`, `ARTIST`, `ALBUMARTIST`, `ALBUM`, `TRACKNUMBER`, `DATE`
/// and `ISRC` (WAV's INFO names mapped to these, or its `id3 ` chunk read as an MP3's ID3v2
/// tag, which wins where both are present), and the duration from the headers.
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
      throw TagReadError("\(error.localizedDescription)", kind: .damaged)
    }
    guard tags.duration != nil || !tags.fields.isEmpty || tags.id3v2Tag != nil else {
      throw TagReadError("no stream information in the file's headers", kind: .damaged)
    }
    let comments = LocalTrackInfo(
      title: tags.first("TITLE"), artist: tags.first("ARTIST"),
      albumArtist: tags.first("ALBUMARTIST") ?? tags.first("ALBUM ARTIST"),
      album: tags.first("ALBUM"), trackNumber: tags.number("TRACKNUMBER"),
      year: tags.number("DATE") ?? tags.number("YEAR"), duration: tags.duration,
      isrc: tags.first("ISRC"), discNumber: tags.number("DISCNUMBER"))
    guard let id3 = tags.id3v2Tag.flatMap({ LocalTrackInfo(id3v2Tag: $0) }) else {
      return comments
    }
    return LocalTrackInfo(
      title: id3.title ?? comments.title, artist: id3.artist ?? comments.artist,
      albumArtist: id3.albumArtist ?? comments.albumArtist, album: id3.album ?? comments.album,
      trackNumber: id3.trackNumber ?? comments.trackNumber, year: id3.year ?? comments.year,
      duration: comments.duration, isrc: id3.isrc ?? comments.isrc,
      discNumber: id3.discNumber ?? comments.discNumber)
  }
}
