import Foundation
import RefrainCatalog
import RefrainCore

/// Finds something playable for each imported track.
///
/// In this order:
/// 1. a scanned local file whose ISRC tag equals the track's;
/// 2. a local file with the same ``TrackMatchKey`` (artist and title) and a duration within
///    ``durationTolerance`` seconds;
/// 3. when a Subsonic login exists, a song on that server: by ISRC, then by artist, title
///    and duration (``ServerLookup``);
/// 4. the preview catalog's recording with the track's ISRC;
/// 5. nothing, with the reason.
///
/// Local matches are worked out again at every import (files come and go; it is one pass
/// over two dictionaries). A server song or a preview, once found, is kept (its URL is made
/// fresh at play time) until `rematchPreviews` is set; a track without one is asked about
/// again at the next import on the server, but a preview catalog's "none" is kept. Results
/// are stored every ``previewBatch`` lookups, so a killed import does not ask again for those
/// it already has.
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

  /// Looks a track up on the user's Subsonic server, by ISRC and then by artist, title and
  /// duration.
  ///
  /// Returns the server's song ID, or `nil` when it has none; throws when the server cannot
  /// be asked.
  public typealias ServerLookup = @Sendable (CatalogTrack) async throws -> String?

  private let store: LibraryStore
  private let server: ServerLookup?
  private let previews: PreviewLookup?
  private let rematchPreviews: Bool

  /// A matcher writing to `store`; without `server` no music server is asked, and without
  /// `previews` no track is looked up online.
  public init(
    store: LibraryStore, server: ServerLookup? = nil, previews: PreviewLookup?,
    rematchPreviews: Bool = false
  ) {
    self.store = store
    self.server = server
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
    let tracks = try store.spotifyImport.spotifyTracksInUse()
    let earlier = try store.spotifyImport.spotifyMatches()
    let index = LocalIndex(try store.spotifyImport.localMatchRows())
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
      // A server song or a preview found before stays as stored.
      let previous = earlier[track.id]
      if previous?.kind == .subsonic && server != nil && !rematchPreviews {
        summary.matchedSubsonic += 1
        continue
      }
      // The server is asked about every other track, a preview's too: its collection grows,
      // and its song is the whole track.
      if server != nil {
        lookups.append(track)
        continue
      }
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
    try store.spotifyImport.saveSpotifyMatches(results)
    return (summary, lookups)
  }

  /// Marks a "none" the preview catalog answered, so it is not asked again.
  static let askedMark = "-"

  /// Matches every imported track in use; `progress` gets (done, total) lookups.
  public func matchAll(progress: @Sendable (Int, Int) -> Void) async throws
    -> SpotifyImportSummary
  {
    var (summary, lookups) = try matchLocally()
    let earlier = server == nil ? [:] : try store.spotifyImport.spotifyMatches()
    if !lookups.isEmpty { progress(0, lookups.count) }
    var batch: [String: SpotifyMatch] = [:]
    for (done, track) in lookups.enumerated() {
      let match = await lookUp(track, earlier: earlier[track.id])
      batch[track.id] = match
      switch match.kind {
      case .subsonic: summary.matchedSubsonic += 1
      case .preview: summary.matchedPreview += 1
      case .local, .none: summary.unmatched += 1
      }
      if batch.count >= Self.previewBatch {
        try store.spotifyImport.saveSpotifyMatches(batch)
        batch = [:]
      }
      progress(done + 1, lookups.count)
    }
    try store.spotifyImport.saveSpotifyMatches(batch)
    return summary
  }

  /// The server's song for `track`, else its preview (one found `earlier` is kept), else why
  /// there is neither.
  private func lookUp(_ track: CatalogTrack, earlier: SpotifyMatch?) async -> SpotifyMatch {
    var notOnServer = "no local file"
    if let server {
      do {
        if let id = try await server(track) { return SpotifyMatch(kind: .subsonic, serverID: id) }
        notOnServer = "no local file, not on your server"
      } catch {
        // Down for now: the next import asks again.
        notOnServer = "no local file; your server could not be asked"
      }
    }
    if let earlier, earlier.kind == .preview, !rematchPreviews { return earlier }
    guard let isrc = track.isrc else {
      return SpotifyMatch(kind: .none, reason: "\(notOnServer), and Spotify gave no ISRC")
    }
    guard let previews else {
      return SpotifyMatch(kind: .none, reason: "\(notOnServer); previews are off")
    }
    let noPreview = "\(notOnServer), no preview (ISRC \(isrc))"
    // The preview catalog's "none" is kept, as without a server.
    if earlier?.kind == SpotifyMatch.Kind.none, earlier?.previewID == Self.askedMark,
      !rematchPreviews
    {
      return SpotifyMatch(kind: .none, previewID: Self.askedMark, reason: noPreview)
    }
    do {
      if let found = try await previews(isrc), let url = found.streamURL {
        return SpotifyMatch(kind: .preview, previewID: found.id, previewURL: url.absoluteString)
      }
      return SpotifyMatch(kind: .none, previewID: Self.askedMark, reason: noPreview)
    } catch {
      // The catalog is unreachable: say so, and ask again on the next import.
      return SpotifyMatch(
        kind: .none, reason: "\(notOnServer); the preview catalog could not be asked")
    }
  }
}
