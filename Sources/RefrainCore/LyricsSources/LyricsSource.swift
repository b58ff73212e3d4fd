import Foundation

/// One place lyrics can come from: a sidecar file, the tags, the cache, an online service.
///
/// `LyricsResolver` asks its sources in order and turns every thrown error into a reason,
/// so a source may throw freely when it cannot answer at all.
public protocol LyricsSource: Sendable {
  /// Which kind of source this is; the resolver reports it and decides what to cache by it.
  var kind: LyricsSourceKind { get }

  /// Looks up the lyrics of the track that `query` describes.
  ///
  /// Returns `.found` or `.instrumental` when the source has an answer, and `.notFound` with
  /// a short reason when it has none. Throws when the source could not be asked (offline,
  /// unreadable file, malformed answer); the error's description becomes the reason.
  /// Sources that wait on the network must stop early when the task is cancelled.
  func lyrics(for query: LyricsQuery) async throws -> LyricsResult
}
