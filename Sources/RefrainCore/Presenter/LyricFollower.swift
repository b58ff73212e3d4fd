/// Follows a lyric timeline along the audible position and says when the current line changes.
public struct LyricFollower: Sendable {
  /// A line that just became current.
  public struct Change: Sendable, Equatable {
    /// The line's index in the timeline.
    public var index: Int
    /// The line's text.
    public var text: String

    /// Creates a change.
    public init(index: Int, text: String) {
      self.index = index
      self.text = text
    }
  }

  /// The lyrics as parsed (offset not applied).
  public let document: LyricsDocument
  /// The timeline being followed.
  public private(set) var timeline: LyricTimeline
  private var shown: Int?
  private var fresh = true

  /// Creates a follower for `document`, shifted by the user's per-track offset.
  public init(document: LyricsDocument, userOffsetMs: Int = 0) {
    self.document = document
    timeline = LyricTimeline(document: document, userOffsetMs: userOffsetMs)
  }

  /// The index of the line last reported, if any.
  public var currentIndex: Int? { shown }

  /// Forgets what was shown, so the next ``update(position:)`` reports the current line
  /// even when it did not change (after a seek or a new track).
  public mutating func reset() {
    fresh = true
  }

  /// Returns the line that became current at `position`, or `nil` when nothing changed.
  public mutating func update(position: Double) -> Change? {
    let index = timeline.index(at: position)
    defer {
      shown = index
      fresh = false
    }
    guard let index, fresh || index != shown else { return nil }
    return Change(index: index, text: timeline.lines[index].text)
  }

  /// The next audible position at which the current line changes.
  public func nextChange(after position: Double) -> Double? {
    timeline.nextChange(after: position)
  }
}
