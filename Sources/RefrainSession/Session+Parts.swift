import Foundation
import RefrainCore

/// The public API front ends use, each forwarded to the part that owns it: see the part's
/// method of the same name for what it does.
extension Session {
  /// The listening room the session is in, or `nil`: while it is set, the room decides what
  /// plays (see ``play(_:startAt:position:paused:)``).
  public internal(set) var room: (any RoomChannel)? {
    get { roomPart.channel }
    set { roomPart.channel = newValue }
  }
  /// Reads what the room's link wrote and returns the news for the front end to show.
  public func readRoom() -> [RoomFollower.Update] { roomPart.readRoom() }
  /// Compares what is heard with the room when a check is due; the news, if any.
  public func checkRoom() -> [RoomFollower.Update] { roomPart.checkRoom() }

  /// What the lyrics pane says instead of lyrics ("looking for lyrics…", "no lyrics: …").
  public var lyricsNotice: String? { lyricsPart.notice }
  /// Tap-to-sync in progress, if any (`lyrics sync start`).
  public var sync: LyricsSync? { lyricsPart.sync }
  /// Saves the stamped lines as the track's synced lyrics; `then` gets the path or why not.
  func saveSync(then: @escaping (Result<String, SyncSaveFailure>) -> Void) {
    lyricsPart.saveSync(then: then)
  }

  /// The user's library, called off the loop's thread in order; `nil` when it could not open.
  var libraryCalls: LibraryCalls? { libraryPart.calls }
  /// Whether the user's library opened (edits of Refrain's own playlists need it).
  public var libraryAvailable: Bool { libraryPart.calls != nil }
  /// Library calls asked for whose results have not been applied yet.
  public var libraryCallsPending: Int { libraryPart.calls?.pending ?? 0 }
  /// Returns once every library call asked for before has finished: for quitting, after the
  /// last save was asked for.
  public func waitForLibrary() { libraryPart.calls?.waitForAll() }
  /// Whether the catalog keeps playlists of its own (a Subsonic server).
  public var catalogKeepsPlaylists: Bool { libraryPart.catalogKeepsPlaylists }
  /// The catalog track behind a queued track, or one made from what the track itself says.
  public func catalogTrack(for track: Track) -> CatalogTrack {
    libraryPart.catalogTrack(for: track)
  }
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
  /// What publishing the current track's lyrics would send, as a question to ask before
  /// sending ``Command/publishLyricsNow``; `nil` (with a notice saying why) when it cannot.
  public func publishQuestion() -> String? {
    browsingPart.publishQuestion(with: lyricsPublisher)?.0
  }
}
