import Foundation
import RefrainTags

/// How far a scan has come, reported while it runs.
public struct ScanProgress: Sendable, Equatable {
  /// Files dealt with so far (unchanged files count at once).
  public var filesDone: Int
  /// Files found in the folders.
  public var filesTotal: Int
  /// Seconds since the scan started.
  public var elapsed: Double
  /// Files dealt with per second so far.
  public var filesPerSecond: Double
  /// The estimated seconds left, once the rate is known.
  public var estimatedRemaining: Double?

  /// Creates a progress value.
  public init(
    filesDone: Int, filesTotal: Int, elapsed: Double, filesPerSecond: Double,
    estimatedRemaining: Double?
  ) {
    self.filesDone = filesDone
    self.filesTotal = filesTotal
    self.elapsed = elapsed
    self.filesPerSecond = filesPerSecond
    self.estimatedRemaining = estimatedRemaining
  }
}

/// What a scan did.
public struct ScanSummary: Sendable, Equatable {
  /// Files indexed for the first time.
  public var added = 0
  /// Files whose size, time or sidecar lyrics changed and were indexed again.
  public var updated = 0
  /// Indexed files that are gone from the folders.
  public var removed = 0
  /// Files skipped because their size and modification time are unchanged (including files
  /// that failed before and have not changed since).
  public var unchanged = 0
  /// Files with audio names that could not be indexed this time (in a format Refrain does not
  /// play, unreadable, damaged, not audio).
  public var failed = 0
  /// Seconds the scan took.
  public var elapsed: Double = 0
  /// The canonical folders that were scanned.
  public var folders: [String] = []
  /// Folders that do not exist or are not folders; their tracks are kept.
  public var missingFolders: [String] = []
  /// Up to 20 files that failed, with the reason.
  public var failures: [String] = []
  /// Folders or names that could not be read while walking.
  public var problems: [String] = []
  /// Every file with an audio name that is not in the library after the scan: the ones that
  /// failed this time (``failed``) and the unchanged ones that failed before (counted in
  /// ``unchanged``), sorted by reason, then path.
  public var skipped: [SkippedFile] = []
  /// Files indexed by their tags this time whose audio Refrain cannot play (ALAC in an M4A),
  /// sorted by reason, then path. An unchanged one is not read again, so only the scan that
  /// reads it lists it.
  public var unplayable: [SkippedFile] = []

  /// Creates an empty summary.
  public init() {}

  /// Files found in the folders.
  public var filesSeen: Int { added + updated + unchanged + failed }

  /// The skipped files grouped by reason, in report order.
  public var skippedByReason: [(reason: ScanSkipReason, files: [SkippedFile])] {
    var groups: [ScanSkipReason: [SkippedFile]] = [:]
    for file in skipped { groups[file.reason, default: []].append(file) }
    return groups.keys.sorted().map { reason in
      (reason, groups[reason, default: []].sorted { FolderWalker.precedes($0.path, $1.path) })
    }
  }

  /// The report of skipped files for the terminal: a heading, then for each reason a line
  /// with its count and the messages of its first `examples` files; nothing when none was
  /// skipped.
  ///
  /// ```
  /// skipped 2 files:
  ///   unsupported format (DSD): 1 file
  ///     /m/a.dsf holds DSD audio, which Refrain cannot decode yet: convert it to FLAC, …
  ///   not audio: 1 file
  ///     /m/notes.mp3 is not audio: no format Refrain knows starts it, and no MP3 frames …
  /// ```
  public func skippedReport(examples: Int = 5) -> [String] {
    guard !skipped.isEmpty else { return [] }
    var lines = ["skipped \(Self.files(skipped.count)):"]
    for (reason, files) in skippedByReason {
      lines.append("  \(reason): \(Self.files(files.count))")
      lines += files.prefix(examples).map { "    " + $0.message }
      if files.count > examples { lines.append("    … and \(files.count - examples) more") }
    }
    return lines
  }

  /// The report of files indexed that will not play, after ``skippedReport(examples:)``'s
  /// form: a heading, then the first `examples` sentences; nothing when there are none.
  public func unplayableReport(examples: Int = 5) -> [String] {
    guard !unplayable.isEmpty else { return [] }
    var lines = ["indexed, but not playable yet: \(Self.files(unplayable.count))"]
    lines += unplayable.prefix(examples).map { "    " + $0.message }
    if unplayable.count > examples { lines.append("    … and \(unplayable.count - examples) more") }
    return lines
  }

  /// "1 file", "3 files".
  private static func files(_ count: Int) -> String { count == 1 ? "1 file" : "\(count) files" }

  /// Records files the walk found unreadable: they count as failed.
  mutating func skip(_ files: [SkippedFile]) {
    failed += files.count
    skipped += files
  }

  /// One line for the terminal: counts and time.
  public var line: String {
    "\(filesSeen) files in \(String(format: "%.2f", elapsed)) s: \(added) added, "
      + "\(updated) updated, \(removed) removed, \(unchanged) unchanged, \(failed) failed"
  }
}
