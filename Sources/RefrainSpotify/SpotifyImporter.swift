import Foundation
import RefrainCatalog
import RefrainCore

/// What one import brought in, as `refrain spotify import --json` prints it.
public struct SpotifyImportSummary: Codable, Sendable, Equatable {
  public var playlists = 0
  /// Distinct tracks the imported playlists, likes and saved albums hold.
  public var tracks = 0
  public var albums = 0
  public var matchedLocal = 0
  /// Tracks that play from the user's Subsonic server.
  public var matchedSubsonic = 0
  public var matchedPreview = 0
  public var unmatched = 0

  enum CodingKeys: String, CodingKey {
    case playlists, tracks, albums
    case matchedLocal = "matched_local"
    case matchedSubsonic = "matched_subsonic"
    case matchedPreview = "matched_preview"
    case unmatched
  }

  public init() {}

  /// Reads a summary; one stored before a count existed reads it as 0.
  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    func count(_ key: CodingKeys) throws -> Int {
      try values.decodeIfPresent(Int.self, forKey: key) ?? 0
    }
    playlists = try count(.playlists)
    tracks = try count(.tracks)
    albums = try count(.albums)
    matchedLocal = try count(.matchedLocal)
    matchedSubsonic = try count(.matchedSubsonic)
    matchedPreview = try count(.matchedPreview)
    unmatched = try count(.unmatched)
  }
}

/// How far an import is, for a progress bar or a line on stderr.
public struct SpotifyImportProgress: Sendable, Equatable {
  /// What is being read: "Playlists", a playlist's name, "Liked Songs", "Saved albums",
  /// "Matching".
  public var stage: String
  public var done: Int
  /// The size of the stage, when known.
  public var total: Int?
  /// A notice instead of a count (a withdrawn endpoint), when set.
  public var notice: String?
}

/// Brings the user's Spotify library into Refrain's: playlists, Liked Songs and saved
/// albums, in Spotify's order, then matches every track to something playable.
///
/// An import is staged page by page in the library (see `LibraryStore+Spotify`). A run
/// that finds an import in progress continues it from the last staged page; a fresh run
/// starts one. Lists the app may not read (Spotify answers 403 or 404) are skipped with a
/// notice and the rest is imported.
public struct SpotifyImporter: Sendable {
  public typealias Report = @Sendable (SpotifyImportProgress) -> Void

  /// The page size of every list (Spotify's largest).
  static let pageSize = 50

  private let client: SpotifyClient
  private let store: LibraryStore
  private let matcher: SpotifyMatcher

  public init(client: SpotifyClient, store: LibraryStore, matcher: SpotifyMatcher) {
    self.client = client
    self.store = store
    self.matcher = matcher
  }

  /// Runs the import to the end; returns its summary (also recorded in the library).
  public func run(report: Report) async throws(SpotifyError) -> SpotifyImportSummary {
    do {
      return try await runThrowing(report: report)
    } catch let error as SpotifyError {
      throw error
    } catch {
      throw .library("the library could not be written: \(error)")
    }
  }

  private func runThrowing(report: Report) async throws -> SpotifyImportSummary {
    let limit = Self.pageSize
    if try store.spotifyImport.spotifyImportLists().isEmpty {
      try store.spotifyImport.addSpotifyImportLists([
        ("playlists", "me/playlists?limit=\(limit)", nil),
        ("liked", "me/tracks?limit=\(limit)", nil),
        ("albums", "me/albums?limit=\(limit)", nil),
      ])
    }
    // The list of playlists first, then each playlist that changed.
    var notices: [String] = []
    let playlistsOutcome = try await page(
      "playlists", stage: "Playlists", report: report, notices: &notices
    ) { (page: SpotifyObjects.Paging<SpotifyObjects.Playlist>) in
      let items = page.items.map { playlist in
        SpotifyStagedItem(
          id: playlist.id, addedAt: nil,
          json: LibraryStore.encodeJSON([
            "name": playlist.name, "snapshot": playlist.snapshotID ?? "",
          ]))
      }
      return (items, [])
    }
    let staged = try store.spotifyImport.stagedSpotifyItems("playlists")
    let wanted = staged.map { item -> (id: String, name: String, snapshot: String?) in
      let fields = item.json.flatMap {
        try? JSONDecoder().decode([String: String].self, from: Data($0.utf8))
      }
      let snapshot = fields?["snapshot"].flatMap { $0.isEmpty ? nil : $0 }
      return (item.id, fields?["name"] ?? item.id, snapshot)
    }
    var kept = Set(wanted.map(\.id))
    if playlistsOutcome != .unavailable {
      let snapshots = try store.spotifyImport.spotifyPlaylistSnapshots()
      let lists = try store.spotifyImport.spotifyImportLists()
      let known = Set(lists.map(\.list))
      var added: [(list: String, first: String, json: String?)] = []
      for playlist in wanted where !known.contains("playlist:" + playlist.id) {
        let unchanged = playlist.snapshot != nil && snapshots[playlist.id] == playlist.snapshot
        if !unchanged {
          added.append(
            ("playlist:" + playlist.id, "playlists/\(playlist.id)/items?limit=\(limit)", nil))
        }
      }
      try store.spotifyImport.addSpotifyImportLists(added)
      let pending = Set(
        try store.spotifyImport.spotifyImportLists().filter { !$0.done }.map(\.list))
      for (position, playlist) in wanted.enumerated() {
        let list = "playlist:" + playlist.id
        guard pending.contains(list) else {
          try store.spotifyImport.keepSpotifyPlaylist(spotifyID: playlist.id, position: position)
          continue
        }
        let outcome = try await page(
          list, stage: playlist.name, report: report, notices: &notices
        ) { (page: SpotifyObjects.Paging<SpotifyObjects.PlaylistEntry>) in
          var items: [SpotifyStagedItem] = []
          var tracks: [CatalogTrack] = []
          for entry in page.items {
            guard let record = entry.playableTrack, let track = SpotifyMapping.track(record) else {
              continue
            }
            items.append(
              SpotifyStagedItem(id: track.id, addedAt: SpotifyMapping.time(entry.addedAt)))
            tracks.append(track)
          }
          return (items, tracks)
        }
        switch outcome {
        case .read:
          try store.spotifyImport.applySpotifyPlaylist(
            spotifyID: playlist.id, name: playlist.name, snapshot: playlist.snapshot,
            position: position)
        case .applied:
          try store.spotifyImport.keepSpotifyPlaylist(spotifyID: playlist.id, position: position)
        case .unavailable:
          break  // An earlier import's copy, if any, stays.
        }
      }
    } else {
      // Keep what an earlier import brought in when the list cannot be read now.
      kept = Set(try store.spotifyImport.spotifyPlaylistSnapshots().keys)
    }

    if try await page(
      "liked", stage: "Liked Songs", report: report, notices: &notices,
      body: { (page: SpotifyObjects.Paging<SpotifyObjects.SavedTrack>) in
        var items: [SpotifyStagedItem] = []
        var tracks: [CatalogTrack] = []
        for saved in page.items {
          guard let record = saved.track, let track = SpotifyMapping.track(record) else { continue }
          items.append(SpotifyStagedItem(id: track.id, addedAt: SpotifyMapping.time(saved.addedAt)))
          tracks.append(track)
        }
        return (items, tracks)
      }) == .read
    {
      try store.spotifyImport.applySpotifyLikes()
    }

    if try await page(
      "albums", stage: "Saved albums", report: report, notices: &notices,
      body: { (page: SpotifyObjects.Paging<SpotifyObjects.SavedAlbum>) in
        var items: [SpotifyStagedItem] = []
        for saved in page.items {
          let summary = SpotifyMapping.album(saved.album)
          items.append(
            SpotifyStagedItem(
              id: summary.id, addedAt: SpotifyMapping.time(saved.addedAt),
              json: LibraryStore.encodeJSON(summary)))
        }
        return (items, [])
      },
      after: { (page: SpotifyObjects.Paging<SpotifyObjects.SavedAlbum>) in
        for saved in page.items {
          let tracks = try await allTracks(of: saved.album)
          try store.spotifyImport.storeSpotifyAlbumTracks(albumID: saved.album.id, tracks: tracks)
        }
      }) == .read
    {
      try store.spotifyImport.applySpotifyAlbums()
    }

    var summary = try await matcher.matchAll { done, total in
      report(SpotifyImportProgress(stage: "Matching", done: done, total: total))
    }
    summary.albums = try store.savedAlbums().filter { $0.provider == SpotifyMapping.provider }.count
    summary.playlists = try store.spotifyImport.spotifyPlaylistSnapshots().keys.filter(
      kept.contains
    ).count
    try store.spotifyImport.finishSpotifyImport(
      keeping: kept, summary: String(decoding: JSONOutput.data(summary), as: UTF8.self))
    return summary
  }

  /// What became of a list.
  enum ListOutcome: Equatable {
    /// Its pages are all staged now: apply them.
    case read
    /// An earlier run of this import applied it already.
    case applied
    /// Spotify says the app may not read it; what an earlier import brought in stays.
    case unavailable
  }

  /// Reads the pages of `list` from its next unread one to the end, staging each.
  ///
  /// `after` runs for each page before it is staged (for work that reads more of the API
  /// per item), so a page is staged only once that work is stored too.
  private func page<Page: Decodable & Sendable>(
    _ list: String, stage: String, report: Report, notices: inout [String],
    body: (Page) throws -> (items: [SpotifyStagedItem], tracks: [CatalogTrack]),
    after: ((Page) async throws -> Void)? = nil
  ) async throws -> ListOutcome where Page: PagingShape {
    guard let state = try store.spotifyImport.spotifyImportLists().first(where: { $0.list == list })
    else {
      return .applied
    }
    if state.done { return state.json == SpotifyImportStore.skippedList ? .unavailable : .applied }
    var next = state.next
    var done = try store.spotifyImport.stagedSpotifyItems(list).count
    while let address = next {
      let fetched = await fetch(Page.self, address)
      if case .failure(.notAvailable) = fetched {
        let notice = "\(stage) is not available for this app; skipped"
        notices.append(notice)
        report(SpotifyImportProgress(stage: stage, done: done, total: nil, notice: notice))
        try store.spotifyImport.skipSpotifyList(list)
        return .unavailable
      }
      let page = try fetched.get()
      let (items, tracks) = try body(page)
      try await after?(page)
      next = page.nextAddress
      try store.spotifyImport.stageSpotifyPage(list: list, items: items, tracks: tracks, next: next)
      done += page.count
      report(SpotifyImportProgress(stage: stage, done: done, total: page.totalCount))
    }
    return .read
  }

  /// One API answer, or why there is none.
  private func fetch<Value: Decodable & Sendable>(_ type: Value.Type, _ address: String) async
    -> Result<Value, SpotifyError>
  {
    do {
      return .success(try await client.get(type, address))
    } catch {
      return .failure(error)
    }
  }

  /// An album's whole track list: the embedded first page, then `/albums/{id}/tracks`.
  private func allTracks(of album: SpotifyObjects.Album) async throws -> [CatalogTrack] {
    var records = album.tracks?.items ?? []
    var next = album.tracks?.next
    if album.tracks == nil { next = "albums/\(album.id)/tracks?limit=\(Self.pageSize)" }
    var pages = 0
    while let address = next, pages < 40 {
      let fetched = await fetch(SpotifyObjects.Paging<SpotifyObjects.Track>.self, address)
      if case .failure(.notAvailable) = fetched { break }
      let page = try fetched.get()
      records += page.items
      next = page.next
      pages += 1
    }
    return records.compactMap { SpotifyMapping.track($0, album: album) }
  }
}

/// A page of any list: its items' count, the list's size and the next page.
protocol PagingShape {
  var count: Int { get }
  var totalCount: Int? { get }
  var nextAddress: String? { get }
}

extension SpotifyObjects.Paging: PagingShape {
  var count: Int { items.count }
  var totalCount: Int? { total }
  var nextAddress: String? { next }
}
