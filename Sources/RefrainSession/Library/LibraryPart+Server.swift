import Foundation
import RefrainCore

/// The lists a catalog's server keeps of its own (a Subsonic server's playlists and stars):
/// every call goes to the server in the background and is answered once it has.
extension LibraryPart {
  /// Applies a playlist edit on the catalog's server in the background, then calls `then` on
  /// the session's thread once the server has answered: `ok`, or the same JSON lines as
  /// Refrain's own playlists (with the server's ids, which are text).
  func perform(
    _ edit: Command.PlaylistEdit, on server: any CatalogPlaylists,
    then: @escaping (Session.Answer) -> Void
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
    background(on: session.inbox, work) { session, result in
      switch edit {
      case .list, .show: break
      default: session.notify(.libraryChanged)
      }
      then(result.mapError { $0 as? CommandFailure ?? CommandFailure("\($0)") })
    }
  }

  /// Whether the catalog keeps playlists of its own (a Subsonic server), which playlist
  /// commands then act on.
  var catalogKeepsPlaylists: Bool { catalog is any CatalogPlaylists }

  /// Adds `tracks` to one of the server's playlists, or to a new one it makes first, in the
  /// background; `then` gets a line saying what the server now holds once it has answered,
  /// or why not.
  ///
  /// Only the server's own tracks go in its playlists: any other track is refused before the
  /// server is asked, so no playlist is made for it.
  func addTracks(
    _ tracks: [CatalogTrack], toServerPlaylist target: ServerPlaylistTarget,
    then: @escaping (Session.Answer) -> Void
  ) {
    guard let server = catalog as? any CatalogPlaylists else {
      return then(.failure(CommandFailure("this catalog keeps no playlists of its own")))
    }
    let count = tracks.count == 1 ? "1 track" : "\(tracks.count) tracks"
    background(on: session.inbox) { () async throws -> String in
      switch target {
      case .existing(let id, let name):
        try await server.addTracks(tracks, toPlaylist: id)
        return "added \(count) to \(name) on the server"
      case .new(let name):
        _ = try await server.createPlaylist(named: name, with: tracks)
        return "created \(name) on the server" + (tracks.isEmpty ? "" : " with \(count)")
      }
    } then: { session, result in
      session.notify(.libraryChanged)
      then(result.mapError { CommandFailure("\($0)") })
    }
  }

  /// Stars `item` on its catalog's server, or unstars it when the server has it starred.
  ///
  /// The state is read first (some servers refuse to star twice); a notice says which, once
  /// the server has answered. A liked track in Refrain's library follows, so its mark shows.
  func star(_ item: CatalogItem, on starring: any CatalogStarring) -> Outcome {
    guard item.kind == "track" || item.kind == "album" else {
      return .done(message: "only albums and tracks can be starred")
    }
    let inbox = session.inbox
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
          session.libraryPart.mirrorStar(item, starred)
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
    guard case .track(let track) = item, let libraryCalls = calls else {
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
}
