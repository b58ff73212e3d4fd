import Foundation

/// Reads the `.lrc` file next to a local audio file (same base name, any case of `.lrc`).
public struct SidecarLyricsSource: LyricsSource {
  public var kind: LyricsSourceKind { .sidecar }

  /// Creates the source.
  public init() {}

  /// Loads the sidecar file; throws `LyricsError` when it exists but cannot be read.
  public func lyrics(for query: LyricsQuery) async throws -> LyricsResult {
    guard let fileURL = query.fileURL, fileURL.isFileURL else {
      return .notFound(reasons: ["not a local file, so no .lrc next to it"])
    }
    let track = Track(id: fileURL.path, location: fileURL, title: query.title)
    guard let path = SidecarLyrics.find(for: track) else {
      return .notFound(reasons: ["no .lrc next to the file"])
    }
    let document = try LyricsDocument.load(from: URL(fileURLWithPath: path))
    guard !document.lines.isEmpty else {
      return .notFound(reasons: ["the .lrc next to the file has no lyric lines"])
    }
    return .found(document, source: .sidecar)
  }
}
