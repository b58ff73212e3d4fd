import Foundation
import RefrainCore
import RefrainSession

/// What the list panes' commands do beyond the pane: open, play all, add to the queue or a
/// playlist, save, and the playlist and queue edits (the decisions: ListPane.swift).
extension App {
  /// Opens the playlist picker for `tracks`, unless another overlay took the screen meanwhile.
  ///
  /// It lists the snapshot's playlists at once and asks for a fresh one, which it follows
  /// when it arrives.
  func pickPlaylist(for tracks: [CatalogTrack]) {
    guard overlay == nil else { return }
    overlay = .picker(
      tracks: tracks, playlists: librarySnapshot?.playlists ?? [], cursor: ListCursor())
    refreshLibrary()
  }

  // MARK: - Effects

  /// Carries out the work a list pane asked for.
  func perform(_ effect: ListEffect) {
    switch effect {
    case .activate(let action): activate(action)
    case .playAll(let tracks): play(tracks, startAt: 0)
    case .enqueue(let selection):
      tracks(of: selection) { [weak self] tracks in self?.enqueue(tracks) }
    case .pickPlaylist(let selection):
      tracks(of: selection) { [weak self] tracks in self?.pickPlaylist(for: tracks) }
    case .save(let item): show(session.save(item))
    case .removeFromQueue(let index): presenter.removeFromQueue(at: index)
    case .moveInQueue(let from, let to): presenter.moveInQueue(from: from, to: to)
    case .removeFromPlaylist(let entry, let id):
      session.editLibrary("removed \(entry.track.title)") {
        try $0.removeEntries([entry.entryID], fromPlaylist: id)
      }
    case .moveInPlaylist(let entry, let id, let position):
      session.editLibrary(nil) {
        try $0.moveEntry(inPlaylist: id, from: entry.position, to: position)
      }
    case .renamePlaylist(let id, let name):
      session.editLibrary("renamed to \(name)") { try $0.renamePlaylist(id, to: name) }
    case .editServerPlaylist(let edit):
      editServerPlaylist(edit)
    }
  }

  /// Sends a playlist edit to the catalog's server; once it answered, the open playlist is
  /// read again from the server (or the status line says why the edit failed).
  private func editServerPlaylist(_ edit: Command.PlaylistEdit) {
    let target = pane
    session.perform(edit) { [weak self] answer in
      guard let self else { return }
      switch answer {
      case .failure(let failure): setStatus(failure.message, error: true)
      case .success:
        setStatus("playlist updated on the server", error: false)
        guard let depth = lists[target]?.details.count, depth > 0,
          case .playlist(let open)? = lists[target]?.details.last?.content,
          open.playlist.id == edit.playlistID,
          let (title, load) = CatalogDetail.load(for: .playlist(open.playlist))
        else { return }
        session.loadDetail(title, load) { [weak self] detail in
          guard let self, lists[target]?.details.count == depth else { return }
          lists[target]?.details[depth - 1].content = detail
        }
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
    case .newPlaylist: createPlaylist(named: nil, adding: [])
    case .queueEntry(let index):
      if room != nil, let track = presenter.queue.track(at: index) {
        show(session.play([track], startAt: 0))  // the room decides
      } else {
        presenter.jump(to: index)
      }
    case .playlistEntry(let entry, _): play([entry.track], startAt: 0)
    case .station(let station):
      // A station replaces the queue, as Enter on a track does.
      if room != nil {
        setStatus("radio plays outside a listening room", error: true)
      } else {
        presenter.playAll([station.track], startAt: 0)
      }
    }
  }
}
