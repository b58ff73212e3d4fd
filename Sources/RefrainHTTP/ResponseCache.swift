import Foundation

/// Successful catalog answers kept for a short time, in memory and optionally on disk.
///
/// Entries older than `ttl` are never served. Keep the TTL well below the lifetime of
/// anything signed inside a body (online preview URLs expire after about 15 minutes).
/// Disk entries live under `$XDG_CACHE_HOME/refrain/http/`, one JSON file per URL;
/// disk errors are ignored because the cache is only an optimisation.
public struct ResponseCache: Sendable {
  /// How long an entry stays fresh, in seconds.
  public let ttl: TimeInterval
  /// The most entries kept in memory; the oldest go first.
  public let memoryLimit: Int
  /// Where entries are also written, or `nil` for memory only.
  public let directory: URL?
  private var memory: [String: Entry] = [:]

  /// Creates an empty cache.
  public init(ttl: TimeInterval, memoryLimit: Int = 256, directory: URL? = nil) {
    self.ttl = ttl
    self.memoryLimit = max(1, memoryLimit)
    self.directory = directory
  }

  /// `$XDG_CACHE_HOME/refrain/http`, or `~/.cache/refrain/http` when it is unset.
  public static func defaultDirectory(environment: [String: String]) -> URL {
    let root: URL
    if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
      root = URL(fileURLWithPath: cache, isDirectory: true)
    } else {
      let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
      root = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache")
    }
    return root.appendingPathComponent("refrain").appendingPathComponent("http")
  }

  /// The fresh body stored under `key`, from memory first, then disk.
  public mutating func body(for key: String, now: Date) -> Data? {
    if let entry = memory[key] {
      if isFresh(entry, now: now) { return entry.body }
      memory[key] = nil
    }
    guard let file = file(for: key),
      let data = try? Data(contentsOf: file),
      let entry = try? JSONDecoder().decode(Entry.self, from: data),
      entry.key == key
    else { return nil }
    guard isFresh(entry, now: now) else {
      try? FileManager.default.removeItem(at: file)
      return nil
    }
    remember(entry)
    return entry.body
  }

  /// Stores a body under `key`.
  public mutating func store(_ body: Data, for key: String, now: Date) {
    let entry = Entry(key: key, storedAt: now, body: body)
    remember(entry)
    guard let file = file(for: key), let data = try? JSONEncoder().encode(entry) else { return }
    try? FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try? data.write(to: file, options: .atomic)
  }

  /// Forgets the entry under `key` (such as a body that then failed to decode).
  public mutating func remove(_ key: String) {
    memory[key] = nil
    if let file = file(for: key) { try? FileManager.default.removeItem(at: file) }
  }

  private func isFresh(_ entry: Entry, now: Date) -> Bool {
    let age = now.timeIntervalSince(entry.storedAt)
    return age >= 0 && age < ttl
  }

  private mutating func remember(_ entry: Entry) {
    memory[entry.key] = entry
    guard memory.count > memoryLimit else { return }
    let oldest = memory.values.sorted { $0.storedAt < $1.storedAt }.prefix(
      memory.count - memoryLimit)
    for stale in oldest { memory[stale.key] = nil }
  }

  private func file(for key: String) -> URL? {
    directory?.appendingPathComponent(Self.fileName(for: key))
  }

  /// A stable file name for a key: its 64-bit FNV-1a hash in hex.
  static func fileName(for key: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in key.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex + ".json"
  }

  /// One stored answer; the key is kept to detect hash collisions.
  private struct Entry: Codable, Sendable {
    var key: String
    var storedAt: Date
    var body: Data
  }
}
