import Foundation
import RefrainCore

/// Reads the lyrics stored in the tags of the track's own file, in whichever format
/// ``TagFormats`` finds there.
///
/// The tag is read only when the source is asked, so a disabled source, or synced lyrics from
/// an earlier one, costs no file access. In order of preference: USLT text written as LRC
/// (synced, and it may carry word timing), the SYLT lines (synced), then plain USLT text
/// (plain lyrics).
public struct EmbeddedLyricsSource: LyricsSource {
  public var kind: LyricsSourceKind { .embedded }

  /// Creates the source.
  public init() {}

  /// Builds a document from `query.embeddedText` and `query.embeddedSynced` when the caller
  /// supplied either, else from the tag at the start of `query.fileURL` when it is a local
  /// file.
  public func lyrics(for query: LyricsQuery) async throws -> LyricsResult {
    var text = query.embeddedText
    var synced = query.embeddedSynced ?? []
    if query.embeddedText == nil, query.embeddedSynced == nil, let fileURL = query.fileURL,
      fileURL.isFileURL
    {
      guard let tag = try? TagFormats.format(of: fileURL).lyrics(in: fileURL) else {
        return .notFound(reasons: ["the file's tags could not be read"])
      }
      text = tag.text
      synced = tag.synced
    }
    let parsed = text.map(LRCParser.parse)
    if let parsed, parsed.isSynced, !parsed.lines.isEmpty {
      return .found(parsed, source: .embedded)
    }
    if let document = Self.document(synced: synced) {
      return .found(document, source: .embedded)
    }
    if let parsed, parsed.lines.contains(where: { !$0.text.isEmpty }) {
      return .found(parsed, source: .embedded)
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

extension LyricsResolver {
  /// The standard order: sidecar, embedded, then `cache` and `online` when given.
  public static func standard(
    cache: LyricsCache?, online: (any LyricsSource)?, timeout: Double = defaultTimeout
  ) -> LyricsResolver {
    var sources: [any LyricsSource] = [SidecarLyricsSource(), EmbeddedLyricsSource()]
    if let cache { sources.append(CachedLyricsSource(cache: cache)) }
    if let online { sources.append(online) }
    return LyricsResolver(sources: sources, cache: cache, timeout: timeout)
  }
}
