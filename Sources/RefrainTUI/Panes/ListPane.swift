import Foundation
import RefrainArt
import RefrainCore

/// A selectable row in a list pane.
struct ListRow {
  /// What Enter does on the row.
  enum Action {
    case none
    case item(CatalogItem)
    case playAll
    case recentSearch(String)
    case libraryPlaylist(LibraryPlaylist)
    case savedAlbums
    case likedTracks
    case history
    case newPlaylist
    case queueEntry(Int)
    case playlistEntry(PlaylistEntry, playlistID: Int64)
  }

  var text: String
  var detail: String = ""
  var style: Style = .normal
  var action: Action = .none
  var isHeader = false

  static func header(_ text: String) -> ListRow {
    ListRow(text: text, style: .title, isHeader: true)
  }
}

/// A cursor over a list: the selected row and the first visible one.
struct ListCursor {
  var selection = 0
  var top = 0

  /// Moves within `rows`, skipping headers; `page` is the visible height.
  mutating func move(_ move: Command.Move, rows: [ListRow], page: Int) {
    guard !rows.isEmpty else { return }
    let selectable = rows.indices.filter { !rows[$0].isHeader }
    guard let first = selectable.first, let last = selectable.last else { return }
    switch move {
    case .down, .right: selection = selectable.first { $0 > selection } ?? last
    case .up, .left: selection = selectable.last { $0 < selection } ?? first
    case .pageDown:
      selection = selectable.first { $0 >= selection + max(1, page - 1) } ?? last
    case .pageUp:
      selection = selectable.last { $0 <= selection - max(1, page - 1) } ?? first
    case .top: selection = first
    case .bottom: selection = last
    }
  }

  /// Keeps the selection on a selectable row and visible in `height` rows.
  mutating func clamp(rows: [ListRow], height: Int) {
    if rows.isEmpty {
      selection = 0
      top = 0
      return
    }
    selection = min(max(0, selection), rows.count - 1)
    if rows[selection].isHeader {
      selection = rows.indices.first { $0 > selection && !rows[$0].isHeader } ?? selection
    }
    if selection < top { top = selection }
    if selection >= top + height { top = selection - height + 1 }
    top = max(0, min(top, max(0, rows.count - height)))
  }
}

/// A detail view pushed on a pane: album, artist, playlist, genre, or a library list.
struct DetailState {
  enum Content {
    case loading(String)
    case failed(String)
    case album(AlbumDetail)
    case artist(ArtistDetail)
    case playlist(PlaylistDetail)
    case genre(GenreDetail)
    case libraryPlaylist(LibraryPlaylist, [PlaylistEntry])
    case tracks(String, [CatalogTrack])
  }

  var content: Content
  var cursor = ListCursor()

  var title: String {
    switch content {
    case .loading(let what): return what
    case .failed: return "Error"
    case .album(let detail): return detail.album.title
    case .artist(let detail): return detail.artist.name
    case .playlist(let detail): return detail.playlist.title
    case .genre(let detail): return detail.genre.name
    case .libraryPlaylist(let playlist, _): return playlist.name
    case .tracks(let title, _): return title
    }
  }

  /// The tracks "play all" queues.
  var tracks: [CatalogTrack] {
    switch content {
    case .album(let detail): return detail.tracks
    case .artist(let detail): return detail.topTracks
    case .playlist(let detail): return detail.tracks.items
    case .libraryPlaylist(_, let entries): return entries.map(\.track)
    case .tracks(_, let tracks): return tracks
    case .genre(let detail):
      return detail.sections.flatMap(\.items).compactMap {
        if case .track(let track) = $0 { return track }
        return nil
      }
    case .loading, .failed: return []
    }
  }
}

/// What the list panes are drawn from.
///
/// The shell's catalog results and library snapshot, and the session's queue: a value, so
/// building rows from it reads nothing else.
struct ListContent {
  var providerName: String
  var home: [HomeSection]
  var homeState: String
  var search: SearchState
  /// Whether the library file could be opened.
  var libraryAvailable: Bool
  /// What the panes show from the library; `nil` until the first read finished.
  var librarySnapshot: LibrarySnapshot?
  /// Why the last read of the library failed, until one succeeds.
  var libraryReadError: String?
  var queue: PlayQueue
  /// The catalog track a queued track came from (for adding or saving a queue entry).
  var catalogTrack: (Track) -> CatalogTrack
  /// Whether the terminal shows pictures and covers can be looked for.
  var showsCovers = false
  /// The cover asked for an album's header, and what came of it.
  var albumCover = CoverSlot()
}

/// What the selection stands for as tracks, for adding to the queue or a playlist.
enum SelectionTracks {
  /// Known now: a track, an open list.
  case now([CatalogTrack])
  /// An album, artist, playlist or genre row that was never opened: fetched first.
  case fetch(CatalogItem)
  /// A library playlist, the liked tracks or the history: read from the library first.
  case library(LibraryTracksRead)
  /// Nothing to add: a header, a recent search, the "new playlist" row.
  case nothing
}

/// A list pane: Home, Search, Library or Queue (and the Player pane's detail views), with
/// its own cursor and the detail views pushed on it.
///
/// Its rows and its drawing are functions of a ``ListContent``; its command handler changes
/// only the pane and returns what the shell must do (``PaneResult``).
struct ListPane {
  /// Which pane this is.
  let kind: Command.Pane
  /// The cursor over the pane's own rows, kept while detail views are open.
  var rootCursor = ListCursor()
  /// The detail views pushed on the pane, the last one on top.
  var details: [DetailState] = []

  /// Creates the pane with nothing pushed.
  init(_ kind: Command.Pane) { self.kind = kind }

  /// Whether a detail view is open.
  var hasDetail: Bool { !details.isEmpty }

  /// The cursor of what is on top: the last detail view, or the pane itself.
  var cursor: ListCursor {
    get { details.last?.cursor ?? rootCursor }
    set {
      if details.isEmpty {
        rootCursor = newValue
      } else {
        details[details.count - 1].cursor = newValue
      }
    }
  }

  /// How many of the latest plays "Recently played" lists.
  static let historyLength = 50

  // MARK: - Rows

  /// The rows on top: the open detail view's, or the pane's own.
  func rows(_ content: ListContent) -> [ListRow] {
    if let detail = details.last { return Self.rows(for: detail) }
    switch kind {
    case .home: return Self.homeRows(content)
    case .search: return Self.searchRows(content)
    case .library: return Self.libraryRows(content)
    case .queue: return Self.queueRows(content.queue)
    case .player, .room: return []
    }
  }

  static func itemRow(_ item: CatalogItem) -> ListRow {
    switch item {
    case .track(let track):
      let by = [track.artist, track.album].compactMap { $0 }.joined(separator: " · ")
      return ListRow(
        text: "♪ \(track.title)\(by.isEmpty ? "" : " — \(by)")",
        detail: track.isPlayable ? ClockText.minutesSeconds(track.duration) : "unplayable",
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
    case .lyric(let match):
      let by = match.track.artist.map { " · \($0)" } ?? ""
      return ListRow(
        text: "“\(match.text)” — \(match.track.title)\(by)",
        detail: match.ms.map { ClockText.minutesSeconds(Double($0) / 1000) } ?? "",
        style: match.track.isPlayable ? .normal : .dim, action: .item(item))
    }
  }

  private static func homeRows(_ content: ListContent) -> [ListRow] {
    guard !content.home.isEmpty else {
      return [ListRow(text: content.homeState, style: .dim, isHeader: true)]
    }
    var rows: [ListRow] = []
    for section in content.home {
      rows.append(.header(section.title))
      rows += section.items.map(itemRow)
    }
    return rows
  }

  private static func searchRows(_ content: ListContent) -> [ListRow] {
    let search = content.search
    if search.query.isEmpty {
      let recent = content.librarySnapshot?.recentSearches ?? []
      guard !recent.isEmpty else {
        return [
          ListRow(
            text: "Press / and type to search \(content.providerName).", style: .dim,
            isHeader: true)
        ]
      }
      return [.header("Recent searches")]
        + recent.map { ListRow(text: $0, action: .recentSearch($0)) }
    }
    var rows: [ListRow] = []
    let titles: [(SearchKind, String)] = [
      (.track, "Tracks"), (.album, "Albums"), (.artist, "Artists"), (.playlist, "Playlists"),
      (.lyric, "Lyrics"),
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
  private static func libraryRows(_ content: ListContent) -> [ListRow] {
    guard content.libraryAvailable else {
      return [
        ListRow(text: "The library database is not available.", style: .error, isHeader: true)
      ]
    }
    guard let snapshot = content.librarySnapshot else {
      let header =
        content.libraryReadError.map {
          ListRow(text: "Playlists: \($0)", style: .error, isHeader: true)
        } ?? .header("Playlists (loading…)")
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
  private static let collectionRows: [ListRow] = [
    ListRow(text: "+ New playlist (c)", style: .dim, action: .newPlaylist),
    .header("Collection"),
    ListRow(text: "♥ Liked tracks", action: .likedTracks),
    ListRow(text: "◉ Saved albums", action: .savedAlbums),
    ListRow(text: "↺ Recently played", action: .history),
  ]

  static func queueRows(_ queue: PlayQueue) -> [ListRow] {
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
          detail: reason == nil ? ClockText.minutesSeconds(track.duration) : "unplayable",
          style: current ? .current : (reason == nil ? .normal : .dim), action: .queueEntry(index))
      }
  }

  private static func rows(for detail: DetailState) -> [ListRow] {
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

  // MARK: - Selection

  /// The action of the selected row; `.none` on an empty list.
  func selectedAction(in rows: [ListRow]) -> ListRow.Action {
    rows.indices.contains(cursor.selection) ? rows[cursor.selection].action : .none
  }

  /// The catalog item under the cursor, if any.
  func selectedItem(in rows: [ListRow], _ content: ListContent) -> CatalogItem? {
    switch selectedAction(in: rows) {
    case .item(let item): return item
    case .playlistEntry(let entry, _): return .track(entry.track)
    case .queueEntry(let index):
      return content.queue.track(at: index).map { .track(content.catalogTrack($0)) }
    default: return nil
    }
  }

  /// The tracks under the cursor: the row's own, or the open list's on a header or "play all".
  func selectionTracks(in rows: [ListRow], _ content: ListContent) -> SelectionTracks {
    let openList = details.last?.tracks ?? []
    switch selectedAction(in: rows) {
    case .item(.track(let track)): return .now([track])
    case .item(let item): return .fetch(item)
    case .playlistEntry(let entry, _): return .now([entry.track])
    case .queueEntry:
      if case .track(let track)? = selectedItem(in: rows, content) { return .now([track]) }
      return .nothing
    case .libraryPlaylist(let playlist):
      return .library {
        try $0.entries(inPlaylist: playlist.id, offset: 0, limit: nil).map(\.track)
      }
    case .likedTracks: return .library { try $0.likedTracks() }
    case .history:
      let limit = Self.historyLength
      return .library { try $0.playHistory(limit: limit).map(\.track) }
    case .none, .playAll: return openList.isEmpty ? .nothing : .now(openList)
    case .recentSearch, .savedAlbums, .newPlaylist: return .nothing
    }
  }

  // MARK: - Commands

  /// Handles a list command: moves and "back" change the pane; everything that reads or
  /// writes the catalog, the library or the queue comes back as an effect for the shell.
  ///
  /// `page` is the visible height, for page moves.
  mutating func handle(_ command: Command, rows: [ListRow], page: Int, _ content: ListContent)
    -> PaneResult
  {
    switch command {
    case .move(let move):
      cursor.move(move, rows: rows, page: page)
      return .handled
    case .back:
      guard hasDetail else { return .ignored }
      details.removeLast()
      return .handled
    case .open:
      guard rows.indices.contains(cursor.selection) else { return .handled }
      return .effect(.activate(rows[cursor.selection].action))
    case .playAll:
      let tracks = details.last?.tracks ?? []
      return tracks.isEmpty ? .ignored : .effect(.playAll(tracks))
    case .add, .addToPlaylist:
      if command == .addToPlaylist, !content.libraryAvailable {
        return .status("the library is not available", error: true)
      }
      switch selectionTracks(in: rows, content) {
      case .now(let tracks) where tracks.isEmpty: return .status("this list has no tracks to add")
      case .nothing: return .status("nothing here to add: select a track or a list")
      case let selection:
        return .effect(command == .add ? .enqueue(selection) : .pickPlaylist(selection))
      }
    case .save:
      if let item = selectedItem(in: rows, content) { return .effect(.save(item)) }
      if case .album(let detail)? = details.last?.content {
        return .effect(.save(.album(detail.album)))
      }
      return .status("nothing here to save: select an album or a track")
    default:
      return handleEdit(command, rows: rows)
    }
  }

  /// The queue's and the library playlists' edits on the selected row.
  private mutating func handleEdit(_ command: Command, rows: [ListRow]) -> PaneResult {
    switch (command, selectedAction(in: rows)) {
    case (.remove, .queueEntry(let index)):
      return .effect(.removeFromQueue(index))
    case (.moveItemDown, .queueEntry(let index)):
      cursor.move(.down, rows: rows, page: 1)
      return .effect(.moveInQueue(from: index, to: index + 1))
    case (.moveItemUp, .queueEntry(let index)):
      cursor.move(.up, rows: rows, page: 1)
      return .effect(.moveInQueue(from: index, to: index - 1))
    case (.remove, .playlistEntry(let entry, let id)):
      return .effect(.removeFromPlaylist(entry, playlistID: id))
    case (.moveItemDown, .playlistEntry(let entry, let id)):
      cursor.selection = min(rows.count - 1, cursor.selection + 1)
      return .effect(.moveInPlaylist(entry, playlistID: id, to: entry.position + 1))
    case (.moveItemUp, .playlistEntry(let entry, let id)):
      guard entry.position > 0 else { return .handled }
      cursor.selection -= 1
      return .effect(.moveInPlaylist(entry, playlistID: id, to: entry.position - 1))
    case (.rename(let name?), .libraryPlaylist(let playlist)):
      return .effect(.renamePlaylist(playlist.id, to: name))
    case (.delete, .libraryPlaylist(let playlist)), (.rename(nil), .libraryPlaylist(let playlist)):
      return .overlay(Self.question(command, about: playlist))
    case (.rename(nil), _), (.delete, _):
      guard case .libraryPlaylist(let playlist, _)? = details.last?.content else { return .ignored }
      return .overlay(Self.question(command, about: playlist))
    default:
      return .ignored
    }
  }

  /// What delete or rename asks about a playlist before doing it.
  private static func question(_ command: Command, about playlist: LibraryPlaylist) -> Overlay {
    if command == .delete {
      return .confirm(
        question: "Delete the playlist \(playlist.name)? (y/n)",
        action: .deletePlaylist(playlist.id))
    }
    return .input(
      title: "Rename \(playlist.name) to:", editor: LineEditor(text: playlist.name),
      purpose: .rename(playlist.id))
  }

  // MARK: - Drawing

  /// The size of an album's cover in its detail view's header, in cells.
  static let albumHeader = (columns: 12, rows: 6)

  /// The cover of an album's detail view: a track of it, with the album's cover URL, is
  /// what the cover is looked for by (its file's picture or folder, or the catalog's).
  static func coverTrack(of detail: AlbumDetail) -> Track {
    var track =
      detail.tracks.lazy.compactMap(\.playable).first
      ?? Track(
        id: "album:\(detail.album.provider):\(detail.album.id)",
        location: URL(string: "about:blank") ?? URL(fileURLWithPath: "/"),
        title: detail.album.title)
    track.artist = detail.album.artist ?? track.artist
    track.album = detail.album.title
    track.coverURL = detail.album.coverURL ?? track.coverURL
    return track
  }

  /// A small cover at the left of an album's header, with the album, artist and year beside
  /// it; a placeholder box until the cover has loaded, or when there is none.
  private static func drawAlbumHeader(
    _ detail: AlbumDetail, _ content: ListContent, into grid: inout ScreenGrid, at y: Int,
    layout: inout FrameLayout
  ) {
    let box = Rect(x: 2, y: y, width: albumHeader.columns, height: albumHeader.rows)
    let track = coverTrack(of: detail)
    let request = CoverSlot.Request(
      track: track, box: CellSize(columns: box.width, rows: box.height))
    layout.albumCover = request
    if content.albumCover.request == request, case .ready(let scaled) = content.albumCover.state {
      let cells = scaled.cells
      grid.pictures.append(
        Picture(
          rect: Rect(
            x: box.x + (box.width - cells.columns) / 2, y: box.y + (box.height - cells.rows) / 2,
            width: cells.columns, height: cells.rows),
          key: "album \(track.id) \(box.width)x\(box.height)", cells: cells, png: scaled.png))
    } else {
      grid.box(box, style: .border)
      grid.putCentered("♪", x: box.x, y: box.y + box.height / 2, width: box.width, style: .accent)
    }
    let x = box.x + box.width + 3
    let width = grid.width - x - 1
    grid.put(detail.album.title, x: x, y: y + 1, maxWidth: width, style: .title)
    grid.put(detail.album.artist ?? "", x: x, y: y + 2, maxWidth: width)
    let facts = [
      detail.album.year.map(String.init),
      "\(detail.tracks.count) track\(detail.tracks.count == 1 ? "" : "s")",
    ].compactMap { $0 }.joined(separator: " · ")
    grid.put(facts, x: x, y: y + 3, maxWidth: width, style: .dim)
  }

  /// Draws the pane into `area`, writing nothing but `grid` and `layout.list`.
  ///
  /// The search line on Search, the open detail's title, then the rows around the cursor.
  func render(
    rows: [ListRow], _ content: ListContent, into grid: inout ScreenGrid, in area: Rect,
    layout: inout FrameLayout
  ) {
    var rect = area
    if kind == .search && !hasDetail {
      let search = content.search
      let prompt = search.editing ? "/ \(search.editor.text)▏" : "/ \(search.query)"
      grid.put(
        prompt, x: 1, y: rect.y, maxWidth: rect.width - 2, style: search.editing ? .accent : .dim)
      rect = Rect(x: rect.x, y: rect.y + 1, width: rect.width, height: rect.height - 1)
    }
    if let detail = details.last {
      grid.put("‹ \(detail.title)", x: 1, y: rect.y, maxWidth: rect.width - 2, style: .accent)
      rect = Rect(x: rect.x, y: rect.y + 1, width: rect.width, height: rect.height - 1)
      if case .album(let album) = detail.content, content.showsCovers,
        rect.height >= Self.albumHeader.rows + 6
      {
        Self.drawAlbumHeader(album, content, into: &grid, at: rect.y, layout: &layout)
        let used = Self.albumHeader.rows + 1
        rect = Rect(x: rect.x, y: rect.y + used, width: rect.width, height: rect.height - used)
      }
    }
    var position = cursor
    position.clamp(rows: rows, height: rect.height)
    layout.list = (rect, position)
    for (offset, index) in (position.top..<min(rows.count, position.top + rect.height)).enumerated()
    {
      let row = rows[index]
      let y = rect.y + offset
      let selected = index == position.selection && !row.isHeader
      let detailWidth = DisplayWidth.of(row.detail)
      let textWidth = rect.width - 2 - (detailWidth > 0 ? detailWidth + 1 : 0)
      if selected {
        grid.fill(Rect(x: rect.x, y: y, width: rect.width, height: 1), style: .selected)
      }
      let indent = row.isHeader ? 1 : 2
      grid.put(
        row.text, x: rect.x + indent, y: y, maxWidth: textWidth - indent + 1,
        style: selected ? .selected : row.style)
      if detailWidth > 0 {
        grid.put(
          row.detail, x: rect.x + rect.width - 1 - detailWidth, y: y,
          style: selected ? .selected : .dim)
      }
    }
  }
}
