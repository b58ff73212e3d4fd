import Foundation
import RefrainCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The tags of an M4A file, read from its `ilst` box without decoding: title, artist,
/// album artist, album, track number, year, ISRC, and the duration from the sound track's
/// edit list (or `iTunSMPB`, or its media length).
///
/// With a ``DecoderProof``, the file also goes through its decoder, which proves it decodes
/// and gives the duration after the gapless trim.
struct MP4TagReader: TagReader {
  var proof: DecoderProof?

  func readTags(atPath path: String) throws -> LocalTrackInfo {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw TagReadError.unreadable(errno: errno) }
    defer { close(descriptor) }
    return try readStampedTags(atPath: path, descriptor: descriptor).0
  }

  func readStampedTags(atPath path: String, descriptor: Int32) throws
    -> (LocalTrackInfo, FileStamp?)
  {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw TagReadError.unreadable(errno: errno) }
    guard status.st_size > 0 else { throw TagReadError("the file is empty", kind: .empty) }
    let stamp = FileStamp(
      size: Int64(status.st_size),
      mtime: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
    let source = DescriptorSource(descriptor: descriptor, length: UInt64(status.st_size))
    let movie: MP4Movie
    let tags: MP4Metadata
    do {
      (movie, tags) = try MP4Metadata.read(from: MP4BoxReader(source))
    } catch {
      throw TagReadError("\(error)", kind: .damaged)
    }
    var info = LocalTrackInfo(
      title: tags.title, artist: tags.artist, albumArtist: tags.albumArtist, album: tags.album,
      trackNumber: tags.trackNumber, year: tags.year,
      duration: movie.duration(iTunSMPB: tags.iTunSMPB), isrc: tags.isrc,
      discNumber: tags.discNumber)
    if let proof {
      // Every file proved by its decoder: one that will not play is not indexed.
      info.duration = try AudioTagReader.proved(path, by: proof)
    } else if let codec = movie.audio?.codec, codec != .aac {
      // Indexed by its tags, refused when played: the scan says so in the player's words.
      info.unplayable = SkippedFile(
        path: path, reason: .unsupportedFormat("\(codec)"),
        message: AudioFileMessage.unsupportedCodec(name: path, codec: "\(codec)"))
    }
    return (info, stamp)
  }
}

/// An open file read with `pread`, leaving the descriptor's offset alone.
private final class DescriptorSource: MP4ByteSource {
  let descriptor: Int32
  let length: UInt64

  init(descriptor: Int32, length: UInt64) {
    self.descriptor = descriptor
    self.length = length
  }

  func read(at offset: UInt64, count: Int) throws(MP4Error) -> [UInt8] {
    guard count > 0, offset < length else { return [] }
    var bytes = [UInt8](repeating: 0, count: Int(min(UInt64(count), length - offset)))
    var filled = 0
    while filled < bytes.count {
      let done = bytes.withUnsafeMutableBytes {
        let rest = UnsafeMutableRawBufferPointer(rebasing: $0[filled...])
        return pread(descriptor, rest.baseAddress, rest.count, off_t(offset) + off_t(filled))
      }
      if done < 0, errno == EINTR { continue }
      guard done >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
      if done == 0 { break }
      filled += done
    }
    return Array(bytes.prefix(filled))
  }
}
