import Foundation
import RefrainCore

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
  /// A chat message to the room.
  case chat
  /// A phrase to find in the lyrics view.
  case findLyric
}

/// What a yes/no question does on yes.
enum ConfirmAction {
  case quit
  case deletePlaylist(Int64)
  /// Leaves tap-to-sync, dropping its stamps.
  case leaveSync
  /// Publishes this track's lyrics to LRCLIB.
  case publishLyrics(Track)
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
