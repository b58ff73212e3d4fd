import Foundation
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

/// A line of text being typed: the search box, the `:` prompt, a playlist name.
struct LineEditor {
  var text = ""

  /// Applies an editing key; returns false when the key is not an editing key.
  mutating func apply(_ key: Key) -> Bool {
    switch key {
    case .character(let character):
      text.append(character)
    case .backspace:
      if !text.isEmpty { text.removeLast() }
    case .ctrl("u"):
      text = ""
    case .ctrl("w"):
      while text.last == " " { text.removeLast() }
      while let last = text.last, last != " " { text.removeLast() }
    default:
      return false
    }
    return true
  }
}

/// An overlay above the panes.
enum Overlay {
  case help
  case input(title: String, editor: LineEditor, purpose: InputPurpose)
  case picker(tracks: [CatalogTrack], playlists: [LibraryPlaylist], cursor: ListCursor)
  case confirm(question: String, action: ConfirmAction)
}

/// What a line of input is for.
enum InputPurpose {
  case command
  case newPlaylist(adding: [CatalogTrack])
  case rename(Int64)
}

/// What a yes/no question does on yes.
enum ConfirmAction {
  case quit
  case deletePlaylist(Int64)
}

/// The full-height lyrics view.
struct LyricsViewState {
  var seekMode = true
  var selection: Int?
  var following = true
  var lastInput: Double = 0
}

/// The search pane.
struct SearchState {
  var editor = LineEditor()
  var editing = false
  var query = ""
  var results: [SearchKind: [CatalogItem]] = [:]
  var pending = 0
  var error: String?
  var historyIndex: Int?
}

/// The message on the status line.
struct StatusMessage {
  var text: String
  var isError: Bool
  var expires: Double?
}
