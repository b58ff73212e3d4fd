import Foundation
import RefrainCore

/// The user's library as the session keeps it: playlist edits by ID (`refrain ctl playlist
/// …` and the prompt) and picked on screen, likes and stars, the play history, the catalog
/// identity of what is queued, and the saved session.
///
/// It owns ``LibraryCalls``, so every read and write of the library runs off the session's
/// thread, one at a time in the order asked, and an edit is answered once committed. Under
/// a catalog that keeps its own playlists (a Subsonic server) playlist edits and stars go to
/// that server, and are answered once it has.
final class LibraryPart {
  /// The session it serves; set once by the session's init.
  unowned var session: Session!
  /// The user's library (playlists, likes, history, the saved session), called off the
  /// loop's thread in order; `nil` when it could not be opened.
  let calls: LibraryCalls?
  /// The catalog tracks behind the tracks queued from a catalog, by their identity: what a
  /// playlist add of `current`, the play history and the saved session store.
  private var catalogTracks: [CatalogTrackID: CatalogTrack] = [:]

  init(calls: LibraryCalls?) {
    self.calls = calls
  }

  private var playback: PlaybackPresenter { session.playback }
  var catalog: (any CatalogProvider)? { session.catalog }
  func notify(_ event: SessionEvent) { session.notify(event) }

  /// Carries out a playlist edit (its answer becomes a notice) or an edit picked on screen;
  /// ``Outcome/notForSession`` for any other command.
  func execute(_ command: Command) -> Outcome {
    switch command {
    case .playlist(let edit):
      perform(edit) { [weak self] answer in
        self?.notify(answer.notice(ok: edit.doneMessage))
      }
      return .done(message: nil)
    case .library(.save(let item)): return save(item)
    case .library(.addToServerPlaylist(let tracks, let target)):
      addTracks(tracks, toServerPlaylist: target) { [weak self] answer in
        self?.notify(answer.notice())
      }
      return .done(message: nil)
    case .library(let edit): return apply(edit)
    default: return .notForSession
    }
  }

  /// Adds a catalog track that started to the play history, in the background.
  func recordPlay(of track: Track) {
    guard let stored = track.catalogID.flatMap({ catalogTracks[$0] }) else { return }
    let date = Date()
    calls?.call({ try $0.recordPlay(stored, at: date, secondsPlayed: nil) }) { _ in }
  }

  /// The catalog track behind a queued track, or one made from what the track itself says.
  func catalogTrack(for track: Track) -> CatalogTrack {
    if let known = track.catalogID.flatMap({ catalogTracks[$0] }) { return known }
    return CatalogTrack(describing: track)
  }

  /// Keeps the catalog identity of `tracks` queued from a catalog, for the play history, a
  /// playlist add of `current` and the saved session.
  func remember(_ tracks: [CatalogTrack]) {
    for track in tracks { catalogTracks[track.catalogID] = track }
  }

  /// Applies a playlist edit in the background, after every library call asked for before,
  /// then calls `then` on the session's thread with `ok`, or one line of JSON for `list`,
  /// `show` and `create`. An edit is answered once committed, so an `ok` a client received
  /// survives the process being killed right after.
  ///
  /// Under a catalog that keeps its own playlists (a Subsonic server) the edit goes there
  /// instead, and is answered once the server has answered.
  func perform(_ edit: Command.PlaylistEdit, then: @escaping (Session.Answer) -> Void) {
    if let server = catalog as? any CatalogPlaylists {
      return perform(edit, on: server, then: then)
    }
    guard let libraryCalls = calls else {
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
        let describe = session.describe
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
    guard let libraryCalls = calls else { return .failed("the library is not available") }
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
    case .save, .addToServerPlaylist:
      return execute(.library(edit))
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
  func playingCatalogTrack() -> CatalogTrack? {
    playback.queue.current.map(catalogTrack(for:))
  }

  /// Saves an album, or likes a track (unlikes a liked one), in the background; a notice
  /// says what was stored, or why not.
  func save(_ item: CatalogItem) -> Outcome {
    if let catalog, let starring = catalog as? any CatalogStarring,
      item.catalogProvider == catalog.name
    {
      return star(item, on: starring)
    }
    guard let libraryCalls = calls else { return .failed("the library is not available") }
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

  // MARK: - The saved session

  /// Saves the queue, position, volume, modes and `openPane` in the background, after every
  /// library call asked for before, so the next start resumes there; a failure is a notice.
  func saveSession(openPane: String) {
    guard let libraryCalls = calls else { return }
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
  func restoreSession(then: @escaping (SavedSession) -> Void) {
    calls?.call({ try $0.lastSession() }) { [weak self] result in
      guard let self, case .success(let saved?) = result, !saved.queue.isEmpty else { return }
      playback.setVolume(saved.volume)
      playback.setRepeat(saved.repeatMode)
      if saved.shuffle != playback.queue.isShuffled { playback.toggleShuffle() }
      session.queueCommands.play(
        saved.queue, startAt: saved.currentIndex ?? 0, position: saved.position, paused: true
      ) {
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
struct PlaylistLine<ID: Encodable>: Encodable {
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
struct EntryLine: Encodable {
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
func outside(_ position: Int, count: Int) -> String {
  "position \(position) is outside the playlist (it has \(count) track\(count == 1 ? "" : "s"))"
}

/// Which of the catalog server's playlists tracks go to.
public typealias ServerPlaylistTarget = Command.ServerPlaylistTarget
