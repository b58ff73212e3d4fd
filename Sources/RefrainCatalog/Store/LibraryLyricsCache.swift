import Foundation
import RefrainCore

/// The lyrics cache's entries in the library database's `lyrics_cache` table.
///
/// One SQLite file then holds everything Refrain remembers: playlists, history, offsets
/// and the lyrics it fetched, so a backup or a move of the library takes them all.
public struct LibraryLyricsCache: LyricsCacheStorage {
  /// The library the entries live in.
  public let store: LibraryStore

  /// Creates storage in `store`.
  public init(store: LibraryStore) { self.store = store }

  public func read(_ key: String) throws -> Data? {
    try store.lyrics.cachedLyrics(for: key).map { Data($0.text.utf8) }
  }

  public func write(_ data: Data, for key: String) throws {
    try store.lyrics.cacheLyrics(
      String(decoding: data, as: UTF8.self), for: key, source: "lyrics cache")
  }

  public func remove(_ key: String) {
    _ = try? store.lyrics.removeCachedLyrics(forKey: key)
  }
}
