/// Everything a user can ask Refrain to do, from a key, the `:` prompt or `refrain ctl`.
///
/// Each command prints itself in the form ``CommandParser`` reads back, so key-binding
/// config, the prompt and the control socket share one grammar.
public enum Command: Sendable, Hashable, CustomStringConvertible {
  /// A seek target.
  public enum Seek: Sendable, Hashable {
    /// Seconds from the audible position (negative goes back).
    case relative(Double)
    /// Seconds from the start of the track.
    case absolute(Double)
  }

  /// A volume change.
  public enum Volume: Sendable, Hashable {
    /// Percentage points up or down.
    case relative(Int)
    /// An absolute percentage.
    case absolute(Int)
  }

  /// A cursor movement in a list.
  public enum Move: String, Sendable, Hashable, CaseIterable {
    case up, down, pageUp = "pageup", pageDown = "pagedown", top, bottom, left, right
  }

  /// A change to a saved playlist, named by its ID (`playlist list` shows the IDs).
  ///
  /// Positions count from 1, as `playlist show` lists them. An ID is text: Refrain's own
  /// playlists are numbered, a Subsonic server's are its own strings (UUIDs, numbers).
  public enum PlaylistEdit: Sendable, Hashable {
    /// Lists every playlist: ID, name, track count.
    case list
    /// Lists one playlist's tracks.
    case show(String)
    /// Makes an empty playlist with this name.
    case create(String)
    /// Renames a playlist.
    case rename(String, String)
    /// Deletes a playlist.
    case delete(String)
    /// Appends a file, a URL, or `current` (the track playing now).
    case add(String, String)
    /// Removes the track at a position.
    case remove(String, Int)
    /// Moves the track at one position to another.
    case move(String, from: Int, to: Int)

    /// The playlist the edit names; `nil` for `list` and `create`.
    public var playlistID: String? {
      switch self {
      case .list, .create: return nil
      case .show(let id), .rename(let id, _), .delete(let id), .add(let id, _),
        .remove(let id, _), .move(let id, _, _):
        return id
      }
    }
  }

  /// A top-level pane.
  ///
  /// Its key, tab label and help come from ``tab``: one table for the tab bar, the key map
  /// and `Tab`'s cycle, so a new pane is its own type plus one row here.
  public enum Pane: String, Sendable, Hashable, CaseIterable {
    case home, search, library, player, queue, room

    /// A pane's row in the tab table.
    public struct Tab: Sendable, Hashable {
      /// The key that shows it.
      public var key: String
      /// The tab bar's label.
      public var title: String
      /// What the help overlay says of the key.
      public var help: String
      /// Whether the pane exists only in a listening room.
      public var onlyInRoom: Bool
    }

    /// The tab table's row of this pane.
    public var tab: Tab {
      switch self {
      case .home: return Tab(key: "1", title: "Home", help: "Home pane", onlyInRoom: false)
      case .search: return Tab(key: "2", title: "Search", help: "Search pane", onlyInRoom: false)
      case .library:
        return Tab(key: "3", title: "Library", help: "Library pane", onlyInRoom: false)
      case .player: return Tab(key: "4", title: "Player", help: "Player pane", onlyInRoom: false)
      case .queue: return Tab(key: "5", title: "Queue", help: "Queue view", onlyInRoom: false)
      case .room:
        return Tab(
          key: "6", title: "Room", help: "Room view (in a listening room)", onlyInRoom: true)
      }
    }

    /// The panes shown as tabs: every one, the room's only in a room.
    public static func tabs(inRoom: Bool) -> [Pane] {
      allCases.filter { inRoom || !$0.tab.onlyInRoom }
    }
  }

  // Playback
  case togglePlay
  case play
  case pause
  case stop
  case next
  case previous
  case seek(Seek)
  case volume(Volume)
  case shuffle
  case `repeat`
  // Lyrics
  case lyrics
  /// A step of tap-to-sync (`lyrics sync start|here|stamp|undo|save|cancel`).
  case lyricsSync(SyncStep)
  /// Publishes the current track's timed lyrics to LRCLIB, after asking.
  case publishLyrics
  /// Finds a phrase in the lyrics view and moves to its line; `nil` asks for the phrase.
  case findInLyrics(String?)
  /// Shows or hides translation lines (lines sharing an original's time).
  case translations
  /// Shows or hides the romanization of Korean and Japanese lines.
  case romanize
  case seekMode
  case follow
  case nudge(Int)
  case lyricLine(Int)
  // Navigation
  case show(Pane)
  case nextPane
  case move(Move)
  case open
  case back
  case quit
  case search(String?)
  case help
  case prompt
  // Library and queue
  case add
  case addToPlaylist
  case save
  case newPlaylist(String?)
  case rename(String?)
  case delete
  case remove
  case moveItemUp
  case moveItemDown
  case playAll
  case queueAdd(String)
  case queueClear
  case playlist(PlaylistEdit)
  case status
  /// Imports the user's library from another service (`refrain spotify import`).
  case importLibrary
  // Listening rooms
  case chat(String)
  /// A listening room's own step (`room leave`, `room play N`, `queue remove N`).
  case room(RoomStep)

  /// What only a listening room does.
  public enum RoomStep: Sendable, Hashable {
    /// Leaves the room; what it was playing stops, and the player is the member's own again.
    case leave
    /// Plays the room's queue entry with this number, for everyone.
    case play(entry: Int)
    /// Removes the room's queue entry with this number.
    case remove(entry: Int)
  }

  /// The steps of tap-to-sync.
  public enum SyncStep: String, Sendable, Hashable, CaseIterable {
    /// Starts timing the lyrics from the beginning of the track.
    case start
    /// Starts timing from where playback is.
    case here
    /// Starts timing word by word (enhanced LRC) from the beginning of the track.
    case words
    /// Stamps the next line at the audible position.
    case stamp
    /// Removes the last stamp and plays from 3 s before it.
    case undo
    /// Writes the stamped lines as the track's synced lyrics.
    case save
    /// Leaves without saving.
    case cancel
  }

  public var description: String {
    switch self {
    case .togglePlay: return "toggle"
    case .play: return "play"
    case .pause: return "pause"
    case .stop: return "stop"
    case .next: return "next"
    case .previous: return "prev"
    case .seek(.relative(let seconds)): return "seek \(Self.signed(seconds))"
    case .seek(.absolute(let seconds)): return "seek \(Self.number(seconds))"
    case .volume(.relative(let delta)): return "volume \(delta < 0 ? "" : "+")\(delta)"
    case .volume(.absolute(let percent)): return "volume \(percent)"
    case .shuffle: return "shuffle"
    case .repeat: return "repeat"
    case .lyrics: return "lyrics"
    case .seekMode: return "seekmode"
    case .follow: return "follow"
    case .nudge(let ms): return "nudge \(ms < 0 ? "" : "+")\(ms)"
    case .lyricLine(let index): return "lyrics line \(index)"
    case .show(let pane): return "show \(pane.rawValue)"
    case .nextPane: return "tab"
    case .move(let move): return move.rawValue
    case .open: return "open"
    case .back: return "back"
    case .quit: return "quit"
    case .search(nil): return "search"
    case .search(let query?): return "search \(query)"
    case .help: return "help"
    case .prompt: return "prompt"
    case .add: return "add"
    case .addToPlaylist: return "addto"
    case .save: return "save"
    case .newPlaylist(nil): return "new"
    case .newPlaylist(let name?): return "new \(name)"
    case .rename(nil): return "rename"
    case .rename(let name?): return "rename \(name)"
    case .delete: return "delete"
    case .remove: return "remove"
    case .moveItemUp: return "moveup"
    case .moveItemDown: return "movedown"
    case .playAll: return "playall"
    case .queueAdd(let item): return "queue add \(item)"
    case .queueClear: return "queue clear"
    case .playlist(let edit): return "playlist \(Self.describe(edit))"
    case .status: return "status"
    case .importLibrary: return "import"
    case .translations: return "translations"
    case .findInLyrics(let text?): return "find \(text)"
    case .findInLyrics(nil): return "find"
    case .publishLyrics: return "lyrics publish"
    case .lyricsSync(let step): return "lyrics sync \(step.rawValue)"
    case .romanize: return "romanize"
    case .chat(let text): return "chat \(text)"
    case .room(.leave): return "room leave"
    case .room(.play(let entry)): return "room play \(entry)"
    case .room(.remove(let entry)): return "queue remove \(entry)"
    }
  }

  private static func describe(_ edit: PlaylistEdit) -> String {
    switch edit {
    case .list: return "list"
    case .show(let id): return "show \(id)"
    case .create(let name): return "create \(name)"
    case .rename(let id, let name): return "rename \(id) \(name)"
    case .delete(let id): return "delete \(id)"
    case .add(let id, let item): return "add \(id) \(item)"
    case .remove(let id, let position): return "remove \(id) \(position)"
    case .move(let id, let from, let to): return "move \(id) \(from) \(to)"
    }
  }

  private static func signed(_ seconds: Double) -> String {
    let text = Self.number(abs(seconds))
    return seconds < 0 ? "-\(text)" : "+\(text)"
  }

  private static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}
