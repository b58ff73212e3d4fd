import Foundation

/// Answers from the lyrics cache, so tracks looked up online before need no network.
public struct CachedLyricsSource: LyricsSource {
  /// The cache to read.
  public let cache: LyricsCache

  public var kind: LyricsSourceKind { .cache }

  /// Creates a source that reads `cache`.
  public init(cache: LyricsCache) {
    self.cache = cache
  }

  /// Returns the cached lyrics or instrumental marker for the track.
  public func lyrics(for query: LyricsQuery) async throws -> LyricsResult {
    switch cache.lookup(query) {
    case .hit(.lyrics(let document)): return .found(document, source: .cache)
    case .hit(.instrumental): return .instrumental(source: .cache)
    case .miss: return .notFound(reasons: ["no cached lyrics"])
    case .unreadable(let reason): return .notFound(reasons: [reason])
    }
  }
}
