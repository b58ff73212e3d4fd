import Foundation
import RefrainAudio
import RefrainCatalog

/// Reads tags for `refrain scan` and the room server's library: the fast pure-Swift reader
/// first, the decoder when needed.
///
/// ``ID3TagReader`` reads only the tag and the first frames. When it cannot find the audio,
/// or the file is variable-bitrate without a frame count (so only a full scan gives the
/// length), `MP3Decoder` opens and scans the file; its tags fill any gap. With `exact`, every
/// file goes through the decoder, which also proves each file decodes.
public struct AudioTagReader: TagReader {
  /// Whether every file is scanned by the decoder.
  public var exact: Bool

  /// Creates a reader; `exact` sends every file through the decoder.
  public init(exact: Bool = false) { self.exact = exact }

  public func readTags(atPath path: String) throws -> LocalTrackInfo {
    try readStampedTags(atPath: path).0
  }

  /// The tags, with the size and modification time ``ID3TagReader`` saw when it read them.
  public func readStampedTags(atPath path: String) throws -> (LocalTrackInfo, FileStamp?) {
    let (fast, stamp) = (try? ID3TagReader().readStampedTags(atPath: path)) ?? (nil, nil)
    return try complete(fast, stamp, path: path)
  }

  public func readStampedTags(atPath path: String, descriptor: Int32) throws
    -> (LocalTrackInfo, FileStamp?)
  {
    let reader = ID3TagReader()
    let (fast, stamp) =
      (try? reader.readStampedTags(atPath: path, descriptor: descriptor)) ?? (nil, nil)
    return try complete(fast, stamp, path: path)
  }

  /// The ID3 reader's result, with the decoder's duration (and tags it lacks) when it has
  /// no duration or `exact` asks for it.
  private func complete(_ fast: LocalTrackInfo?, _ stamp: FileStamp?, path: String) throws
    -> (LocalTrackInfo, FileStamp?)
  {
    if !exact, let fast, fast.duration != nil { return (fast, stamp) }
    let decoder: MP3Decoder
    do {
      decoder = try MP3Decoder(path: path)
    } catch {
      throw TagReadError("\(error)")
    }
    let tags = decoder.tags
    var info = fast ?? LocalTrackInfo()
    info.title = info.title ?? tags.title
    info.artist = info.artist ?? tags.artist
    info.album = info.album ?? tags.album
    info.trackNumber = info.trackNumber ?? tags.trackNumber
    info.year = info.year ?? tags.year
    info.duration = decoder.duration ?? info.duration
    return (info, stamp)
  }
}
