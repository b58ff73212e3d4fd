import Foundation

/// Where the lyrics cache keeps its entries: one small JSON document per key.
///
/// The full-screen player keeps them in the library database
/// (`LibraryStore`'s `lyrics_cache` table); without one, they are files.
public protocol LyricsCacheStorage: Sendable {
  /// The document stored under `key`, or `nil` when there is none.
  func read(_ key: String) throws -> Data?
  /// Stores `data` under `key`, replacing any earlier document.
  func write(_ data: Data, for key: String) throws
  /// Deletes the document under `key`, if there is one.
  func remove(_ key: String)
}

/// Cache entries as files `<key>.json` in one folder, each replaced atomically.
public struct LyricsCacheFolder: LyricsCacheStorage {
  /// The folder that holds the entries; created on the first write.
  public let directory: URL

  /// Creates storage in `directory`.
  public init(directory: URL) { self.directory = directory }

  /// The file that holds the document for `key`.
  public func fileURL(for key: String) -> URL {
    directory.appendingPathComponent(key + ".json")
  }

  public func read(_ key: String) throws -> Data? {
    let url = fileURL(for: key)
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    return try Data(contentsOf: url)
  }

  public func write(_ data: Data, for key: String) throws {
    try AtomicFile.write(data, to: fileURL(for: key))
  }

  public func remove(_ key: String) {
    try? FileManager.default.removeItem(at: fileURL(for: key))
  }
}

/// Lyrics the online service sent before, kept so a track is looked up only once.
///
/// Each entry is a small JSON document under the track's key:
/// `{"instrumental":false,"key":"…","lyrics":"…LRC or plain text…","version":1}`.
/// The key hashes the artist, title, album and the duration in whole seconds, so the same
/// track finds its entry in every run. An entry that cannot be read is deleted and
/// reported, and the track is looked up again. Where entries live is a
/// ``LyricsCacheStorage``: the library database, or files in
/// `$XDG_CACHE_HOME/refrain/lyrics/` (by default `~/.cache/refrain/lyrics/`).
public struct LyricsCache: Sendable {
  /// What the cache holds for one track.
  public enum Entry: Sendable, Equatable {
    /// Lyrics, synced or plain.
    case lyrics(LyricsDocument)
    /// The service said the track is instrumental.
    case instrumental
  }

  /// The answer to a cache lookup.
  public enum Lookup: Sendable, Equatable {
    /// An entry for the track.
    case hit(Entry)
    /// No entry for the track.
    case miss
    /// The entry could not be read (`reason` says why); it has been deleted.
    case unreadable(reason: String)
  }

  /// Where the entries are kept.
  public let storage: any LyricsCacheStorage

  /// Creates a cache over `storage`.
  public init(storage: any LyricsCacheStorage) {
    self.storage = storage
  }

  /// Creates a cache of files in `directory`; the folder is created on the first write.
  public init(directory: URL) {
    self.init(storage: LyricsCacheFolder(directory: directory))
  }

  /// `$XDG_CACHE_HOME/refrain/lyrics`, or `~/.cache/refrain/lyrics` when it is unset.
  public static func defaultDirectory(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    LyricsStoragePaths.cacheDirectory(environment: environment)
  }

  /// The stable key of a track: 16 hex digits of a 64-bit FNV-1a hash of its identity.
  public static func key(for query: LyricsQuery) -> String {
    let hash = identity(of: query).utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { hash, byte in
      (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// Reads the entry for `query`.
  public func lookup(_ query: LyricsQuery) -> Lookup {
    let key = Self.key(for: query)
    let data: Data?
    do {
      data = try storage.read(key)
    } catch {
      storage.remove(key)
      return .unreadable(reason: "the cached lyrics were unreadable and were discarded")
    }
    guard let data else { return .miss }
    guard let stored = try? JSONDecoder().decode(StoredEntry.self, from: data) else {
      storage.remove(key)
      return .unreadable(reason: "the cached lyrics were unreadable and were discarded")
    }
    // Another track whose identity hashes to the same key: not ours.
    guard stored.key == Self.identity(of: query) else { return .miss }
    if stored.instrumental { return .hit(.instrumental) }
    guard let text = stored.lyrics else {
      storage.remove(key)
      return .unreadable(reason: "the cached lyrics entry was empty and was discarded")
    }
    return .hit(.lyrics(LRCParser.parse(text)))
  }

  /// Stores `entry` for `query`, replacing any earlier one.
  public func store(_ entry: Entry, for query: LyricsQuery) throws {
    let stored: StoredEntry
    switch entry {
    case .lyrics(let document):
      stored = StoredEntry(
        version: 1, key: Self.identity(of: query), instrumental: false,
        lyrics: document.lrcText())
    case .instrumental:
      stored = StoredEntry(
        version: 1, key: Self.identity(of: query), instrumental: true, lyrics: nil)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    try storage.write(try encoder.encode(stored), for: Self.key(for: query))
  }

  /// Deletes the entry for `query`, if there is one.
  public func remove(_ query: LyricsQuery) {
    storage.remove(Self.key(for: query))
  }

  /// The fields that identify a track, normalised (case, spaces) and joined.
  static func identity(of query: LyricsQuery) -> String {
    func normalized(_ text: String?) -> String {
      (text ?? "").lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
    let seconds = query.duration.map { $0.isFinite && abs($0) < 1e9 ? Int($0.rounded()) : 0 }
    return [
      normalized(query.artist), normalized(query.title), normalized(query.album),
      seconds.map(String.init) ?? "",
    ].joined(separator: "\u{1F}")
  }

  /// The JSON shape of one cache file.
  private struct StoredEntry: Codable {
    var version: Int
    var key: String
    var instrumental: Bool
    var lyrics: String?
  }
}
