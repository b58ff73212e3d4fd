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

    /// What a status line says once the edit is done: `playlist deleted`.
    public var doneMessage: String {
      switch self {
      case .list, .show: return "ok"
      case .create(let name): return "created \(name)"
      case .rename(_, let name): return "renamed to \(name)"
      case .delete: return "playlist deleted"
      case .add: return "added to the playlist"
      case .remove: return "removed from the playlist"
      case .move: return "playlist reordered"
      }
    }

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

  /// A change to Refrain's own library that a front end picked on screen (tracks of a row, a
  /// playlist entry): it has no text form. Typed edits are ``PlaylistEdit``s.
  public enum LibraryEdit: Sendable, Hashable {
    /// Appends tracks to one of Refrain's playlists, named for the status line.
    case addTracks([CatalogTrack], playlist: Int64, name: String)
    /// Makes a playlist holding `tracks` (none for an empty one).
    case create(name: String, tracks: [CatalogTrack])
    /// Removes one entry of a playlist (the entry's own ID, so the same song twice is told
    /// apart), named for the status line.
    case removeEntry(Int64, playlist: Int64, title: String)
    /// Moves a playlist's entry from one index (from 0) to another.
    case moveEntry(playlist: Int64, from: Int, to: Int)
    /// Renames a playlist.
    case rename(Int64, to: String)
    /// Deletes a playlist.
    case delete(Int64)
    /// Saves an album, or likes a track (unlikes a liked one); on a catalog whose server keeps
    /// stars (Subsonic), stars or unstars it there.
    case save(CatalogItem)
    /// Appends tracks to one of the catalog server's playlists, or to a new one there. The
    /// answer comes once the server has answered.
    case addToServerPlaylist([CatalogTrack], ServerPlaylistTarget)
  }

  /// Which of the catalog server's playlists tracks go to.
  public enum ServerPlaylistTarget: Sendable, Hashable {
    /// An existing playlist, by the server's ID, named for the status line.
    case existing(id: String, name: String)
    /// A new playlist with this name.
    case new(name: String)
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
  /// Turns shuffle on or off (`shuffle on|off`).
  case setShuffle(Bool)
  /// Sets the repeat mode (`repeat off|all|one`).
  case setRepeat(RepeatMode)
  // Lyrics
  case lyrics
  /// A step of tap-to-sync (`lyrics sync start|here|stamp|undo|save|cancel`).
  case lyricsSync(SyncStep)
  /// Publishes the current track's timed lyrics to LRCLIB, after asking.
  case publishLyrics
  /// Publishes them without asking: what a front end sends once the user said yes
  /// (`lyrics publish now`).
  case publishLyricsNow
  /// Moves a stamped line of tap-to-sync by milliseconds (`lyrics sync nudge LINE ±MS`; `[`
  /// and `]` in the sync view). Lines count from 0.
  case syncNudge(line: Int, ms: Int)
  /// Plays from 1 s before a stamped line, to check it (`lyrics sync check LINE`).
  case syncCheck(line: Int)
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
  /// Adds a file or URL to the end of the queue and plays it at once (`play PATH|URL`, MPRIS
  /// `OpenUri`); in a room, the room plays it for everyone.
  case playItem(String)
  case queueClear
  /// Lists the queue every front end shows (`queue`): one JSON array from `refrain ctl`.
  case queueList
  /// Removes the queue's entry at a position, from 1 (`queue remove N`); in a room, for
  /// everyone.
  case queueRemove(Int)
  /// Moves the queue's entry at one position to another, from 1 (`queue move N M`); in a
  /// room, for everyone.
  case queueMove(from: Int, to: Int)
  /// Plays the queue's entry at a position, from 1 (`queue play N`); in a room, for everyone.
  case queuePlay(Int)
  /// Replaces the queue with tracks a front end picked (Enter on a row, a station, a
  /// restored session) and plays from one of them. It has no text form: a row's tracks are
  /// not typed.
  case playTracks(TrackList)
  /// Replaces the queue with catalog tracks a front end picked (Enter on a search result, an
  /// album's `Play all`), their stream URLs resolved first; answered once they were. No text
  /// form.
  case playCatalog(CatalogList)
  /// Adds catalog tracks a front end picked to the end of the queue (`a` on a row), keeping
  /// their catalog identity for likes and playlists; no text form.
  case enqueue([CatalogTrack])
  case playlist(PlaylistEdit)
  /// A change to Refrain's own library picked on screen; no text form.
  case library(LibraryEdit)
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
    /// Enters the room at this URL from a running player, with the token the player was
    /// started with (`--token`, `REFRAIN_ROOM_TOKEN`): a token is never typed into a command.
    case join(url: String)
  }

  /// Playable tracks to play and where to start.
  public typealias TrackList = Picked<Track>
  /// Catalog tracks to play and where to start.
  public typealias CatalogList = Picked<CatalogTrack>

  /// Tracks a front end picked to play, and where to start.
  public struct Picked<Item: Sendable & Hashable>: Sendable, Hashable {
    /// The tracks, in order.
    public var tracks: [Item]
    /// The index of the one to play first.
    public var start: Int
    /// Seconds into that track.
    public var position: Double
    /// Whether to stay paused there (a restored session) rather than play.
    public var paused: Bool

    /// Creates a list.
    public init(_ tracks: [Item], start: Int = 0, position: Double = 0, paused: Bool = false) {
      self.tracks = tracks
      self.start = start
      self.position = position
      self.paused = paused
    }
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
    case .setShuffle(let on): return "shuffle \(on ? "on" : "off")"
    case .setRepeat(let mode): return "repeat \(mode.rawValue)"
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
    case .playItem(let item): return "play \(item)"
    case .queueClear: return "queue clear"
    case .queueList: return "queue"
    case .queueRemove(let position): return "queue remove \(position)"
    case .queueMove(let from, let to): return "queue move \(from) \(to)"
    case .queuePlay(let position): return "queue play \(position)"
    case .playTracks(let list):
      return
        "play \(list.tracks.count) track\(list.tracks.count == 1 ? "" : "s") from \(list.start + 1)"
    case .playCatalog(let list):
      return "play \(list.tracks.count) catalog track\(list.tracks.count == 1 ? "" : "s")"
        + " from \(list.start + 1)"
    case .enqueue(let tracks): return "enqueue \(tracks.count) track\(tracks.count == 1 ? "" : "s")"
    case .playlist(let edit): return "playlist \(Self.describe(edit))"
    case .library(let edit): return "library \(Self.describe(edit))"
    case .status: return "status"
    case .importLibrary: return "import"
    case .translations: return "translations"
    case .findInLyrics(let text?): return "find \(text)"
    case .findInLyrics(nil): return "find"
    case .publishLyrics: return "lyrics publish"
    case .publishLyricsNow: return "lyrics publish now"
    case .syncNudge(let line, let ms): return "lyrics sync nudge \(line) \(ms < 0 ? "" : "+")\(ms)"
    case .syncCheck(let line): return "lyrics sync check \(line)"
    case .lyricsSync(let step): return "lyrics sync \(step.rawValue)"
    case .romanize: return "romanize"
    case .chat(let text): return "chat \(text)"
    case .room(.leave): return "room leave"
    case .room(.play(let entry)): return "room play \(entry)"
    case .room(.join(let url)): return "room join \(url)"
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

  private static func describe(_ edit: LibraryEdit) -> String {
    switch edit {
    case .addTracks(let tracks, let id, _): return "add \(id) (\(tracks.count) tracks)"
    case .create(let name, let tracks): return "create \(name) (\(tracks.count) tracks)"
    case .removeEntry(let entry, let id, _): return "remove \(id) entry \(entry)"
    case .moveEntry(let id, let from, let to): return "move \(id) \(from + 1) \(to + 1)"
    case .rename(let id, let name): return "rename \(id) \(name)"
    case .delete(let id): return "delete \(id)"
    case .save(let item): return "save \(item.title)"
    case .addToServerPlaylist(let tracks, .existing(let id, _)):
      return "add to server playlist \(id) (\(tracks.count) tracks)"
    case .addToServerPlaylist(let tracks, .new(let name)):
      return "add to new server playlist \(name) (\(tracks.count) tracks)"
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
