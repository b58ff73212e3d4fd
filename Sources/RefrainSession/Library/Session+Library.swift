import Foundation
import RefrainCore

/// The user's library as the session keeps it: playlist edits by ID (`refrain ctl playlist
/// …` and the prompt), the catalog identity of what is queued, and the saved session.
extension Session {
  /// The catalog track behind a queued track, or one made from what the track itself says.
  public func catalogTrack(for track: Track) -> CatalogTrack {
    if let known = track.catalogID.flatMap({ catalogTracks[$0] }) { return known }
    return CatalogTrack(describing: track)
  }

  /// Keeps the catalog identity of `tracks` queued from a catalog, for the play history, a
  /// playlist add of `current` and the saved session.
  public func remember(_ tracks: [CatalogTrack]) {
    for track in tracks { catalogTracks[track.catalogID] = track }
  }

  /// Applies a playlist edit in the background, after every library call asked for before,
  /// then calls `then` on the session's thread with `ok`, or one line of JSON for `list`,
  /// `show` and `create`. An edit is answered once committed, so an `ok` a client received
  /// survives the process being killed right after.
  ///
  /// Under a catalog that keeps its own playlists (a Subsonic server) the edit goes there
  /// instead, and is answered once the server has answered.
  public func perform(_ edit: Command.PlaylistEdit, then: @escaping (Answer) -> Void) {
    if let server = catalog as? any CatalogPlaylists {
      return perform(edit, on: server, then: then)
    }
    guard let libraryCalls else {
      return then(.failure(CommandFailure("the library is not available")))
    }
    var number: Int64 = 0  // `list` and `create` name none
    if let text = edit.playlistID {
      guard let parsed = Int64(text), parsed > 0 else {
        return then(
          .failure(
            CommandFailure(
              "no playlist \(text): Refrain's playlists are numbered (`playlist list` shows them)"
            )))
      }
      number = parsed
    }
    let id = number
    let work: @Sendable (any LibraryStorage) throws -> String
    switch edit {
    case .list:
      work = { SessionJSON.line(try $0.playlists().map(PlaylistLine<Int64>.init)) }
    case .show:
      work = {
        SessionJSON.line(
          try $0.entries(inPlaylist: id, offset: 0, limit: nil).map {
            EntryLine(position: $0.position + 1, track: $0.track)
          })
      }
    case .create(let name):
      work = { SessionJSON.line(PlaylistLine<Int64>(try $0.createPlaylist(named: name))) }
    case .rename(_, let name):
      work = { library in
        try library.renamePlaylist(id, to: name)
        return "ok"
      }
    case .delete:
      work = { library in
        try library.deletePlaylist(id)
        return "ok"
      }
    case .add(_, let item):
      let add: @Sendable () throws -> CatalogTrack
      if item.lowercased() == "current" {
        guard let track = playingCatalogTrack() else {
          return then(.failure(CommandFailure("nothing is playing to add")))
        }
        add = { track }
      } else {
        // A file is checked and described by its tags in the background, as `queue add`'s.
        let file = Track(argument: Session.expandingHome(item))
        let describe = describe
        add = {
          if file.location.isFileURL, !FileManager.default.fileExists(atPath: file.location.path) {
            throw CommandFailure("no such file: \(file.location.path)")
          }
          return CatalogTrack(describing: describe?(file) ?? file)
        }
      }
      work = { library in
        try library.addTracks([try add()], toPlaylist: id, at: nil)
        return "ok"
      }
    case .remove(_, let position):
      work = { library in
        let entries = try library.entries(inPlaylist: id, offset: 0, limit: nil)
        guard entries.indices.contains(position - 1) else {
          throw CommandFailure(outside(position, count: entries.count))
        }
        try library.removeEntries([entries[position - 1].entryID], fromPlaylist: id)
        return "ok"
      }
    case .move(_, let from, let to):
      work = { library in
        let count = try library.playlist(id).trackCount
        // Positions parse as 1 or more, so only the upper bound needs checking.
        for position in [from, to] where position > count {
          throw CommandFailure(outside(position, count: count))
        }
        try library.moveEntry(inPlaylist: id, from: from - 1, to: to - 1)
        return "ok"
      }
    }
    let changes: Bool
    switch edit {
    case .list, .show: changes = false
    default: changes = true
    }
    libraryCalls.call(work) { [weak self] result in
      if changes { self?.notify(.libraryChanged) }
      then(result.mapError { $0 as? CommandFailure ?? CommandFailure("\($0)") })
    }
  }

  /// Applies an edit of Refrain's own library picked on screen, in the background: the
  /// answer says it was asked for; a notice says what was stored (or why not) once it is,
  /// and front ends read the library again.
  func apply(_ edit: Command.LibraryEdit) -> Outcome {
    guard let libraryCalls else { return .failed("the library is not available") }
    let message: String?
    let work: @Sendable (any LibraryStorage) throws -> Void
    switch edit {
    case .addTracks(let tracks, let id, let name):
      guard !tracks.isEmpty else { return .failed("nothing to add") }
      message = "added \(tracks.count) to \(name)"
      work = { try $0.addTracks(tracks, toPlaylist: id, at: nil) }
    case .create(let name, let tracks):
      let trimmed = name.trimmingCharacters(in: .whitespaces)
      guard !trimmed.isEmpty else { return .failed("a playlist needs a name") }
      message =
        "created \(trimmed)"
        + (tracks.isEmpty ? "" : " with \(tracks.count) track\(tracks.count == 1 ? "" : "s")")
      work = { library in
        let playlist = try library.createPlaylist(named: trimmed)
        if !tracks.isEmpty { try library.addTracks(tracks, toPlaylist: playlist.id, at: nil) }
      }
    case .removeEntry(let entry, let id, let title):
      message = "removed \(title)"
      work = { try $0.removeEntries([entry], fromPlaylist: id) }
    case .moveEntry(let id, let from, let to):
      message = nil
      work = { try $0.moveEntry(inPlaylist: id, from: from, to: to) }
    case .rename(let id, let name):
      guard !name.isEmpty else { return .failed("a playlist needs a name") }
      message = "renamed to \(name)"
      work = { try $0.renamePlaylist(id, to: name) }
    case .delete(let id):
      message = "playlist deleted"
      work = { try $0.deletePlaylist(id) }
    }
    libraryCalls.call(work) { [weak self] result in
      switch result {
      case .success: if let message { self?.notify(.notice(message, isError: false)) }
      case .failure(let error): self?.notify(.notice("\(error)", isError: true))
      }
      self?.notify(.libraryChanged)
    }
    return .done(message: nil)
  }

  /// The catalog track playing now, if any.
  private func playingCatalogTrack() -> CatalogTrack? {
    playback.queue.current.map(catalogTrack(for:))
  }

  /// Applies a playlist edit on the catalog's server in the background, then calls `then` on
  /// the session's thread once the server has answered: `ok`, or the same JSON lines as
  /// Refrain's own playlists (with the server's ids, which are text).
  private func perform(
    _ edit: Command.PlaylistEdit, on server: any CatalogPlaylists,
    then: @escaping (Answer) -> Void
  ) {
    let work: @Sendable () async throws -> String
    switch edit {
    case .list:
      work = { SessionJSON.line(try await server.playlists().map(PlaylistLine<String>.init)) }
    case .show(let id):
      work = {
        let tracks = try await server.playlistTracks(id: id).1
        return SessionJSON.line(
          tracks.enumerated().map { EntryLine(position: $0.offset + 1, track: $0.element) })
      }
    case .create(let name):
      work = {
        SessionJSON.line(
          PlaylistLine<String>(try await server.createPlaylist(named: name, with: [])))
      }
    case .rename(let id, let name):
      work = {
        try await server.renamePlaylist(id: id, to: name)
        return "ok"
      }
    case .delete(let id):
      work = {
        try await server.deletePlaylist(id: id)
        return "ok"
      }
    case .add(let id, let item):
      guard item.lowercased() == "current" else {
        return then(
          .failure(
            CommandFailure(
              "only the server's own tracks go in its playlists: play one and add current")))
      }
      guard let track = playingCatalogTrack() else {
        return then(.failure(CommandFailure("nothing is playing to add")))
      }
      work = {
        try await server.addTracks([track], toPlaylist: id)
        return "ok"
      }
    case .remove(let id, let position):
      work = {
        let count = try await server.playlistTracks(id: id).1.count
        guard position <= count else { throw CommandFailure(outside(position, count: count)) }
        try await server.removeTrack(at: position - 1, fromPlaylist: id)
        return "ok"
      }
    case .move(let id, let from, let to):
      work = {
        let count = try await server.playlistTracks(id: id).1.count
        for position in [from, to] where position > count {
          throw CommandFailure(outside(position, count: count))
        }
        try await server.moveTrack(inPlaylist: id, from: from - 1, to: to - 1)
        return "ok"
      }
    }
    background(work) { session, result in
      switch edit {
      case .list, .show: break
      default: session.notify(.libraryChanged)
      }
      then(result.mapError { $0 as? CommandFailure ?? CommandFailure("\($0)") })
    }
  }

  /// Whether the catalog keeps playlists of its own (a Subsonic server), which playlist
  /// commands then act on.
  public var catalogKeepsPlaylists: Bool { catalog is any CatalogPlaylists }

  /// Adds `tracks` to one of the server's playlists, or to a new one it makes first, in the
  /// background; `then` gets a line saying what the server now holds once it has answered,
  /// or why not.
  ///
  /// Only the server's own tracks go in its playlists: any other track is refused before the
  /// server is asked, so no playlist is made for it.
  public func addTracks(
    _ tracks: [CatalogTrack], toServerPlaylist target: ServerPlaylistTarget,
    then: @escaping (Answer) -> Void
  ) {
    guard let server = catalog as? any CatalogPlaylists else {
      return then(.failure(CommandFailure("this catalog keeps no playlists of its own")))
    }
    let count = tracks.count == 1 ? "1 track" : "\(tracks.count) tracks"
    background({ () async throws -> String in
      switch target {
      case .existing(let id, let name):
        try await server.addTracks(tracks, toPlaylist: id)
        return "added \(count) to \(name) on the server"
      case .new(let name):
        _ = try await server.createPlaylist(named: name, with: tracks)
        return "created \(name) on the server" + (tracks.isEmpty ? "" : " with \(count)")
      }
    }) { session, result in
      session.notify(.libraryChanged)
      then(result.mapError { CommandFailure("\($0)") })
    }
  }

  /// Saves an album, or likes a track (unlikes a liked one), in the background; a notice
  /// says what was stored, or why not.
  public func save(_ item: CatalogItem) -> Outcome {
    if let catalog, let starring = catalog as? any CatalogStarring,
      item.catalogProvider == catalog.name
    {
      return star(item, on: starring)
    }
    guard let libraryCalls else { return .failed("the library is not available") }
    let say: (LibraryCalls.Result<String>) -> Void = { [weak self] result in
      self?.notify(.libraryChanged)
      switch result {
      case .success(let text): self?.notify(.notice(text, isError: false))
      case .failure(let error): self?.notify(.notice("\(error)", isError: true))
      }
    }
    switch item {
    case .album(let album):
      libraryCalls.call(
        { library in
          try library.saveAlbum(album)
          return "saved \(album.title)"
        }, then: say)
    case .track(let track):
      libraryCalls.call(
        { library in
          if try library.isTrackLiked(provider: track.provider, id: track.id) {
            try library.unlikeTrack(provider: track.provider, id: track.id)
            return "unliked \(track.title)"
          }
          try library.likeTrack(track)
          return "liked \(track.title)"
        }, then: say)
    default:
      return .done(message: "only albums and tracks can be saved")
    }
    return .done(message: nil)
  }

  /// Stars `item` on its catalog's server, or unstars it when the server has it starred.
  ///
  /// The state is read first (some servers refuse to star twice); a notice says which, once
  /// the server has answered. A liked track in Refrain's library follows, so its mark shows.
  private func star(_ item: CatalogItem, on starring: any CatalogStarring) -> Outcome {
    guard item.kind == "track" || item.kind == "album" else {
      return .done(message: "only albums and tracks can be starred")
    }
    let inbox = inbox
    Task.detached(executorPreference: BackgroundExecutor.shared) {
      let result: Result<Bool, any Error>
      do {
        let starred = try await starring.isStarred(item)
        try await starring.setStarred(item, !starred)
        result = .success(!starred)
      } catch {
        result = .failure(error)
      }
      inbox.post { session in
        switch result {
        case .success(let starred):
          session.mirrorStar(item, starred)
          let verb = starred ? "starred" : "unstarred"
          session.notify(.notice("\(verb) \(item.title) on the server", isError: false))
        case .failure(let error):
          session.notify(.notice("could not star \(item.title): \(error)", isError: true))
        }
      }
    }
    return .done(message: nil)
  }

  /// Keeps Refrain's liked tracks in step with a star the server took.
  private func mirrorStar(_ item: CatalogItem, _ starred: Bool) {
    guard case .track(let track) = item, let libraryCalls else {
      return notify(.libraryChanged)
    }
    libraryCalls.call(
      { library in
        if starred {
          try library.likeTrack(track)
        } else {
          try library.unlikeTrack(provider: track.provider, id: track.id)
        }
      },
      then: { [weak self] _ in self?.notify(.libraryChanged) })
  }

  // MARK: - The saved session

  /// Saves the queue, position, volume, modes and `openPane` in the background, after every
  /// library call asked for before, so the next start resumes there; a failure is a notice.
  public func saveSession(openPane: String) {
    guard let libraryCalls else { return }
    let snapshot = playback.snapshot
    let saved = SavedSession(
      queue: playback.queue.tracks.map(catalogTrack(for:)), currentIndex: snapshot.index,
      position: snapshot.position, volume: snapshot.volume, shuffle: snapshot.isShuffled,
      repeatMode: snapshot.repeatMode, openPane: openPane)
    libraryCalls.call({ try $0.saveSession(saved) }) { [weak self] result in
      if case .failure(let error) = result {
        self?.notify(.notice("could not save the session: \(error)", isError: true))
      }
    }
  }

  /// Reads the last session in the background and restores it, paused where it was left:
  /// volume, repeat and shuffle, then the queue (resolved as any catalog tracks are). `then`
  /// gets the saved session, for what the front end restores of its own (the open pane).
  public func restoreSession(then: @escaping (SavedSession) -> Void) {
    libraryCalls?.call({ try $0.lastSession() }) { [weak self] result in
      guard let self, case .success(let saved?) = result, !saved.queue.isEmpty else { return }
      playback.setVolume(saved.volume)
      playback.setRepeat(saved.repeatMode)
      if saved.shuffle != playback.queue.isShuffled { playback.toggleShuffle() }
      play(saved.queue, startAt: saved.currentIndex ?? 0, position: saved.position, paused: true) {
        _, _ in
      }
      then(saved)
    }
  }
}

extension CatalogTrack {
  /// A catalog track made from what `track` itself says (a file or URL outside any catalog).
  public init(describing track: Track) {
    self.init(
      id: track.catalogID?.id ?? track.id,
      provider: track.catalogID?.provider ?? track.provider ?? "file", title: track.title,
      artist: track.artist, album: track.album, duration: track.duration,
      streamURL: track.location, coverURL: track.coverURL, lyricsURL: track.lyricsURL)
  }
}

/// A playlist as `refrain ctl playlist list` and `create` print it: a number for Refrain's
/// own playlists, text for a server's.
private struct PlaylistLine<ID: Encodable>: Encodable {
  let id: ID
  let name: String
  let tracks: Int
}

extension PlaylistLine<Int64> {
  init(_ playlist: LibraryPlaylist) {
    self.init(id: playlist.id, name: playlist.name, tracks: playlist.trackCount)
  }
}

extension PlaylistLine<String> {
  init(_ playlist: PlaylistSummary) {
    self.init(id: playlist.id, name: playlist.title, tracks: playlist.trackCount ?? 0)
  }
}

/// A playlist entry as `refrain ctl playlist show` prints it: `position` counts from 1, and
/// `artist` is null when unknown.
private struct EntryLine: Encodable {
  let position: Int
  let title: String
  let artist: String?
  let provider: String
  let id: String

  init(position: Int, track: CatalogTrack) {
    self.position = position
    title = track.title
    artist = track.artist
    provider = track.provider
    id = track.id
  }

  private enum CodingKeys: String, CodingKey {
    case position, title, artist, provider, id
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(position, forKey: .position)
    try container.encode(title, forKey: .title)
    try container.encode(artist, forKey: .artist)  // null, not left out, when unknown
    try container.encode(provider, forKey: .provider)
    try container.encode(id, forKey: .id)
  }
}

/// Why a playlist position cannot be used: `position 3 is outside the playlist (it has 1 track)`.
private func outside(_ position: Int, count: Int) -> String {
  "position \(position) is outside the playlist (it has \(count) track\(count == 1 ? "" : "s"))"
}

/// Which of the catalog server's playlists tracks go to.
public enum ServerPlaylistTarget: Sendable, Equatable {
  /// A playlist the server has: its id, and its name for the answer.
  case existing(id: String, name: String)
  /// A new playlist with this name, made first.
  case new(name: String)
}
