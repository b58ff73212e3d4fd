import Foundation
import RefrainCore

/// The full-screen player's view of the library: each call is one transaction that has
/// committed when it returns. The playlist calls are ``PlaylistStore``'s, the stations
/// ``RadioStations``'.
extension LibraryStore: LibraryStorage {
  public func playlists() throws -> [LibraryPlaylist] { try playlistStore.playlists() }

  public func playlist(_ id: Int64) throws -> LibraryPlaylist {
    try playlistStore.playlist(id)
  }

  public func entries(inPlaylist id: Int64, offset: Int = 0, limit: Int? = nil) throws
    -> [PlaylistEntry]
  {
    try playlistStore.entries(inPlaylist: id, offset: offset, limit: limit)
  }

  public func createPlaylist(named name: String) throws -> LibraryPlaylist {
    try playlistStore.createPlaylist(named: name)
  }

  public func renamePlaylist(_ id: Int64, to name: String) throws {
    try playlistStore.renamePlaylist(id, to: name)
  }

  public func deletePlaylist(_ id: Int64) throws { try playlistStore.deletePlaylist(id) }

  @discardableResult
  public func addTracks(_ tracks: [CatalogTrack], toPlaylist id: Int64, at position: Int? = nil)
    throws -> [Int64]
  {
    try playlistStore.addTracks(tracks, toPlaylist: id, at: position)
  }

  public func removeEntries(_ entryIDs: [Int64], fromPlaylist id: Int64) throws {
    try playlistStore.removeEntries(entryIDs, fromPlaylist: id)
  }

  public func moveEntry(inPlaylist id: Int64, from: Int, to: Int) throws {
    try playlistStore.moveEntry(inPlaylist: id, from: from, to: to)
  }

  public func stations() throws -> [RadioStation] { try radio.stations() }
}

/// The session saves and reads per-track lyric offsets and queues listens through the
/// library: ``LyricsStore``'s and ``ScrobbleQueue``'s calls.
extension LibraryStore: LibraryPort {
  public func lyricOffset(for trackKey: String) throws -> Int {
    try lyrics.lyricOffset(for: trackKey)
  }

  @discardableResult
  public func setLyricOffset(_ offsetMs: Int, for trackKey: String) throws -> Int {
    try lyrics.setLyricOffset(offsetMs, for: trackKey)
  }

  @discardableResult
  public func enqueueListen(_ listen: Listen, services: [ScrobbleService]) throws -> Int {
    try scrobbleQueue.enqueueListen(listen, services: services)
  }
}
