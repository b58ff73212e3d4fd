import Foundation
import RefrainAudio
import RefrainCatalog
import RefrainCore
import RefrainTags

/// `refrain scan DIR --replaygain`: measures the loudness of indexed files that carry no
/// ReplayGain tags, with libebur128, into the library. The music files are only read.
///
/// An album is measured as a whole, so its album gain covers every track; a file measured
/// before and unchanged since (same size and modification time) is skipped, and so is every
/// file of an album whose files are all unchanged.
struct ReplayGainScan {
  /// What a run did, for the summary line and `--json`.
  struct Summary: Encodable, Equatable {
    /// Files decoded and measured now.
    var measured = 0
    /// Files measured before and unchanged.
    var unchanged = 0
    /// Files whose tags already hold a track gain (never measured).
    var tagged = 0
    /// Files that could not be decoded.
    var failed = 0
    /// Albums whose album gain was computed now.
    var albums = 0
  }

  let store: LibraryStore
  /// Called with (files done, files to measure) as measuring goes.
  var progress: (Int, Int) -> Void = { _, _ in }
  /// Called with one line per file that could not be measured.
  var problem: (String) -> Void = { _ in }

  /// Measures what is missing under `folders` and stores it.
  func run(folders: [String]) throws -> Summary {
    var summary = Summary()
    var groups: [[ReplayGainStore.GainCandidate]] = []
    var byAlbum: [Int64: Int] = [:]
    for candidate in try store.measuredGains.replayGainCandidates(under: folders) {
      // A file measured before and unchanged since had no gain tags then, nor has it now:
      // its tags are not read again.
      if !Self.isCurrent(candidate),
        let tags = try? TagFormats.replayGain(of: URL(fileURLWithPath: candidate.path)),
        tags.trackGain != nil
      {
        summary.tagged += 1
        continue
      }
      if let album = candidate.albumID, let index = byAlbum[album] {
        groups[index].append(candidate)
      } else {
        if let album = candidate.albumID { byAlbum[album] = groups.count }
        groups.append([candidate])
      }
    }
    let stale = groups.filter { group in group.contains { !Self.isCurrent($0) } }
    summary.unchanged = groups.reduce(0) { $0 + $1.count } - stale.reduce(0) { $0 + $1.count }
    let total = stale.reduce(0) { $0 + $1.count }
    var done = 0
    progress(0, total)
    for group in stale {
      var results: [(ReplayGainStore.GainCandidate, LoudnessMeter.Measurement)] = []
      for candidate in group {
        do {
          results.append((candidate, try LoudnessMeter.measure(path: candidate.path)))
        } catch {
          summary.failed += 1
          problem("\(error)")
        }
        done += 1
        progress(done, total)
      }
      let album = group.first?.albumID == nil ? nil : LoudnessMeter.album(results.map(\.1))
      if album != nil { summary.albums += 1 }
      let rows = results.compactMap { candidate, measurement -> ReplayGainStore.MeasuredGain? in
        guard let stamp = Self.stamp(candidate.path) else { return nil }
        var gain = measurement.gain
        gain.albumGain = album?.gain
        gain.albumPeak = album?.peak
        return ReplayGainStore.MeasuredGain(
          path: candidate.path, size: stamp.size, mtime: stamp.mtime, gain: gain)
      }
      try store.measuredGains.saveMeasuredGains(rows)
      summary.measured += rows.count
    }
    return summary
  }

  /// The gains measured for the file at `path`, when they match the file as it is now.
  static func measured(path: String, in store: LibraryStore) -> ReplayGain? {
    guard let stored = try? store.measuredGains.measuredGain(path: path),
      let stamp = stamp(path), stamp.size == stored.size, stamp.mtime == stored.mtime
    else { return nil }
    return stored.gain
  }

  /// Whether `candidate` was measured and the file is unchanged since.
  private static func isCurrent(_ candidate: ReplayGainStore.GainCandidate) -> Bool {
    guard let measured = candidate.measured, let stamp = stamp(candidate.path) else {
      return false
    }
    return stamp.size == measured.size && stamp.mtime == measured.mtime
  }

  /// The file's size and modification time, as the measurement is keyed by.
  private static func stamp(_ path: String) -> (size: Int64, mtime: Double)? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    let mtime = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    return (Int64(info.st_size), mtime)
  }
}
