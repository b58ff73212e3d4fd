import Foundation
import RefrainCatalog
import RefrainCore

/// The list panes: what rows they show and what list commands do on them.
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
      let recent = (try? library?.recentSearches()) ?? []
      guard !recent.isEmpty else {
        return [ListRow(text: "Press / and type to search \(provider.name).", style: .dim, isHeader: true)]
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
        ? "Searching…" : search.error.map { "Search failed: \($0)" } ?? "No results for \(search.query)"
      rows.append(ListRow(text: text, style: search.error == nil ? .dim : .error, isHeader: true))
    }
    return rows
  }

  private func libraryRows() -> [ListRow] {
    guard let library else {
      return [ListRow(text: "The library database is not available.", style: .error, isHeader: true)]
    }
    var rows: [ListRow] = [.header("Playlists")]
    for playlist in (try? library.playlists()) ?? [] {
      rows.append(
        ListRow(
          text: "≡ \(playlist.name)", detail: "\(playlist.trackCount) tracks",
          action: .libraryPlaylist(playlist)))
    }
    rows.append(ListRow(text: "+ New playlist (c)", style: .dim, action: .newPlaylist))
    rows.append(.header("Collection"))
    rows.append(ListRow(text: "♥ Liked tracks", action: .likedTracks))
    rows.append(ListRow(text: "◉ Saved albums", action: .savedAlbums))
    rows.append(ListRow(text: "↺ Recently played", action: .history))
    return rows
  }

  private func queueRows() -> [ListRow] {
    let queue = presenter.queue
    guard !queue.isEmpty else {
      return [ListRow(text: "The queue is empty: press a on a track or P on a list.", style: .dim, isHeader: true)]
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
    case .loading(let title): return [ListRow(text: "\(title) — loading…", style: .dim, isHeader: true)]
    case .failed(let message): return [ListRow(text: message, style: .error, isHeader: true)]
    case .album(let album):
      return [.header(album.album.title + (album.album.artist.map { " — \($0)" } ?? ""))]
        + [ListRow(text: "▶ Play all", style: .accent, action: .playAll)]
        + album.tracks.map { itemRow(.track($0)) }
    case .artist(let artist):
      return [.header(artist.artist.name), ListRow(text: "▶ Play top tracks", style: .accent, action: .playAll)]
        + artist.topTracks.map { itemRow(.track($0)) } + [.header("Albums")]
        + artist.albums.map { itemRow(.album($0)) }
    case .playlist(let playlist):
      return [.header(playlist.playlist.title), ListRow(text: "▶ Play all", style: .accent, action: .playAll)]
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
      return presenter.queue.track(at: index).map {
        .track(catalogTracks[$0.id] ?? CatalogTrack(id: $0.id, provider: $0.provider ?? "file", title: $0.title, artist: $0.artist, album: $0.album, duration: $0.duration, streamURL: $0.location))
      }
    default: return nil
    }
  }

  /// The tracks the selection stands for (a track, or the whole list on "play all").
  private func selectedTracks() -> [CatalogTrack] {
    switch selectedItem() {
    case .track(let track): return [track]
    default: return details[pane]?.last?.tracks ?? []
    }
  }

  // MARK: - List commands

  func handleList(_ command: Command) -> Bool {
    guard pane != .player || details[pane]?.isEmpty == false else { return false }
    let rows = currentRows()
    var moved = cursor
    switch command {
    case .move(let move):
      moved.move(move, rows: rows, page: max(1, lastHeight - 4))
      cursor = moved
      return true
    case .open:
      guard rows.indices.contains(cursor.selection) else { return true }
      activate(rows[cursor.selection].action, rows: rows)
      return true
    case .playAll:
      let tracks = details[pane]?.last?.tracks ?? []
      if !tracks.isEmpty { play(tracks, startAt: 0) }
      return !tracks.isEmpty
    case .add:
      if let item = selectedItem() {
        if case .track(let track) = item { enqueue([track]) } else { enqueueContents(of: item) }
      } else if let tracks = details[pane]?.last?.tracks, !tracks.isEmpty {
        enqueue(tracks)
      }
      return true
    case .addToPlaylist:
      let tracks = selectedTracks()
      guard !tracks.isEmpty else {
        setStatus("select a track or open a list first")
        return true
      }
      overlay = .picker(tracks: tracks, playlists: (try? library?.playlists()) ?? [], cursor: ListCursor())
      return true
    case .save:
      if let item = selectedItem() { save(item) } else if case .album(let detail)? = details[pane]?.last?.content {
        save(.album(detail.album))
      }
      return true
    default:
      return handleLibraryEdit(command, rows: rows)
    }
  }

  private func enqueueContents(of item: CatalogItem) {
    let provider = provider
    let inbox = inbox
    Task.detached {
      var tracks: [CatalogTrack] = []
      switch item {
      case .album(let album): tracks = (try? await provider.album(id: album.id).tracks) ?? []
      case .playlist(let playlist):
        tracks = (try? await provider.playlist(id: playlist.id, offset: 0, limit: 100).tracks.items) ?? []
      case .artist(let artist): tracks = (try? await provider.artist(id: artist.id).topTracks) ?? []
      default: break
      }
      let found = tracks
      inbox.post { app in app.enqueue(found) }
    }
  }

  private func activate(_ action: ListRow.Action, rows: [ListRow]) {
    switch action {
    case .none: break
    case .item(.track(let track)):
      if details[pane]?.isEmpty == false, pane != .queue {
        play([track], startAt: 0)  // "play this": the single track
      } else {
        open(.track(track))
      }
    case .item(let item): open(item)
    case .playAll:
      play(details[pane]?.last?.tracks ?? [], startAt: 0)
    case .recentSearch(let query): runSearch(query)
    case .libraryPlaylist(let playlist):
      let entries = (try? library?.entries(inPlaylist: playlist.id)) ?? []
      details[pane, default: []].append(DetailState(content: .libraryPlaylist(playlist, entries)))
    case .likedTracks:
      let tracks = (try? library?.likedTracks()) ?? []
      details[pane, default: []].append(DetailState(content: .tracks("Liked tracks", tracks)))
    case .savedAlbums:
      let albums = (try? library?.savedAlbums()) ?? []
      let section = HomeSection(id: "saved", title: "Saved albums", kind: .other, items: albums.map { .album($0) })
      details[pane, default: []].append(
        DetailState(content: .genre(GenreDetail(genre: GenreSummary(id: "saved", provider: "library", name: "Saved albums"), sections: [section]))))
    case .history:
      let tracks = ((try? library?.playHistory(limit: 50)) ?? []).map(\.track)
      details[pane, default: []].append(DetailState(content: .tracks("Recently played", tracks)))
    case .newPlaylist: createPlaylist(named: nil, adding: [])
    case .queueEntry(let index): presenter.jump(to: index)
    case .playlistEntry(let entry, _): play([entry.track], startAt: 0)
    }
  }

  /// Re-reads an open library playlist after an edit.
  func refreshLibraryDetail() {
    guard let count = details[pane]?.count, count > 0,
      case .libraryPlaylist(let playlist, _)? = details[pane]?.last?.content, let library
    else { return }
    let fresh = (try? library.playlist(playlist.id)) ?? playlist
    let entries = (try? library.entries(inPlaylist: playlist.id)) ?? []
    details[pane]?[count - 1].content = .libraryPlaylist(fresh, entries)
  }

  private func handleLibraryEdit(_ command: Command, rows: [ListRow]) -> Bool {
    let selected = rows.indices.contains(cursor.selection) ? rows[cursor.selection].action : .none
    switch (command, selected) {
    case (.remove, .queueEntry(let index)):
      presenter.removeFromQueue(at: index)
    case (.moveItemDown, .queueEntry(let index)):
      presenter.moveInQueue(from: index, to: index + 1)
      cursor.move(.down, rows: queueRows(), page: 1)
    case (.moveItemUp, .queueEntry(let index)):
      presenter.moveInQueue(from: index, to: index - 1)
      cursor.move(.up, rows: queueRows(), page: 1)
    case (.remove, .playlistEntry(let entry, let id)):
      editLibrary("removed \(entry.track.title)") { try $0.removeEntries([entry.entryID], fromPlaylist: id) }
    case (.moveItemDown, .playlistEntry(let entry, let id)):
      editLibrary(nil) { try $0.moveEntry(inPlaylist: id, from: entry.position, to: entry.position + 1) }
      cursor.selection = min(rows.count - 1, cursor.selection + 1)
    case (.moveItemUp, .playlistEntry(let entry, let id)):
      guard entry.position > 0 else { return true }
      editLibrary(nil) { try $0.moveEntry(inPlaylist: id, from: entry.position, to: entry.position - 1) }
      cursor.selection -= 1
    case (.delete, .libraryPlaylist(let playlist)):
      overlay = .confirm(question: "Delete the playlist \(playlist.name)? (y/n)", action: .deletePlaylist(playlist.id))
    case (.rename(nil), .libraryPlaylist(let playlist)):
      overlay = .input(title: "Rename \(playlist.name) to:", editor: LineEditor(text: playlist.name), purpose: .rename(playlist.id))
    case (.rename(let name?), .libraryPlaylist(let playlist)):
      submitRename(name, id: playlist.id)
    case (.rename(nil), _), (.delete, _):
      if case .libraryPlaylist(let playlist, _)? = details[pane]?.last?.content {
        if command == .delete {
          overlay = .confirm(question: "Delete the playlist \(playlist.name)? (y/n)", action: .deletePlaylist(playlist.id))
        } else {
          overlay = .input(title: "Rename \(playlist.name) to:", editor: LineEditor(text: playlist.name), purpose: .rename(playlist.id))
        }
      } else {
        return false
      }
    default:
      return false
    }
    return true
  }

  private func submitRename(_ name: String, id: Int64) {
    editLibrary("renamed to \(name)") { try $0.renamePlaylist(id, to: name) }
  }

  private func editLibrary(_ message: String?, _ edit: (LibraryStore) throws -> Void) {
    guard let library else { return }
    do {
      try edit(library)
      if let message { setStatus(message) }
      refreshLibraryDetail()
    } catch {
      setStatus("\(error)", error: true)
    }
  }

  /// `m:ss` for a duration, or blank.
  static func clock(_ seconds: Double?) -> String {
    guard let seconds, seconds.isFinite, seconds >= 0 else { return "" }
    let total = Int(seconds)
    return String(format: "%d:%02d", total / 60, total % 60)
  }
}
