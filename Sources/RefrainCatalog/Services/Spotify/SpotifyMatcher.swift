import Foundation
import RefrainCore

/// Finds something playable for each imported track.
///
/// In this order:
/// 1. a scanned local file whose ISRC tag equals the track's;
/// 2. a local file with the same ``TrackMatchKey`` (artist and title) and a duration within
///    ``durationTolerance`` seconds;
/// 3. the preview catalog's recording with the track's ISRC;
/// 4. nothing, with the reason.
///
/// Local matches are worked out again at every import (files come and go; it is one pass
/// over two dictionaries). A preview, once found, is kept (its URL is fetched fresh at
/// play time); a track the preview catalog does not have is not asked about again until
/// `rematchPreviews` is set. Preview results are stored every ``previewBatch`` lookups, so
/// a killed import does not ask again for those it already has.
public struct SpotifyMatcher: Sendable {
  /// The most two durations may differ for a title match, in seconds.
  public static let durationTolerance = 3.0
  /// Preview lookups stored per transaction.
  static let previewBatch = 20

  /// Looks a track up in the preview catalog by ISRC.
  ///
  /// Returns the catalog's track, or `nil` when it has none; throws when the catalog cannot
  /// be asked.
  public typealias PreviewLookup = @Sendable (String) async throws -> CatalogTrack?

  private let store: LibraryStore
  private let previews: PreviewLookup?
  private let rematchPreviews: Bool

  /// A matcher writing to `store`; without `previews`, no track is looked up online.
  public init(store: LibraryStore, previews: PreviewLookup?, rematchPreviews: Bool = false) {
    self.store = store
    self.previews = previews
    self.rematchPreviews = rematchPreviews
  }

  /// The local files by ISRC and by key, built once per run.
  struct LocalIndex {
    var byISRC: [String: String] = [:]
    var byKey: [TrackMatchKey: [(path: String, duration: Double?)]] = [:]

    init(_ rows: [LocalMatchRow]) {
      byISRC.reserveCapacity(rows.count)
      byKey.reserveCapacity(rows.count)
      for row in rows {
        if let isrc = row.isrc, byISRC[isrc] == nil { byISRC[isrc] = row.path }
        if let key = TrackMatchKey(artist: row.artist, title: row.title) {
          byKey[key, default: []].append((row.path, row.duration))
        }
      }
    }

    /// The local file for `track`, by ISRC and then by key and duration.
    func file(for track: CatalogTrack) -> String? {
      if let isrc = track.isrc, let path = byISRC[isrc] { return path }
      guard let key = TrackMatchKey(artist: track.artist, title: track.title),
        let candidates = byKey[key]
      else { return nil }
      guard let duration = track.duration else { return candidates.first?.path }
      return candidates.first { candidate in
        guard let other = candidate.duration else { return false }
        return abs(other - duration) <= SpotifyMatcher.durationTolerance
      }?.path
    }
  }

  /// The local part of matching, with no network.
  ///
  /// Every track in use gets its local file or keeps its earlier preview or "none"; returns
  /// the tracks that still need a preview lookup. Public for `refrain-bench spotify-match`.
  public func matchLocally() throws -> (summary: SpotifyImportSummary, lookups: [CatalogTrack]) {
    let tracks = try store.spotifyTracksInUse()
    let earlier = try store.spotifyMatches()
    let index = LocalIndex(try store.localMatchRows())
    var summary = SpotifyImportSummary()
    summary.tracks = tracks.count
    var results: [String: SpotifyMatch] = [:]
    var lookups: [CatalogTrack] = []
    for track in tracks {
      if let path = index.file(for: track) {
        results[track.id] = SpotifyMatch(kind: .local, localPath: path)
        summary.matchedLocal += 1
        continue
      }
      // A preview found before, or the catalog's "none", stays as stored.
      let previous = earlier[track.id]
      if previous?.kind == .preview && !rematchPreviews {
        summary.matchedPreview += 1
        continue
      }
      guard track.isrc != nil else {
        results[track.id] = SpotifyMatch(
          kind: .none, reason: "no local file has this title, and Spotify gave no ISRC")
        summary.unmatched += 1
        continue
      }
      let askedBefore =
        previous?.kind == SpotifyMatch.Kind.none && previous?.previewID == Self.askedMark
      if askedBefore && !rematchPreviews {
        summary.unmatched += 1
        continue
      }
      lookups.append(track)
    }
    try store.saveSpotifyMatches(results)
    return (summary, lookups)
  }

  /// Marks a "none" the preview catalog answered, so it is not asked again.
  static let askedMark = "-"

  /// Matches every imported track in use; `progress` gets (done, total) lookups.
  public func matchAll(progress: @Sendable (Int, Int) -> Void) async throws
    -> SpotifyImportSummary
  {
    var (summary, lookups) = try matchLocally()
    guard let previews else {
      var none: [String: SpotifyMatch] = [:]
      for track in lookups {
        none[track.id] = SpotifyMatch(kind: .none, reason: "no local file; previews are off")
      }
      try store.saveSpotifyMatches(none)
      summary.unmatched += lookups.count
      return summary
    }
    if !lookups.isEmpty { progress(0, lookups.count) }
    var batch: [String: SpotifyMatch] = [:]
    for (done, track) in lookups.enumerated() {
      guard let isrc = track.isrc else { continue }
      do {
        if let found = try await previews(isrc), let url = found.streamURL {
          batch[track.id] = SpotifyMatch(
            kind: .preview, previewID: found.id, previewURL: url.absoluteString)
          summary.matchedPreview += 1
        } else {
          batch[track.id] = SpotifyMatch(
            kind: .none, previewID: Self.askedMark,
            reason: "no local file, no preview (ISRC \(isrc))")
          summary.unmatched += 1
        }
      } catch {
        // The catalog is unreachable: say so, and ask again on the next import.
        batch[track.id] = SpotifyMatch(
          kind: .none, reason: "no local file; the preview catalog could not be asked")
        summary.unmatched += 1
      }
      if batch.count >= Self.previewBatch {
        try store.saveSpotifyMatches(batch)
        batch = [:]
      }
      progress(done + 1, lookups.count)
    }
    try store.saveSpotifyMatches(batch)
    return summary
  }
}
