import RefrainCore

/// An overlay above the panes: it takes the keys (a line of input, a question) or the
/// commands (help, the playlist picker) before the panes do.
enum Overlay {
  case help
  case input(title: String, editor: LineEditor, purpose: InputPurpose)
  case picker(PlaylistPicker)
  case confirm(question: String, action: ConfirmAction)
}

/// What a line of input is for.
enum InputPurpose {
  case command
  /// A new playlist for these tracks: on the catalog's server, or Refrain's own.
  case newPlaylist(adding: [CatalogTrack], onServer: Bool)
  case rename(Int64)
  /// Renames a playlist of the catalog's server.
  case renameOnServer(String)
  /// A chat message to the room.
  case chat
  /// A phrase to find in the lyrics view.
  case findLyric
}

/// What a yes/no question does on yes.
enum ConfirmAction {
  case quit
  case deletePlaylist(Int64)
  /// Deletes a playlist of the catalog's server.
  case deleteOnServer(String)
  /// Leaves tap-to-sync, dropping its stamps.
  case leaveSync
  /// Publishes the current track's lyrics to LRCLIB.
  case publishLyrics
}

/// What an overlay did with a key or a command; the shell carries it out.
enum OverlayResult {
  /// The overlay stays, as given, and took the input.
  case open(Overlay)
  /// The overlay closed, taking the input.
  case closed
  /// The overlay closed, and the command goes on to the panes (help closes on any key).
  case closedPassing
  /// A line of input was entered.
  case submitted(String, InputPurpose)
  /// The question was answered yes.
  case confirmed(ConfirmAction)
  /// The picker chose where the tracks go: a playlist, or a new one.
  case picked(PlaylistPicker.Choice, tracks: [CatalogTrack])
}

extension Overlay {
  /// Handles a key while a line is typed or a question asked; `nil` for the overlays that
  /// take commands instead (help, the picker).
  func handle(key: Key) -> OverlayResult? {
    switch self {
    case .input(let title, var editor, let purpose):
      switch key {
      case .escape: return .closed
      case .enter: return .submitted(editor.text, purpose)
      default:
        _ = editor.apply(key)
        return .open(.input(title: title, editor: editor, purpose: purpose))
      }
    case .confirm(_, let action):
      if key.isMouse { return .open(self) }  // a stray wheel turn or click does not answer "no"
      return key == .character("y") || key == .character("Y") ? .confirmed(action) : .closed
    case .help, .picker:
      return nil
    }
  }

  /// Handles a command: help closes on any (Esc, ?, Enter and q go no further); the picker
  /// moves, picks or closes, and keeps every other command from the panes.
  func handle(_ command: Command) -> OverlayResult {
    switch self {
    case .help:
      return [.back, .help, .open, .quit].contains(command) ? .closed : .closedPassing
    case .picker(var picker):
      switch command {
      case .move(let move):
        picker.move(move, page: 8)
        return .open(.picker(picker))
      case .open:
        return .picked(picker.selected, tracks: picker.tracks)
      case .back, .quit:
        return .closed
      default:
        return .open(self)
      }
    case .input, .confirm:
      return .open(self)
    }
  }
}
