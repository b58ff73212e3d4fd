import Foundation
import RefrainCore

/// The public API front ends use, each forwarded to the part that owns it: see the part's
/// method of the same name for what it does.
extension Session {
  /// The listening room the session is in, or `nil`: while it is set, the room decides what
  /// plays (see ``play(_:startAt:position:paused:)``).
  public var room: (any RoomChannel)? {
    get { roomPart.channel }
    set { roomPart.channel = newValue }
  }
  /// Reads what the room's link wrote and returns the news for the front end to show.
  public func readRoom() -> [RoomFollower.Update] { roomPart.readRoom() }
  /// Compares what is heard with the room when a check is due; the news, if any.
  public func checkRoom() -> [RoomFollower.Update] { roomPart.checkRoom() }

  /// Plays `tracks` from `index`: alone, as a queue; in a room, the room decides.
  public func play(
    _ tracks: [Track], startAt index: Int, position: Double = 0, paused: Bool = false
  ) -> Outcome {
    queueCommands.play(tracks, startAt: index, position: position, paused: paused)
  }
  /// Plays catalog `tracks` from `index`, their stream URLs resolved in the background first.
  public func play(
    _ tracks: [CatalogTrack], startAt index: Int, position: Double = 0, paused: Bool = false,
    then: @escaping (Outcome, _ skipped: [String]) -> Void
  ) {
    queueCommands.play(tracks, startAt: index, position: position, paused: paused, then: then)
  }
  /// Adds a file or URL to the queue, described by its tags; `then` gets what came of it.
  @discardableResult
  public func add(
    _ item: String, playing: Bool, then: @escaping (Outcome) -> Void = { _ in }
  ) -> Outcome { queueCommands.add(item, playing: playing, then: then) }

  /// What the lyrics pane says instead of lyrics ("looking for lyrics…", "no lyrics: …").
  public var lyricsNotice: String? { lyricsPart.notice }
  /// Tap-to-sync in progress, if any (`lyrics sync start`).
  public var sync: LyricsSync? { lyricsPart.sync }
  /// Moves a stamped line by `deltaMs` (`[`/`]` in sync mode); the new time, or why not.
  public func nudgeSync(line: Int, by deltaMs: Int) -> Outcome {
    lyricsPart.nudgeSync(line: line, by: deltaMs)
  }
  /// Plays from 1 s before a stamped line, to check it.
  public func checkSync(line: Int) -> Outcome { lyricsPart.checkSync(line: line) }
  /// Saves the stamped lines as the track's synced lyrics; `then` gets the path or why not.
  public func saveSync(then: @escaping (Result<String, SyncSaveFailure>) -> Void) {
    lyricsPart.saveSync(then: then)
  }

  /// The user's library, called off the loop's thread in order; `nil` when it could not open.
  public var libraryCalls: LibraryCalls? { libraryPart.calls }
  /// Whether the catalog keeps playlists of its own (a Subsonic server).
  public var catalogKeepsPlaylists: Bool { libraryPart.catalogKeepsPlaylists }
  /// The catalog track behind a queued track, or one made from what the track itself says.
  public func catalogTrack(for track: Track) -> CatalogTrack {
    libraryPart.catalogTrack(for: track)
  }
  /// Keeps the catalog identity of `tracks` queued from a catalog.
  public func remember(_ tracks: [CatalogTrack]) { libraryPart.remember(tracks) }
  /// Applies a playlist edit in the background; `then` gets `ok` or one line of JSON.
  public func perform(_ edit: Command.PlaylistEdit, then: @escaping (Answer) -> Void) {
    libraryPart.perform(edit, then: then)
  }
  /// Adds `tracks` to one of the catalog server's playlists, or to a new one.
  public func addTracks(
    _ tracks: [CatalogTrack], toServerPlaylist target: ServerPlaylistTarget,
    then: @escaping (Answer) -> Void
  ) { libraryPart.addTracks(tracks, toServerPlaylist: target, then: then) }
  /// Saves an album, or likes a track (unlikes a liked one), or stars it on its server.
  public func save(_ item: CatalogItem) -> Outcome { libraryPart.save(item) }
  /// Saves the queue, position, volume, modes and `openPane` in the background.
  public func saveSession(openPane: String) { libraryPart.saveSession(openPane: openPane) }
  /// Reads the last session in the background and restores it, paused where it was left.
  public func restoreSession(then: @escaping (SavedSession) -> Void) {
    libraryPart.restoreSession(then: then)
  }

  /// What front ends browse: Home, the last search, the library's lists.
  public var browsing: Browsing { browsingPart.state }
  /// Loads ``catalog``'s Home sections.
  public func loadHome() { browsingPart.loadHome() }
  /// Searches ``catalog`` for every kind at once.
  public func search(_ query: String) { browsingPart.search(query) }
  /// Loads a detail from ``catalog`` and hands it to `then`.
  public func loadDetail(
    _ title: String, _ load: @escaping CatalogDetail.Load,
    then: @escaping (CatalogDetail) -> Void
  ) { browsingPart.loadDetail(title, load, then: then) }
  /// Reads a detail from the library and hands it to `then`.
  public func readDetail(
    _ title: String, _ read: @escaping @Sendable (any LibraryStorage) throws -> CatalogDetail,
    then: @escaping (CatalogDetail) -> Void
  ) { browsingPart.readDetail(title, read, then: then) }
  /// Fetches the tracks of an album, artist, playlist or genre, then runs `then` with them.
  public func loadTracks(of item: CatalogItem, then: @escaping ([CatalogTrack]) -> Void) {
    browsingPart.loadTracks(of: item, then: then)
  }
  /// Reads tracks from the library, then runs `then` with them.
  public func readTracks(
    _ read: @escaping LibraryTracksRead, then: @escaping ([CatalogTrack]) -> Void
  ) { browsingPart.readTracks(read, then: then) }
  /// Re-reads the library's lists, and the entries of the playlists in `open`.
  public func refreshLibrary(
    open: Set<Int64> = [], then: @escaping ([Int64: LibraryPlaylistRead]) -> Void = { _ in }
  ) { browsingPart.refreshLibrary(open: open, then: then) }
  /// Has the catalog's server's playlists and stars read again.
  public func refreshServerLists() { browsingPart.refreshServerLists() }
  /// Imports the user's library with `libraryImport` unless an import is running.
  public func importLibrary(with libraryImport: LibraryImport?) {
    browsingPart.importLibrary(with: libraryImport)
  }
  /// What publishing the current track's lyrics would send, as a question to ask first.
  public func publishQuestion(with publisher: LyricsPublishing?) -> (String, Track)? {
    browsingPart.publishQuestion(with: publisher)
  }
  /// Publishes `track`'s timed lyrics in the background, unless a publish is running.
  public func publishLyrics(of track: Track, with publisher: LyricsPublishing?) {
    browsingPart.publishLyrics(of: track, with: publisher)
  }
}
