import Foundation
import GRDB
import RefrainCore

/// ReplayGain measured by `refrain scan --replaygain`, kept in the library and never written
/// into the music files.
///
/// One row per path, with the file's size and modification time when it was measured, so a
/// changed file shows as stale; a batch of measurements is saved in one transaction.
public struct ReplayGainStore: Sendable {
  /// The library whose connection it shares.
  let store: LibraryStore

  /// One file's measured loudness, as stored.
  public struct MeasuredGain: Sendable, Equatable {
    /// The file's absolute path.
    public var path: String
    /// The file's size when it was measured.
    public var size: Int64
    /// The file's modification time when it was measured (seconds since 1970).
    public var mtime: Double
    /// The gains and peaks (track values always, album values when measured).
    public var gain: ReplayGain

    /// Creates a measurement.
    public init(path: String, size: Int64, mtime: Double, gain: ReplayGain) {
      self.path = path
      self.size = size
      self.mtime = mtime
      self.gain = gain
    }
  }

  /// Stores `measurements` in one transaction, replacing earlier ones for the same paths.
  public func saveMeasuredGains(_ measurements: [MeasuredGain]) throws {
    guard !measurements.isEmpty else { return }
    try store.write { db in
      for item in measurements {
        try db.execute(
          sql: """
            INSERT OR REPLACE INTO replay_gain
              (path, size, mtime, track_gain, track_peak, album_gain, album_peak)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
          arguments: [
            item.path, item.size, item.mtime, item.gain.trackGain ?? 0, item.gain.trackPeak ?? 0,
            item.gain.albumGain, item.gain.albumPeak,
          ])
      }
    }
  }

  /// The measurement stored for `path`, whatever the file is now; `nil` when none is.
  public func measuredGain(path: String) throws -> MeasuredGain? {
    try store.read { db in
      try Row.fetchOne(
        db,
        sql: """
          SELECT path, size, mtime, track_gain, track_peak, album_gain, album_peak
          FROM replay_gain WHERE path = ?
          """,
        arguments: [path]
      ).map { row in
        MeasuredGain(
          path: row["path"], size: row["size"], mtime: row["mtime"],
          gain: ReplayGain(
            trackGain: row["track_gain"], trackPeak: row["track_peak"],
            albumGain: row["album_gain"], albumPeak: row["album_peak"]))
      }
    }
  }

  /// A scanned file under the folders `refrain scan --replaygain` measures.
  public struct GainCandidate: Sendable, Equatable {
    /// The file's absolute path.
    public var path: String
    /// The local album it belongs to; `nil` for a file without an album tag.
    public var albumID: Int64?
    /// What was measured for it before, if anything.
    public var measured: MeasuredGain?
  }

  /// The indexed local files under `folders`, in album and path order, with what was
  /// measured for each before.
  public func replayGainCandidates(under folders: [String]) throws -> [GainCandidate] {
    try store.read { db in
      var found: [GainCandidate] = []
      var seen = Set<String>()
      for folder in folders {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let rows = try Row.fetchAll(
          db,
          sql: """
            SELECT t.path, t.album_id, g.size, g.mtime, g.track_gain, g.track_peak, g.album_gain,
                   g.album_peak
            FROM local_tracks t LEFT JOIN replay_gain g ON g.path = t.path
            WHERE substr(t.path, 1, ?) = ?
            ORDER BY t.album_id, t.path
            """,
          arguments: [prefix.unicodeScalars.count, prefix])
        for row in rows {
          let path: String = row["path"]
          guard seen.insert(path).inserted else { continue }
          var measured: MeasuredGain?
          if let size: Int64 = row["size"] {
            measured = MeasuredGain(
              path: path, size: size, mtime: row["mtime"],
              gain: ReplayGain(
                trackGain: row["track_gain"], trackPeak: row["track_peak"],
                albumGain: row["album_gain"], albumPeak: row["album_peak"]))
          }
          found.append(GainCandidate(path: path, albumID: row["album_id"], measured: measured))
        }
      }
      return found
    }
  }
}
