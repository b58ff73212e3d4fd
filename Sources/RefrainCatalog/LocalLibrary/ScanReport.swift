import Foundation

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
  /// Files that could not be read this time (not MP3, unreadable).
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

  /// Creates an empty summary.
  public init() {}

  /// Files found in the folders.
  public var filesSeen: Int { added + updated + unchanged + failed }

  /// One line for the terminal: counts and time.
  public var line: String {
    "\(filesSeen) files in \(String(format: "%.2f", elapsed)) s: \(added) added, "
      + "\(updated) updated, \(removed) removed, \(unchanged) unchanged, \(failed) failed"
  }
}
