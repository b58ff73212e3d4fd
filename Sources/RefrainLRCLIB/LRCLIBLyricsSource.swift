import Foundation
import RefrainCore

/// Looks lyrics up in an LRCLIB-compatible service.
///
/// First `GET {base}/api/get` with title, artist, album and the duration in whole seconds; a
/// record within ±2 s of the track is used. When there is none (404, wrong duration, no
/// lyrics), `GET {base}/api/search` with title and artist, and the best record within ±2 s
/// wins: synced before plain before instrumental, then the closest duration.
/// `instrumental: true` answers `.instrumental`. Failures throw `LRCLIBError`.
public struct LRCLIBLyricsSource: LyricsSource {
  /// The default time limit for each request, in seconds.
  public static let defaultTimeout: Double = 5
  /// How far a record's duration may be from the track's, in seconds.
  public static let durationTolerance: Double = 2
  public var kind: LyricsSourceKind { .online }

  /// The service root; `api/get` and `api/search` are appended to its path.
  public var baseURL: URL { client.baseURL }
  /// The time limit for each request, in seconds.
  public var timeout: Double { client.timeout }

  private let client: LRCLIBClient

  /// Creates a source for the service at `baseURL` (for example `http://127.0.0.1:8080`).
  public init(baseURL: URL, timeout: Double = defaultTimeout) {
    client = LRCLIBClient(baseURL: baseURL, timeout: timeout)
  }

  /// Asks the service for the track's lyrics.
  public func lyrics(for query: LyricsQuery) async throws -> LyricsResult {
    let title = query.title.trimmingCharacters(in: .whitespacesAndNewlines)
    let artist = (query.artist ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    guard !title.isEmpty, !artist.isEmpty else {
      return .notFound(reasons: ["the lyrics service needs the title and the artist"])
    }
    let tolerance = Self.durationTolerance

    if let record = try await client.get(
      title: title, artist: artist, album: query.album, duration: query.duration),
      record.matches(duration: query.duration, tolerance: tolerance),
      let result = record.result
    {
      return result
    }
    try Task.checkCancellation()
    let candidates = try await client.search(title: title, artist: artist)
    if let result = candidates.best(duration: query.duration, tolerance: tolerance)?.result {
      return result
    }
    return .notFound(reasons: [noMatchReason(query.duration, searched: candidates.count)])
  }

  /// Why nothing fitted: nothing at all, or nothing of the right length.
  private func noMatchReason(_ duration: Double?, searched: Int) -> String {
    guard let duration, searched > 0 else { return "the lyrics service has no match" }
    let seconds = Int(duration.rounded())
    return "the lyrics service has no match within 2 s of "
      + "\(seconds / 60):\(String(format: "%02d", seconds % 60))"
  }
}
