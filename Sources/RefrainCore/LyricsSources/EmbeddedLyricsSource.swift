import Foundation

/// Reads the lyrics stored in the audio file's own tags, as the caller put them in the query.
///
/// In order of preference: USLT text written as LRC (synced, and it may carry word timing),
/// the SYLT lines (synced), then plain USLT text (plain lyrics).
public struct EmbeddedLyricsSource: LyricsSource {
  public var kind: LyricsSourceKind { .embedded }

  /// Creates the source.
  public init() {}

  /// Builds a document from `query.embeddedText` and `query.embeddedSynced`.
  public func lyrics(for query: LyricsQuery) async throws -> LyricsResult {
    let text = query.embeddedText.map(LRCParser.parse)
    if let text, text.isSynced, !text.lines.isEmpty {
      return .found(text, source: .embedded)
    }
    if let synced = Self.document(synced: query.embeddedSynced ?? []) {
      return .found(synced, source: .embedded)
    }
    if let text, text.lines.contains(where: { !$0.text.isEmpty }) {
      return .found(text, source: .embedded)
    }
    return .notFound(reasons: ["no lyrics in the file's tags"])
  }

  /// A synced document from SYLT lines, or `nil` when they hold no text.
  static func document(synced: [(ms: Int, text: String)]) -> LyricsDocument? {
    guard synced.contains(where: { !$0.text.isEmpty }) else { return nil }
    let lines = synced.map { line in
      let flat = line.text.split(whereSeparator: \.isNewline).joined(separator: " ")
      return LyricLine(ms: max(0, line.ms), text: LRCLineBody.normalizedText(Array(flat.utf8)[...]))
    }
    return LyricsDocument(lines: lines.sortedByTime(), isSynced: true)
  }
}
