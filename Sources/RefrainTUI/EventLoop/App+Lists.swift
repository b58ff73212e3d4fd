import Foundation
import RefrainCore

/// The list panes: the rows they show and the selection (commands: App+ListCommands.swift).
extension App {
  /// The rows of the focused list (a detail view when one is open).
  func currentRows() -> [ListRow] {
    if let detail = details[pane]?.last { return rows(for: detail) }
    switch pane {
    case .home: return homeRows()
    case .search: return searchRows()
    case .library: return libraryRows()
    case .queue: return queueRows()
    case .player: return []
    }
  }

  var cursor: ListCursor {
    get { details[pane]?.last?.cursor ?? cursors[pane] ?? ListCursor() }
    set {
      if let count = details[pane]?.count, count > 0 {
        details[pane]?[count - 1].cursor = newValue
      } else {
        cursors[pane] = newValue
      }
    }
  }

  private func itemRow(_ item: CatalogItem) -> ListRow {
    switch item {
    case .track(let track):
      let by = [track.artist, track.album].compactMap { $0 }.joined(separator: " · ")
      return ListRow(
        text: "♪ \(track.title)\(by.isEmpty ? "" : " — \(by)")",
        detail: track.isPlayable ? Self.clock(track.duration) : "unplayable",
        style: track.isPlayable ? .normal : .dim, action: .item(item))
    case .album(let album):
      return ListRow(
        text: "◉ \(album.title)\(album.artist.map { " — \($0)" } ?? "")",
        detail: album.year.map(String.init) ?? "", action: .item(item))
    case .artist(let artist):
      return ListRow(text: "☺ \(artist.name)", action: .item(item))
    case .playlist(let playlist):
      return ListRow(
        text: "≡ \(playlist.title)\(playlist.owner.map { " — \($0)" } ?? "")",
        detail: playlist.trackCount.map { "\($0) tracks" } ?? "", action: .item(item))
    case .genre(let genre):
      return ListRow(text: "# \(genre.name)", action: .item(item))
    }
  }

  private func homeRows() -> [ListRow] {
    guard !home.isEmpty else { return [ListRow(text: homeState, style: .dim, isHeader: true)] }
    var rows: [ListRow] = []
    for section in home {
      rows.append(.header(section.title))
      rows += section.items.map(itemRow)
    }
    return rows
  }

  private func searchRows() -> [ListRow] {
    if search.query.isEmpty {
      let recent = librarySnapshot?.recentSearches ?? []
      guard !recent.isEmpty else {
        return [
          ListRow(text: "Press / and type to search \(provider.name).", style: .dim, isHeader: true)
        ]
      }
      return [.header("Recent searches")]
        + recent.map { ListRow(text: $0, action: .recentSearch($0)) }
    }
    var rows: [ListRow] = []
    let titles: [(SearchKind, String)] = [
      (.track, "Tracks"), (.album, "Albums"), (.artist, "Artists"), (.playlist, "Playlists"),
    ]
    for (kind, title) in titles {
      guard let items = search.results[kind], !items.isEmpty else { continue }
      rows.append(.header(title))
      rows += items.map(itemRow)
    }
    if rows.isEmpty {
      let text =
        search.pending > 0
        ? "Searching…"
        : search.error.map { "Search failed: \($0)" } ?? "No results for \(search.query)"
      rows.append(ListRow(text: text, style: search.error == nil ? .dim : .error, isHeader: true))
    }
    return rows
  }

  /// The Library pane, from the snapshot; until the first read, its header says why no
  /// playlist is listed (rows keep their places when they arrive).
  private func libraryRows() -> [ListRow] {
    guard library != nil else {
      return [
        ListRow(text: "The library database is not available.", style: .error, isHeader: true)
      ]
    }
    guard let snapshot = librarySnapshot else {
      let header =
        libraryReadError.map { ListRow(text: "Playlists: \($0)", style: .error, isHeader: true) }
        ?? .header("Playlists (loading…)")
      return [header] + collectionRows
    }
    var rows: [ListRow] = [.header("Playlists")]
    for playlist in snapshot.playlists {
      rows.append(
        ListRow(
          text: "≡ \(playlist.name)", detail: "\(playlist.trackCount) tracks",
          action: .libraryPlaylist(playlist)))
    }
    return rows + collectionRows
  }

  /// The Library pane below its playlists: "new playlist", then the collection.
  private var collectionRows: [ListRow] {
    [
      ListRow(text: "+ New playlist (c)", style: .dim, action: .newPlaylist),
      .header("Collection"),
      ListRow(text: "♥ Liked tracks", action: .likedTracks),
      ListRow(text: "◉ Saved albums", action: .savedAlbums),
      ListRow(text: "↺ Recently played", action: .history),
    ]
  }

  func queueRows() -> [ListRow] {
    let queue = presenter.queue
    guard !queue.isEmpty else {
      return [
        ListRow(
          text: "The queue is empty: press a on a track or P on a list.", style: .dim,
          isHeader: true)
      ]
    }
    return [.header("Queue (\(queue.count))")]
      + queue.tracks.enumerated().map { index, track in
        let current = index == queue.currentIndex
        let reason = queue.unplayableReason(at: index)
        return ListRow(
          text: "\(current ? "▶ " : "  ")\(track.title)\(track.artist.map { " — \($0)" } ?? "")",
          detail: reason == nil ? Self.clock(track.duration) : "unplayable",
          style: current ? .current : (reason == nil ? .normal : .dim), action: .queueEntry(index))
      }
  }

  private func rows(for detail: DetailState) -> [ListRow] {
    switch detail.content {
    case .loading(let title):
      return [ListRow(text: "\(title) — loading…", style: .dim, isHeader: true)]
    case .failed(let message): return [ListRow(text: message, style: .error, isHeader: true)]
    case .album(let album):
      return [.header(album.album.title + (album.album.artist.map { " — \($0)" } ?? ""))]
        + [ListRow(text: "▶ Play all", style: .accent, action: .playAll)]
        + album.tracks.map { itemRow(.track($0)) }
    case .artist(let artist):
      return [
        .header(artist.artist.name),
        ListRow(text: "▶ Play top tracks", style: .accent, action: .playAll),
      ]
        + artist.topTracks.map { itemRow(.track($0)) } + [.header("Albums")]
        + artist.albums.map { itemRow(.album($0)) }
    case .playlist(let playlist):
      return [
        .header(playlist.playlist.title),
        ListRow(text: "▶ Play all", style: .accent, action: .playAll),
      ]
        + playlist.tracks.items.map { itemRow(.track($0)) }
    case .genre(let genre):
      return [.header(genre.genre.name)]
        + genre.sections.flatMap { [ListRow.header($0.title)] + $0.items.map(itemRow) }
    case .libraryPlaylist(let playlist, let entries):
      return [.header("\(playlist.name) — x remove, J/K move, R rename, d delete")]
        + [ListRow(text: "▶ Play all", style: .accent, action: .playAll)]
        + entries.map { entry in
          var row = itemRow(.track(entry.track))
          row.action = .playlistEntry(entry, playlistID: playlist.id)
          return row
        }
    case .tracks(let title, let tracks):
      return [.header(title), ListRow(text: "▶ Play all", style: .accent, action: .playAll)]
        + tracks.map { itemRow(.track($0)) }
    }
  }

  /// The catalog item under the cursor, if any.
  func selectedItem() -> CatalogItem? {
    let rows = currentRows()
    guard rows.indices.contains(cursor.selection) else { return nil }
    switch rows[cursor.selection].action {
    case .item(let item): return item
    case .playlistEntry(let entry, _): return .track(entry.track)
    case .queueEntry(let index):
      return presenter.queue.track(at: index).map { .track(catalogTrack(for: $0)) }
    default: return nil
    }
  }

  /// `m:ss` for a duration, or blank.
  static func clock(_ seconds: Double?) -> String { ClockText.minutesSeconds(seconds) }
}
