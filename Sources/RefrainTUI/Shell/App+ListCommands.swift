import Foundation
import RefrainCore
import RefrainSession

/// What the list panes' commands do beyond the pane: open, play all, add to the queue or a
/// playlist, save, and the playlist and queue edits (the decisions: ListPane.swift).
extension App {
  /// Opens the playlist picker for `tracks`, unless another overlay took the screen meanwhile.
  ///
  /// It lists the playlists last read at once (the server's first, under a catalog that
  /// keeps its own) and asks for fresh ones, which it follows when they arrive.
  func pickPlaylist(for tracks: [CatalogTrack]) {
    guard overlay == nil else { return }
    overlay = .picker(
      PlaylistPicker(
        tracks: tracks, own: librarySnapshot?.playlists ?? [], server: serverPlaylists))
    refreshLibrary()
  }

  /// The server's playlists as last read: `nil` when the catalog keeps none, empty until read.
  var serverPlaylists: [PlaylistSummary]? {
    guard session.catalogKeepsPlaylists else { return nil }
    if case .loaded(let playlists, _)? = session.browsing.serverLists { return playlists }
    return []
  }

  /// Carries out the picker's choice for `tracks`.
  func add(_ tracks: [CatalogTrack], to choice: PlaylistPicker.Choice) {
    switch choice {
    case .own(let playlist):
      show(execute(.library(.addTracks(tracks, playlist: playlist.id, name: playlist.name))))
    case .newOwn: createPlaylist(named: nil, adding: tracks, onServer: false)
    case .server(let playlist):
      addOnServer(tracks, .existing(id: playlist.id, name: playlist.title))
    case .newOnServer: createPlaylist(named: nil, adding: tracks, onServer: true)
    case .header: break
    }
  }

  /// Adds `tracks` to a playlist of the server's; the status line says so once the server
  /// has answered (or why not), and an open playlist of the server's is read again.
  func addOnServer(_ tracks: [CatalogTrack], _ target: ServerPlaylistTarget) {
    send(.library(.addToServerPlaylist(tracks, target))) { [weak self] answer in
      if case .success(let text) = answer { self?.setStatus(text, error: false) }
      if case .existing(let id, _) = target { self?.reloadOpenServerPlaylist(id) }
    }
  }

  // MARK: - Effects

  /// Carries out the work a list pane asked for.
  func perform(_ effect: ListEffect) {
    switch effect {
    case .activate(let action): activate(action)
    case .playAll(let tracks): play(tracks, startAt: 0)
    case .enqueue(let selection):
      // In a room, the room's queue, for everyone; the room refuses what it cannot play.
      tracks(of: selection) { [weak self] in
        self?.show(self?.execute(.enqueue($0)) ?? .done(message: nil))
      }
    case .pickPlaylist(let selection):
      tracks(of: selection) { [weak self] tracks in self?.pickPlaylist(for: tracks) }
    case .save(let item): show(execute(.library(.save(item))))
    case .removeFromQueue(let index): show(execute(.queueRemove(index + 1)))
    case .moveInQueue(let from, let to): show(execute(.queueMove(from: from + 1, to: to + 1)))
    case .removeFromPlaylist(let entry, let id):
      show(execute(.library(.removeEntry(entry.entryID, playlist: id, title: entry.track.title))))
    case .moveInPlaylist(let entry, let id, let position):
      show(execute(.library(.moveEntry(playlist: id, from: entry.position, to: position))))
    case .renamePlaylist(let id, let name):
      show(execute(.library(.rename(id, to: name))))
    case .editServerPlaylist(let edit):
      editServerPlaylist(edit)
    }
  }

  /// Sends a playlist edit to the catalog's server; once it answered, the open playlist is
  /// read again from the server (or the status line says why the edit failed).
  private func editServerPlaylist(_ edit: Command.PlaylistEdit) {
    let target = pane
    send(.playlist(edit)) { [weak self] answer in
      guard let self else { return }
      switch answer {
      case .failure: break
      case .success:
        if case .delete(let id) = edit {
          setStatus("playlist deleted on the server", error: false)
          closePages { detail in
            guard case .playlist(let open) = detail.content else { return false }
            return open.playlist.id == id
          }
          return
        }
        setStatus("\(edit.doneMessage) on the server", error: false)
        if let id = edit.playlistID { reloadOpenServerPlaylist(id, on: target) }
      }
    }
  }

  /// Reads again, from the server, the playlist `id` when it is open on `pane` (by default,
  /// every pane).
  private func reloadOpenServerPlaylist(_ id: String, on pane: Command.Pane? = nil) {
    for (target, depth, playlist) in lists.openServerPlaylist(id, on: pane) {
      guard let (title, load) = CatalogDetail.load(for: .playlist(playlist)) else { continue }
      session.loadDetail(title, load) { [weak self] detail in
        self?.lists.fill(detail, on: target, at: depth)
      }
    }
  }

  /// Runs `then` with the selection's tracks: at once, or once fetched from the catalog or
  /// read from the library.
  private func tracks(of selection: SelectionTracks, then: @escaping ([CatalogTrack]) -> Void) {
    switch selection {
    case .now(let tracks): then(tracks)
    case .fetch(let item): session.loadTracks(of: item, then: then)
    case .library(let list): session.readTracks({ try list.tracks(from: $0) }, then: then)
    case .nothing: break
    }
  }

  private func activate(_ action: ListRow.Action) {
    switch action {
    case .none: break
    case .item(.track(let track)):
      if list.hasDetail, pane != .queue {
        play([track], startAt: 0)  // "play this": the single track
      } else {
        open(.track(track))
      }
    case .item(let item): open(item)
    case .playAll:
      play(list.details.last?.tracks ?? [], startAt: 0)
    case .recentSearch(let query): runSearch(query)
    case .libraryPlaylist(let playlist): pushLibraryDetail(.playlist(playlist))
    case .likedTracks: pushLibraryDetail(.liked)
    case .savedAlbums: pushLibraryDetail(.savedAlbums)
    case .history: pushLibraryDetail(.history(limit: LibraryPane.historyLength))
    case .newPlaylist: createPlaylist(named: nil, adding: [], onServer: false)
    case .newServerPlaylist: createPlaylist(named: nil, adding: [], onServer: true)
    case .queueEntry(let index):
      show(execute(.queuePlay(index + 1)))  // in a room, the room's entry for everyone
    case .playlistEntry(let entry, _): play([entry.track], startAt: 0)
    case .station(let station):
      // A station replaces the queue, as Enter on a track does; a room refuses it.
      show(execute(.playTracks(Command.TrackList([station.track]))))
    }
  }
}
