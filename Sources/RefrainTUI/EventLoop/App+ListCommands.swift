import Foundation
import RefrainCore

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
      tracks(of: selection) { app, tracks in app.enqueue(tracks) }
    case .pickPlaylist(let selection):
      tracks(of: selection) { app, tracks in app.pickPlaylist(for: tracks) }
    case .save(let item): save(item)
    case .removeFromQueue(let index): presenter.removeFromQueue(at: index)
    case .moveInQueue(let from, let to): presenter.moveInQueue(from: from, to: to)
    case .removeFromPlaylist(let entry, let id):
      editLibrary("removed \(entry.track.title)") {
        try $0.removeEntries([entry.entryID], fromPlaylist: id)
      }
    case .moveInPlaylist(let entry, let id, let position):
      editLibrary(nil) { try $0.moveEntry(inPlaylist: id, from: entry.position, to: position) }
    case .renamePlaylist(let id, let name):
      editLibrary("renamed to \(name)") { try $0.renamePlaylist(id, to: name) }
    }
  }

  /// Runs `then` with the selection's tracks: at once, or once fetched from the catalog or
  /// read from the library.
  private func tracks(
    of selection: SelectionTracks, then: @escaping @Sendable (App, [CatalogTrack]) -> Void
  ) {
    switch selection {
    case .now(let tracks): then(self, tracks)
    case .fetch(let item): loadTracks(of: item, then: then)
    case .library(let read): loadLibraryTracks(read, then: then)
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
    case .libraryPlaylist(let playlist):
      pushLibraryDetail(playlist.name) { library in
        let entries = try library.entries(inPlaylist: playlist.id, offset: 0, limit: nil)
        return .libraryPlaylist(playlist, entries)
      }
    case .likedTracks:
      pushLibraryDetail("Liked tracks") { .tracks("Liked tracks", try $0.likedTracks()) }
    case .savedAlbums:
      pushLibraryDetail("Saved albums") { library in
        let section = HomeSection(
          id: "saved", title: "Saved albums", kind: .other,
          items: try library.savedAlbums().map { .album($0) })
        return .genre(
          GenreDetail(
            genre: GenreSummary(id: "saved", provider: "library", name: "Saved albums"),
            sections: [section]))
      }
    case .history:
      let limit = ListPane.historyLength
      pushLibraryDetail("Recently played") {
        .tracks("Recently played", try $0.playHistory(limit: limit).map(\.track))
      }
    case .newPlaylist: createPlaylist(named: nil, adding: [])
    case .queueEntry(let index):
      if room != nil, let track = presenter.queue.track(at: index) {
        show(session.play([track], startAt: 0))  // the room decides
      } else {
        presenter.jump(to: index)
      }
    case .playlistEntry(let entry, _): play([entry.track], startAt: 0)
    }
  }

}
