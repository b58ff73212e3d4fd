import Foundation

/// The lyrics of one track, as read from an LRC file or a FLO song.
///
/// Times are stored exactly as the file wrote them: the `[offset:]` tag is kept in
/// `offsetMs` and only applied by `LyricTimeline`, together with the user's own nudge.
public struct LyricsDocument: Sendable, Equatable, Codable {
  /// ID tags such as `ar`, `ti`, `al`, `length` or `offset`: lower-cased key to trimmed value.
  public var tags: [String: String]
  /// The file's `[offset:]` in milliseconds; a positive offset shows lines earlier.
  public var offsetMs: Int
  /// The lyric lines, sorted by time (stable: lines with equal times keep file order).
  ///
  /// For plain (unsynced) lyrics these are the text lines in file order, each with `ms == 0`.
  public var lines: [LyricLine]
  /// How many lines Refrain could not use: untimed text in a synced file, bad time tags.
  public var skipped: Int
  /// Whether the lines carry times; `false` means plain lyrics that cannot follow the music.
  public var isSynced: Bool

  /// Creates a lyrics document.
  public init(
    tags: [String: String] = [:], offsetMs: Int = 0, lines: [LyricLine] = [], skipped: Int = 0,
    isSynced: Bool = true
  ) {
    self.tags = tags
    self.offsetMs = offsetMs
    self.lines = lines
    self.skipped = skipped
    self.isSynced = isSynced
  }
}

/// One line of lyrics with the time at which it starts.
public struct LyricLine: Sendable, Equatable, Codable {
  /// The start time in milliseconds from the start of the track, offset not applied.
  public var ms: Int
  /// The text to show, trimmed, with inline word tags removed and runs of spaces collapsed.
  ///
  /// Empty text marks a break, for example an instrumental passage.
  public var text: String
  /// The words with their own times, when the line is word-timed; `nil` otherwise.
  public var words: [LyricWord]?
  /// When the last word ends, if the line closes with a trailing time tag.
  public var endMs: Int?

  /// Creates a lyric line.
  public init(ms: Int, text: String, words: [LyricWord]? = nil, endMs: Int? = nil) {
    self.ms = ms
    self.text = text
    self.words = words
    self.endMs = endMs
  }
}

/// One word (or run of text) of a word-timed lyric line.
public struct LyricWord: Sendable, Equatable, Codable {
  /// The time the word starts, in milliseconds from the start of the track.
  public var ms: Int
  /// The word's text, trimmed.
  public var text: String

  /// Creates a timed word.
  public init(ms: Int, text: String) {
    self.ms = ms
    self.text = text
  }
}

extension [LyricLine] {
  /// Sorts lines by time; lines with equal times keep their order (a stable sort).
  package func sortedByTime() -> [LyricLine] {
    guard zip(self, dropFirst()).contains(where: { $0.ms > $1.ms }) else { return self }
    return enumerated()
      .sorted { ($0.element.ms, $0.offset) < ($1.element.ms, $1.offset) }
      .map(\.element)
  }
}
