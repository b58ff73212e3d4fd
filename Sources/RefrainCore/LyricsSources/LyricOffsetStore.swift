import Foundation

/// The user's per-track lyric offsets, kept in a small JSON file.
///
/// Offsets are milliseconds keyed by `Track.id`; a positive offset shows lines earlier, as in
/// `LyricTimeline`. The file is `$XDG_DATA_HOME/refrain/lyric-offsets.json` by default,
/// shaped `{"offsets":{"track id":-200},"version":1}`. Every change is written at once and
/// atomically (a temporary file renamed over the old one). A file that cannot be parsed is
/// moved aside to `lyric-offsets.json.bak` and the store starts empty. Write failures keep the
/// new value in memory and are reported in `problem`.
public final class LyricOffsetStore: @unchecked Sendable {
  /// The usual size of one nudge, in milliseconds.
  public static let nudgeStepMs = 100
  /// The largest offset kept, in either direction, in milliseconds.
  public static let maxOffsetMs = LRCParser.maxOffsetMs

  /// The JSON file.
  public let fileURL: URL

  private let lock = NSLock()
  private var offsets: [String: Int]
  private var lastProblem: String?

  /// Opens the store in `fileURL`, reading it if it exists.
  public init(fileURL: URL) {
    self.fileURL = fileURL
    (offsets, lastProblem) = Self.load(fileURL)
  }

  /// `$XDG_DATA_HOME/refrain/lyric-offsets.json`, or `~/.local/share/refrain/…` when unset.
  public static func defaultFileURL(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    LyricsStoragePaths.dataDirectory(environment: environment)
      .appendingPathComponent("lyric-offsets.json")
  }

  /// The last problem reading or writing the file, as a sentence for the status line.
  public var problem: String? {
    lock.withLock { lastProblem }
  }

  /// The offset of a track in milliseconds; 0 when none is stored.
  public func offset(for trackID: String) -> Int {
    lock.withLock { offsets[trackID] ?? 0 }
  }

  /// Adds `deltaMs` to a track's offset, saves, and returns the new offset.
  @discardableResult
  public func nudge(_ trackID: String, by deltaMs: Int) -> Int {
    update(trackID) { current in
      let (sum, overflow) = current.addingReportingOverflow(deltaMs)
      return overflow ? (deltaMs > 0 ? Int.max : Int.min) : sum
    }
  }

  /// Sets a track's offset, saves, and returns the offset kept (clamped to `maxOffsetMs`).
  @discardableResult
  public func set(_ offsetMs: Int, for trackID: String) -> Int {
    update(trackID) { _ in offsetMs }
  }

  /// Changes one offset under the lock and writes the whole file.
  private func update(_ trackID: String, _ change: (Int) -> Int) -> Int {
    lock.withLock {
      let value = min(Self.maxOffsetMs, max(-Self.maxOffsetMs, change(offsets[trackID] ?? 0)))
      offsets[trackID] = value == 0 ? nil : value
      do {
        try LyricsAtomicFile.write(try Self.encode(offsets), to: fileURL)
        lastProblem = nil
      } catch {
        lastProblem = "Could not save the lyric offset to \(fileURL.path): \(error)"
      }
      return value
    }
  }

  /// The JSON shape of the file.
  private struct StoredOffsets: Codable {
    var version: Int
    var offsets: [String: Int]
  }

  /// The file's bytes for `offsets`, with sorted keys.
  private static func encode(_ offsets: [String: Int]) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(StoredOffsets(version: 1, offsets: offsets))
  }

  /// Reads the file; a corrupt one is moved to `.bak` and the store starts empty.
  private static func load(_ url: URL) -> ([String: Int], String?) {
    guard FileManager.default.fileExists(atPath: url.path) else { return ([:], nil) }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      return ([:], "Could not read the lyric offsets in \(url.path): \(error)")
    }
    if let stored = try? JSONDecoder().decode(StoredOffsets.self, from: data) {
      return (stored.offsets.filter { $0.value != 0 }, nil)
    }
    let backup = url.appendingPathExtension("bak")
    try? FileManager.default.removeItem(at: backup)
    let moved = (try? FileManager.default.moveItem(at: url, to: backup)) != nil
    return (
      [:],
      "The lyric offsets file \(url.path) was unreadable; "
        + (moved ? "it was kept as \(backup.lastPathComponent) and " : "")
        + "offsets start empty."
    )
  }
}
