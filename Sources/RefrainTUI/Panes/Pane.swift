import RefrainCore

/// A pane of the full-screen player: it draws a model into its area of the grid, and handles
/// a command by changing itself and saying what the shell must do.
///
/// Rendering writes nothing but the grid and the layout; handling never touches the library,
/// the catalog or the player. The list panes (Home, Search, Library, Queue) are one
/// ``ListPane`` each over their own ``ListSource``; the Player, Lyrics and Room panes are
/// their own types.
protocol Pane {
  /// What the pane is drawn from: a value the shell builds from the session each frame.
  associatedtype Model
  /// Draws the pane into `rect`, recording click targets in `layout`.
  func render(_ model: Model, into grid: inout ScreenGrid, in rect: Rect, layout: inout FrameLayout)
  /// Handles a command; `page` is the visible height, for page moves.
  mutating func handle(_ command: Command, model: Model, page: Int) -> PaneResult
}

extension Pane {
  /// A pane that only shows takes no commands: they go on to the shell.
  mutating func handle(_ command: Command, model: Model, page: Int) -> PaneResult { .ignored }
}

/// What a pane did with a command; the shell carries out whatever goes beyond the pane.
///
/// Panes decide and the shell acts: a pane never touches the library, the catalog or the
/// player, so its handler is a function of its own state and the command.
enum PaneResult {
  /// The pane took the command and changed itself.
  case handled
  /// Not this pane's command: the shell tries the next handler.
  case ignored
  /// The pane (the lyrics view) closes.
  case close
  /// The pane took the command; the status line says `text`.
  case status(String, error: Bool = false)
  /// The session carries the command out (a seek to a lyric line).
  case session(Command)
  /// The pane closes once the session carried the command out (leaving tap-to-sync).
  case closeAfter(Command)
  /// An overlay opens above the panes (a question, a line of input).
  case overlay(Overlay)
  /// Work for the shell: opening a row, adding, saving, editing a playlist or the queue.
  case effect(ListEffect)
}

/// Work a list pane asks the shell for: anything that reads or writes the catalog, the
/// library or the queue.
enum ListEffect {
  /// Enter on a row: play, open a detail view, run a recent search.
  case activate(ListRow.Action)
  /// "Play all" of the open list.
  case playAll([CatalogTrack])
  /// Adds the selection to the queue.
  case enqueue(SelectionTracks)
  /// Adds the selection to a playlist, through the picker.
  case pickPlaylist(SelectionTracks)
  /// Saves an album or a track to the library.
  case save(CatalogItem)
  /// Removes the queue entry at an index.
  case removeFromQueue(Int)
  /// Moves a queue entry.
  case moveInQueue(from: Int, to: Int)
  /// Removes an entry from a library playlist.
  case removeFromPlaylist(PlaylistEntry, playlistID: Int64)
  /// Moves an entry of a library playlist to another position.
  case moveInPlaylist(PlaylistEntry, playlistID: Int64, to: Int)
  /// Renames a library playlist.
  case renamePlaylist(Int64, to: String)
  /// Edits a playlist on the catalog's own server (a Subsonic server).
  case editServerPlaylist(Command.PlaylistEdit)
}

/// Where the last frame put what a click or a page key needs: the tabs, the list rows and
/// the lyric lines on screen, and the height of the content area.
///
/// A pane's render fills in its part; the shell keeps the frame it last drew, so a click
/// always means what the user saw under the pointer.
struct FrameLayout {
  /// Each tab's columns on the top row.
  var tabs: [(columns: Range<Int>, pane: Command.Pane)] = []
  /// The visible list rows: the screen area, and the cursor as drawn (kept on a selectable
  /// row and inside the area).
  var list: (area: Rect, cursor: ListCursor)?
  /// The lyric line on each screen row of the lyrics view.
  var lyricLines: [Int: Int] = [:]
  /// The playlist picker's cursor as drawn (scrolled to keep the selection visible).
  var picker: ListCursor?
  /// The rows between the tab bar and the now-playing line.
  var contentHeight = 20
  /// The cover the Player pane would show: the shell loads it when it is not the one
  /// loaded or loading.
  var cover: CoverSlot.Request?
  /// The cover an album's detail view would show in its header.
  var albumCover: CoverSlot.Request?
}

/// One drawn screen: the cells, and the layout the shell keeps for clicks and page keys.
public struct Frame {
  /// What the terminal shows.
  public var grid: ScreenGrid
  var layout: FrameLayout
}
