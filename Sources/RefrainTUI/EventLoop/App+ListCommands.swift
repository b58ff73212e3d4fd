import Foundation
import RefrainCore

/// What list commands do: open, play all, add to the queue or a playlist, save, and the
/// playlist and queue edits.
extension App {
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

  /// The tracks under the cursor: the row's own, or the open list's on a header or "play all".
  func selectionTracks() -> SelectionTracks {
    let rows = currentRows()
    let action = rows.indices.contains(cursor.selection) ? rows[cursor.selection].action : .none
    let openList = details[pane]?.last?.tracks ?? []
    switch action {
    case .item(.track(let track)): return .now([track])
    case .item(let item): return .fetch(item)
    case .playlistEntry(let entry, _): return .now([entry.track])
    case .queueEntry:
      if case .track(let track)? = selectedItem() { return .now([track]) }
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

  /// How many of the latest plays "Recently played" lists.
  static let historyLength = 50

  /// Opens the playlist picker for `tracks`, unless another overlay took the screen meanwhile.
  ///
  /// It lists the snapshot's playlists at once and asks for a fresh one, which it follows
  /// when it arrives.
  func pickPlaylist(for tracks: [CatalogTrack]) {
    guard overlay == nil else { return }
    overlay = .picker(
      tracks: tracks, playlists: librarySnapshot?.playlists ?? [], cursor: ListCursor())
    refreshLibrary()
  }

  // MARK: - Commands

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
      switch selectionTracks() {
      case .now(let tracks) where tracks.isEmpty: setStatus("this list has no tracks to add")
      case .now(let tracks): enqueue(tracks)
      case .fetch(let item): loadTracks(of: item) { app, tracks in app.enqueue(tracks) }
      case .library(let read): loadLibraryTracks(read) { app, tracks in app.enqueue(tracks) }
      case .nothing: setStatus("nothing here to add: select a track or a list")
      }
      return true
    case .addToPlaylist:
      guard library != nil else {
        setStatus("the library is not available", error: true)
        return true
      }
      switch selectionTracks() {
      case .now(let tracks) where tracks.isEmpty: setStatus("this list has no tracks to add")
      case .now(let tracks): pickPlaylist(for: tracks)
      case .fetch(let item): loadTracks(of: item) { app, tracks in app.pickPlaylist(for: tracks) }
      case .library(let read):
        loadLibraryTracks(read) { app, tracks in app.pickPlaylist(for: tracks) }
      case .nothing: setStatus("nothing here to add: select a track or a list")
      }
      return true
    case .save:
      if let item = selectedItem() {
        save(item)
      } else if case .album(let detail)? = details[pane]?.last?.content {
        save(.album(detail.album))
      } else {
        setStatus("nothing here to save: select an album or a track")
      }
      return true
    default:
      return handleLibraryEdit(command, rows: rows)
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
      pushLibraryDetail(playlist.name) { library in
        let entries = try library.entries(inPlaylist: playlist.id, offset: 0, limit: nil)
        return .libraryPlaylist(playlist, entries)
      }
    case .likedTracks:
      pushLibraryDetail("Liked tracks") { .tracks("Liked tracks", try $0.likedTracks()) }
    case .savedAlbums:
      pushLibraryDetail("Saved albums") { library in
        let section = HomeSection(
          id: "saved", title: "Saved albums", kind: .other,
          items: try library.savedAlbums().map { .album($0) })
        return .genre(
          GenreDetail(
            genre: GenreSummary(id: "saved", provider: "library", name: "Saved albums"),
            sections: [section]))
      }
    case .history:
      let limit = Self.historyLength
      pushLibraryDetail("Recently played") {
        .tracks("Recently played", try $0.playHistory(limit: limit).map(\.track))
      }
    case .newPlaylist: createPlaylist(named: nil, adding: [])
    case .queueEntry(let index): presenter.jump(to: index)
    case .playlistEntry(let entry, _): play([entry.track], startAt: 0)
    }
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
      editLibrary("removed \(entry.track.title)") {
        try $0.removeEntries([entry.entryID], fromPlaylist: id)
      }
    case (.moveItemDown, .playlistEntry(let entry, let id)):
      editLibrary(nil) {
        try $0.moveEntry(inPlaylist: id, from: entry.position, to: entry.position + 1)
      }
      cursor.selection = min(rows.count - 1, cursor.selection + 1)
    case (.moveItemUp, .playlistEntry(let entry, let id)):
      guard entry.position > 0 else { return true }
      editLibrary(nil) {
        try $0.moveEntry(inPlaylist: id, from: entry.position, to: entry.position - 1)
      }
      cursor.selection -= 1
    case (.delete, .libraryPlaylist(let playlist)):
      overlay = .confirm(
        question: "Delete the playlist \(playlist.name)? (y/n)",
        action: .deletePlaylist(playlist.id))
    case (.rename(nil), .libraryPlaylist(let playlist)):
      overlay = .input(
        title: "Rename \(playlist.name) to:", editor: LineEditor(text: playlist.name),
        purpose: .rename(playlist.id))
    case (.rename(let name?), .libraryPlaylist(let playlist)):
      submitRename(name, id: playlist.id)
    case (.rename(nil), _), (.delete, _):
      if case .libraryPlaylist(let playlist, _)? = details[pane]?.last?.content {
        if command == .delete {
          overlay = .confirm(
            question: "Delete the playlist \(playlist.name)? (y/n)",
            action: .deletePlaylist(playlist.id))
        } else {
          overlay = .input(
            title: "Rename \(playlist.name) to:", editor: LineEditor(text: playlist.name),
            purpose: .rename(playlist.id))
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
}
