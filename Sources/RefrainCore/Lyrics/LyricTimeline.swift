import Foundation

/// Maps the playback position to the lyric line (and word) to highlight, and a line back to
/// the position to seek to.
///
/// The effective time of a line is `line.ms − (document offsetMs + userOffsetMs)`, so a
/// positive offset shows lines earlier. All times in and out are in seconds, as the audio
/// clock reports them. Lookups use binary search, so the main loop can ask on every tick
/// and set its timer from `nextChange(after:)`.
///
/// Word times are made non-decreasing within a line, so a karaoke highlight never moves
/// backwards. Plain (unsynced) lyrics have no current line and no changes.
public struct LyricTimeline: Sendable {
  /// The lines, sorted by time (stable), as the document normally has them already.
  public let lines: [LyricLine]
  /// Whether the lyrics carry times; when `false`, every lookup answers `nil`.
  public let isSynced: Bool
  /// The total offset applied: the document's `[offset:]` plus the user's nudge.
  public let offsetMs: Int
  /// The lines grouped by time: originals and their translations.
  public let groups: LyricGroups

  /// Effective start of each line, in seconds.
  private let lineTimes: [Double]
  /// Effective start of each word, per line, in seconds (non-decreasing within a line).
  private let wordTimes: [[Double]]
  /// Every line and word start, sorted, for `nextChange(after:includeWords: true)`.
  private let changeTimes: [Double]

  /// Builds the timeline of `document`, shifted by the user's per-track nudge.
  public init(document: LyricsDocument, userOffsetMs: Int = 0) {
    let sorted = document.lines.sortedByTime()
    lines = sorted
    isSynced = document.isSynced
    let total = Self.clampedSum(document.offsetMs, userOffsetMs)
    offsetMs = total
    groups = LyricGroups(lines: sorted, synced: document.isSynced)

    func seconds(_ ms: Int) -> Double { (Double(ms) - Double(total)) / 1000 }
    guard document.isSynced else {
      (lineTimes, wordTimes, changeTimes) = ([], [], [])
      return
    }
    lineTimes = sorted.map { seconds($0.ms) }
    let words: [[Double]] = sorted.map { line in
      var latest = -Double.infinity
      return (line.words ?? []).map { word in
        latest = max(latest, seconds(word.ms))
        return latest
      }
    }
    wordTimes = words
    changeTimes = (lineTimes + words.joined()).sorted()
  }

  /// The number of lines.
  public var count: Int { lines.count }

  /// The current line at `seconds`: the last line whose effective time is at or before it.
  ///
  /// Returns `nil` before the first line, for plain lyrics and for a NaN position.
  public func index(at seconds: Double) -> Int? {
    guard isSynced, !seconds.isNaN else { return nil }
    let after = Self.firstIndex(in: lineTimes, after: seconds)
    return after > 0 ? after - 1 : nil
  }

  /// The next time, strictly after `seconds`, at which the current line changes.
  ///
  /// With `includeWords`, word starts count as changes too. Returns `nil` after the last
  /// change and for plain lyrics.
  public func nextChange(after seconds: Double, includeWords: Bool = false) -> Double? {
    guard isSynced, !seconds.isNaN else { return nil }
    let times = includeWords ? changeTimes : lineTimes
    let next = Self.firstIndex(in: times, after: seconds)
    return next < times.count ? times[next] : nil
  }

  /// The current word of line `line` at `seconds`, or `nil` before its first word, for a
  /// line without word timing and for an index out of range.
  public func wordIndex(line: Int, at seconds: Double) -> Int? {
    guard isSynced, !seconds.isNaN, wordTimes.indices.contains(line) else { return nil }
    let after = Self.firstIndex(in: wordTimes[line], after: seconds)
    return after > 0 ? after - 1 : nil
  }

  /// The position to seek to so that line `line` is heard from its start, in seconds.
  ///
  /// Never negative; an index out of range is clamped to the nearest line, and plain
  /// lyrics answer 0.
  public func seekTarget(forLine line: Int) -> Double {
    guard isSynced, !lineTimes.isEmpty else { return 0 }
    let clamped = min(max(line, 0), lineTimes.count - 1)
    return max(0, lineTimes[clamped])
  }

  /// The index of the first time strictly greater than `seconds` (binary search).
  private static func firstIndex(in times: [Double], after seconds: Double) -> Int {
    var low = 0
    var high = times.count
    while low < high {
      let middle = (low + high) / 2
      if times[middle] <= seconds {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }

  /// Adds two offsets without overflowing.
  private static func clampedSum(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    guard overflow else { return sum }
    return a < 0 ? Int.min : Int.max
  }
}
