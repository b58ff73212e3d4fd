import Foundation

/// The user's library as the full-screen player uses it: playlists, liked tracks, saved
/// albums, recent searches, play history and the saved session.
///
/// `LibraryStore` (SQLite) implements it. Any call may wait for the disk or for another
/// process's write lock, so the full-screen player makes them only from background tasks,
/// one after another, never from the thread that draws the screen. A method that changes
/// data returns only after the change is stored.
public protocol LibraryStorage: Sendable {
  // MARK: Playlists

  /// Every playlist, by name.
  func playlists() throws -> [LibraryPlaylist]
  /// One playlist; throws when it does not exist.
  func playlist(_ id: Int64) throws -> LibraryPlaylist
  /// A playlist's entries in order, from `offset`, at most `limit` of them (all when `nil`).
  func entries(inPlaylist id: Int64, offset: Int, limit: Int?) throws -> [PlaylistEntry]
  /// Makes an empty playlist named `name` (trimmed; throws when blank).
  func createPlaylist(named name: String) throws -> LibraryPlaylist
  /// Gives a playlist a new name.
  func renamePlaylist(_ id: Int64, to name: String) throws
  /// Deletes a playlist and its entries.
  func deletePlaylist(_ id: Int64) throws
  /// Adds tracks to a playlist at `position` (at the end when `nil`); returns the new
  /// entries' IDs.
  @discardableResult
  func addTracks(_ tracks: [CatalogTrack], toPlaylist id: Int64, at position: Int?) throws
    -> [Int64]
  /// Removes entries (by entry ID) from a playlist; IDs not in it are ignored.
  func removeEntries(_ entryIDs: [Int64], fromPlaylist id: Int64) throws
  /// Moves the entry at position `from` to position `to`; the entries between shift by one.
  func moveEntry(inPlaylist id: Int64, from: Int, to: Int) throws

  // MARK: Liked tracks and saved albums

  /// Likes a track (liking it again moves it to the top).
  func likeTrack(_ track: CatalogTrack) throws
  /// Unlikes a track.
  func unlikeTrack(provider: String, id: String) throws
  /// Whether a track is liked.
  func isTrackLiked(provider: String, id: String) throws -> Bool
  /// The liked tracks, most recently liked first.
  func likedTracks() throws -> [CatalogTrack]
  /// Saves an album (saving it again moves it to the top).
  func saveAlbum(_ album: AlbumSummary) throws
  /// The saved albums, most recently saved first.
  func savedAlbums() throws -> [AlbumSummary]

  // MARK: Recent searches and history

  /// Remembers a search, most recent first; blank queries are ignored.
  func addRecentSearch(_ query: String) throws
  /// The recent searches, most recent first.
  func recentSearches() throws -> [String]
  /// Records that a track played (at `date`, for `secondsPlayed` when known).
  func recordPlay(_ track: CatalogTrack, at date: Date, secondsPlayed: Double?) throws
  /// The most recent plays, newest first, at most `limit`.
  func playHistory(limit: Int) throws -> [PlayRecord]

  // MARK: The saved session

  /// Saves the session, replacing the previous one.
  func saveSession(_ session: SavedSession) throws
  /// The saved session, or `nil` when there is none.
  func lastSession() throws -> SavedSession?

  // MARK: Radio

  /// The user's radio stations, by name.
  func stations() throws -> [RadioStation]
}

extension LibraryStorage {
  /// No stations: a storage that keeps none.
  public func stations() throws -> [RadioStation] { [] }
}
