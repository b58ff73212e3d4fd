/// How far a library import is, for the full-screen player's progress bar.
public struct LibraryImportProgress: Sendable, Equatable {
  /// What is being read ("Liked Songs", a playlist's name, "Matching").
  public var stage: String
  public var done: Int
  /// The size of the stage, when known.
  public var total: Int?

  public init(stage: String, done: Int, total: Int?) {
    self.stage = stage
    self.done = done
    self.total = total
  }

  /// `stage done/total [█████·····]`, the bar `width` cells wide when the total is known.
  public func text(barWidth width: Int = 12) -> String {
    guard let total, total > 0 else { return "\(stage) \(done)" }
    let filled = min(width, max(0, Int((Double(done) / Double(total) * Double(width)).rounded())))
    return "\(stage) \(done)/\(total) ["
      + String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled) + "]"
  }
}

/// Runs an import of the user's library from another service (Spotify) in the background:
/// reports progress, and returns the one-line summary a user reads when it is done.
public typealias LibraryImport =
  @Sendable (_ progress: @escaping @Sendable (LibraryImportProgress) -> Void) async throws -> String

/// Publishing a track's timed lyrics: `describe` says what would be sent (or throws why it
/// cannot be), `publish` sends it, reporting the proof of work's progress.
public struct LyricsPublishing: Sendable {
  public var describe: @Sendable (Track) throws -> String
  public var publish:
    @Sendable (Track, _ progress: @escaping @Sendable (UInt64) -> Void) async throws -> Void

  public init(
    describe: @escaping @Sendable (Track) throws -> String,
    publish:
      @escaping @Sendable (Track, _ progress: @escaping @Sendable (UInt64) -> Void) async throws ->
      Void
  ) {
    self.describe = describe
    self.publish = publish
  }
}
