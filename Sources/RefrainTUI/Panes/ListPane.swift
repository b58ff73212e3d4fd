import Foundation
import RefrainArt
import RefrainCore
import RefrainSession

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
    /// A new playlist on the catalog's server.
    case newServerPlaylist
    case queueEntry(Int)
    case playlistEntry(PlaylistEntry, playlistID: Int64)
    /// A radio station: Enter plays it.
    case station(RadioStation)
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

/// A detail view pushed on a pane: album, artist, playlist, genre, or a library list, with
/// its own cursor.
struct DetailState {
  var content: CatalogDetail
  var cursor = ListCursor()

  var title: String { content.title }

  /// The tracks "play all" queues.
  var tracks: [CatalogTrack] { content.tracks }
}

/// What the list panes are drawn from.
///
/// The shell's catalog results and library snapshot, and the session's queue: a value, so
/// building rows from it reads nothing else.
struct ListContent {
  var providerName: String
  /// Home, the last search and the library's lists, as the session last read them.
  var browsing: Browsing
  /// The search box: what is typed, and whether it has focus.
  var searchBox: SearchBox
  /// Whether the library file could be opened.
  var libraryAvailable: Bool
  var queue: QueueView
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
  case library(LibraryList)
  /// Nothing to add: a header, a recent search, the "new playlist" row.
  case nothing
}

/// What makes one list pane differ from another: its own rows, what it draws above them,
/// and the edits of its own rows. Home, Search, Library and Queue are one each.
protocol ListSource {
  /// The pane's own rows, under any detail view pushed on it.
  func rows(_ content: ListContent) -> [ListRow]
  /// Draws what goes above the rows (Search's box) at the top of `area`; returns the rows
  /// it used.
  func header(_ content: ListContent, into grid: inout ScreenGrid, in area: Rect) -> Int
  /// Handles an edit of the selected row (remove, move, rename, delete); `.ignored` when the
  /// row is not this pane's to edit.
  func edit(
    _ command: Command, on action: ListRow.Action, cursor: inout ListCursor, rows: [ListRow]
  )
    -> PaneResult
}

extension ListSource {
  func header(_ content: ListContent, into grid: inout ScreenGrid, in area: Rect) -> Int { 0 }
  func edit(
    _ command: Command, on action: ListRow.Action, cursor: inout ListCursor, rows: [ListRow]
  )
    -> PaneResult
  { .ignored }
}

/// The list under a pane that has none of its own (the Player pane's detail views).
struct NoRows: ListSource {
  func rows(_ content: ListContent) -> [ListRow] { [] }
}

extension Command.Pane {
  /// The list this pane shows: one row per list pane, and none for Player and Room, which
  /// draw themselves (PlayerPane, RoomPane).
  var listSource: any ListSource {
    switch self {
    case .home: return HomePane()
    case .search: return SearchPane()
    case .library: return LibraryPane()
    case .queue: return QueuePane()
    case .player, .room: return NoRows()
    }
  }
}

/// A list pane: Home, Search, Library or Queue (and the Player pane's detail views), with
/// its own cursor and the detail views pushed on it.
///
/// Its rows and its drawing are functions of a ``ListContent``; its command handler changes
/// only the pane and returns what the shell must do (``PaneResult``).
struct ListPane: Pane {
  /// The pane's own rows and edits.
  let source: any ListSource
  /// The cursor over the pane's own rows, kept while detail views are open.
  var rootCursor = ListCursor()
  /// The detail views pushed on the pane, the last one on top.
  var details: [DetailState] = []

  /// Creates `pane`'s list with nothing pushed.
  init(_ pane: Command.Pane) { source = pane.listSource }

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

  // MARK: - Rows

  /// The rows on top: the open detail view's, or the pane's own.
  func rows(_ content: ListContent) -> [ListRow] {
    let rows = details.last.map(Self.rows(for:)) ?? source.rows(content)
    guard let server = content.browsing.serverLists else { return rows }
    return rows.map { row in
      guard case .item(.track(let track)) = row.action, server.hasStarred(track) else { return row }
      var marked = row
      marked.text += " " + Self.starredMark
      return marked
    }
  }

  /// The mark after a track the catalog's server has starred, in lists and the Player pane.
  static let starredMark = "♥"

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
    case .libraryPlaylist(let playlist): return .library(.playlist(playlist))
    case .likedTracks: return .library(.liked)
    case .history: return .library(.history(limit: LibraryPane.historyLength))
    case .none, .playAll: return openList.isEmpty ? .nothing : .now(openList)
    case .recentSearch, .savedAlbums, .newPlaylist, .newServerPlaylist, .station: return .nothing
    }
  }

  // MARK: - Commands

  /// Handles a command on the rows `content` gives (see ``handle(_:rows:page:_:)``).
  mutating func handle(_ command: Command, model content: ListContent, page: Int) -> PaneResult {
    handle(command, rows: rows(content), page: page, content)
  }

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
      return handleEdit(command, rows: rows, content)
    }
  }

  /// The edits of the selected row: the pane's own first (queue entries, playlists), then
  /// those of an open library playlist's entries, on whichever pane it is open.
  private mutating func handleEdit(_ command: Command, rows: [ListRow], _ content: ListContent)
    -> PaneResult
  {
    let action = selectedAction(in: rows)
    let own = source.edit(command, on: action, cursor: &cursor, rows: rows)
    guard case .ignored = own else { return own }
    if let (id, position, count) = serverPlaylistPosition(rows, content) {
      switch command {
      case .remove: return .effect(.editServerPlaylist(.remove(id, position)))
      case .moveItemDown:
        guard position < count else { return .handled }
        cursor.selection += 1
        return .effect(.editServerPlaylist(.move(id, from: position, to: position + 1)))
      case .moveItemUp:
        guard position > 1 else { return .handled }
        cursor.selection -= 1
        return .effect(.editServerPlaylist(.move(id, from: position, to: position - 1)))
      default: break
      }
    }
    switch (command, action) {
    case (.remove, .playlistEntry(let entry, let id)):
      return .effect(.removeFromPlaylist(entry, playlistID: id))
    case (.moveItemDown, .playlistEntry(let entry, let id)):
      cursor.selection = min(rows.count - 1, cursor.selection + 1)
      return .effect(.moveInPlaylist(entry, playlistID: id, to: entry.position + 1))
    case (.moveItemUp, .playlistEntry(let entry, let id)):
      guard entry.position > 0 else { return .handled }
      cursor.selection -= 1
      return .effect(.moveInPlaylist(entry, playlistID: id, to: entry.position - 1))
    case (.rename(nil), _), (.delete, _):
      guard case .libraryPlaylist(let playlist, _)? = details.last?.content else { return .ignored }
      return .overlay(Self.question(command, about: playlist))
    default:
      return .ignored
    }
  }

  /// In an open playlist of the catalog's own server, the playlist's id, the selected
  /// track's position (from 1) and the track count; `nil` elsewhere.
  private func serverPlaylistPosition(_ rows: [ListRow], _ content: ListContent) -> (
    String, Int, Int
  )? {
    guard content.browsing.serverLists != nil,
      case .playlist(let detail)? = details.last?.content,
      detail.playlist.provider == content.providerName,
      case .item(.track) = selectedAction(in: rows),
      let first = rows.firstIndex(where: {
        if case .item(.track) = $0.action { return true } else { return false }
      })
    else { return nil }
    return (detail.playlist.id, cursor.selection - first + 1, detail.tracks.items.count)
  }

  /// What delete or rename asks about a playlist before doing it.
  static func question(_ command: Command, about playlist: LibraryPlaylist) -> Overlay {
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

  /// Draws the rows `content` gives (see ``render(rows:_:into:in:layout:)``).
  func render(
    _ content: ListContent, into grid: inout ScreenGrid, in rect: Rect, layout: inout FrameLayout
  ) {
    render(rows: rows(content), content, into: &grid, in: rect, layout: &layout)
  }

  /// Draws the pane into `area`, writing nothing but `grid` and `layout.list`.
  ///
  /// The search line on Search, the open detail's title, then the rows around the cursor.
  func render(
    rows: [ListRow], _ content: ListContent, into grid: inout ScreenGrid, in area: Rect,
    layout: inout FrameLayout
  ) {
    var rect = area
    if !hasDetail {
      let used = source.header(content, into: &grid, in: rect)
      rect = Rect(x: rect.x, y: rect.y + used, width: rect.width, height: rect.height - used)
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
