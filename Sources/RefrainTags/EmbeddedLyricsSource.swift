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
    let found: LyricsDocument?
    if query.embeddedText == nil, query.embeddedSynced == nil, let fileURL = query.fileURL,
      fileURL.isFileURL
    {
      do {
        found = try Self.document(in: fileURL)
      } catch {
        return .notFound(reasons: ["the file's tags could not be read"])
      }
    } else {
      found = Self.document(text: query.embeddedText, synced: query.embeddedSynced ?? [])
    }
    guard let found else { return .notFound(reasons: ["no lyrics in the file's tags"]) }
    return .found(found, source: .embedded)
  }

  /// The lyrics in the tags of the audio file at `file`, whatever its format (ID3v2
  /// USLT/SYLT, FLAC, Vorbis and Opus comments `LYRICS`/`UNSYNCEDLYRICS`, MP4 `©lyr`); `nil`
  /// when its tags hold none. Throws when the file cannot be read.
  ///
  /// Playback, `refrain lyrics FILE` and the scan's lyric search all read embedded lyrics
  /// here, so they agree on what a file holds.
  public static func document(in file: URL) throws -> LyricsDocument? {
    let tag = try TagFormats.format(of: file).lyrics(in: file)
    return document(text: tag.text, synced: tag.synced)
  }

  /// The document stored lyrics make, in order of preference: `text` when it is LRC with
  /// timed lines, the `synced` lines, then `text` as plain lyrics; `nil` when none has text.
  static func document(text: String?, synced: [(ms: Int, text: String)]) -> LyricsDocument? {
    let parsed = text.map(LRCParser.parse)
    if let parsed, parsed.isSynced, !parsed.lines.isEmpty { return parsed }
    if let document = document(synced: synced) { return document }
    if let parsed, parsed.lines.contains(where: { !$0.text.isEmpty }) { return parsed }
    return nil
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
