import RefrainCore

/// What the status line says about a key that did nothing where it was pressed.
extension Command {
  /// What the status line says when no pane took a list or lyrics command; `nil` for silence.
  ///
  /// These reach the shell on the Player pane, or away from what they work on; `listOpen`
  /// says a detail view is open on the focused pane.
  func hintWhenNoPaneTakesIt(listOpen: Bool) -> String? {
    switch self {
    case .seekMode: return "seek mode is for the lyrics view: open it with l"
    case .findInLyrics: return "finding a line is for the lyrics view: open it with l, then /"
    case .follow: return "following is for the lyrics view: open it with l"
    case .move: return nil  // nothing to move through here: silence, like an empty list
    case .open: return "nothing here to open"
    case .add, .addToPlaylist: return "nothing here to add: select a track or a list"
    case .save: return "nothing here to save: select an album or a track"
    case .rename: return "rename works on a playlist in Library"
    case .delete: return "delete works on a playlist in Library"
    case .remove: return "remove works on an entry of a playlist or the queue"
    case .moveItemUp, .moveItemDown: return "moving works on an entry of a playlist or the queue"
    case .playAll:
      return listOpen
        ? "this list has no tracks to play" : "play all works in an open album, artist or playlist"
    default: return nil
    }
  }
}
