import Foundation
import RefrainCore

/// Radio playlists (`.pls`, `.m3u`, `.m3u8`): the first of their streams that opens plays.
extension AudioDecoders {
  /// Opens the playlist file at `file`.
  static func openPlaylist(
    at file: URL, news: (@Sendable (StreamNews) -> Void)?, shouldStop: @escaping () -> Bool
  ) throws -> any AudioDecoder {
    guard let handle = FileHandle(forReadingAtPath: file.path) else {
      throw AudioError.fileNotReadable(path: file.path, reason: "cannot open it")
    }
    defer { try? handle.close() }
    let bytes = [UInt8]((try? handle.read(upToCount: StreamPlaylist.maxBytes + 1)) ?? Data())
    return try openFirst(of: bytes, in: file, news: news, shouldStop: shouldStop)
  }

  /// Opens the entries of the playlist `bytes` read from `source` in order, and returns the
  /// first that opens; throws ``AudioError/playlist(name:detail:)`` with the last entry's
  /// error when none does.
  ///
  /// `bytes` holds up to ``StreamPlaylist/maxBytes`` + 1 of its first bytes; a longer
  /// playlist, or one of more than ``StreamPlaylist/maxEntries`` entries, is read up to the
  /// cap, in whole lines, and `news` hears one line saying so.
  static func openFirst(
    of bytes: [UInt8], in source: URL, news: (@Sendable (StreamNews) -> Void)?,
    shouldStop: @escaping () -> Bool
  ) throws -> any AudioDecoder {
    let name = source.isFileURL ? source.path : source.absoluteString
    let listing: StreamPlaylist.Listing
    do {
      listing = try StreamPlaylist.listing(of: bytes, base: source)
    } catch let problem as StreamPlaylist.Problem {
      throw AudioError.playlist(name: name, detail: problem.description)
    }
    if let notice = listing.capNotice(name: name) { news?(.notice(notice)) }
    let entries = listing.entries
    var last: Error?
    for entry in entries where entry != source {
      do {
        if entry.isFileURL {
          // A playlist of playlists is read too, one level down at most.
          let head = firstBytes(of: entry.path)
          if StreamPlaylist.recognizes(name: entry.path, head: head) {
            throw AudioError.playlist(name: entry.path, detail: "a playlist inside a playlist")
          }
          return try open(path: entry.path)
        }
        return try open(url: entry, news: news, shouldStop: shouldStop)
      } catch {
        last = error
        if shouldStop() { break }
      }
    }
    let summary =
      entries.count == 1
      ? "its one entry did not play" : "none of its \(entries.count) entries played"
    throw AudioError.playlist(name: name, detail: summary + (last.map { ": \($0)" } ?? ""))
  }
}
