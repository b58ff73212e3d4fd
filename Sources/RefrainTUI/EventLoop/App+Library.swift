import Foundation
import RefrainCore

/// What the Library and Search panes show from the library, read in the background.
///
/// Drawing reads only this copy, so a slow disk or another process holding the library's
/// write lock never holds up a frame.
struct LibrarySnapshot: Sendable, Equatable {
  /// Every playlist, by name.
  var playlists: [LibraryPlaylist]
  /// The recent searches, most recent first.
  var recentSearches: [String]
}

/// Library reads and writes, through the session's ``LibraryCalls``: off the main loop's
/// thread, one after another in the order they were asked for.
extension App {
  /// What a library call finished with, handed to the main loop.
  typealias LibraryResult<T> = Result<T, any Error>

  /// Runs `work` on the library in the background once every library call asked for before
  /// it has finished, then `then` on the main loop with its result. Without a library
  /// nothing runs.
  func withLibrary<T: Sendable>(
    _ work: @escaping @Sendable (any LibraryStorage) throws -> T,
    then: @escaping (App, LibraryResult<T>) -> Void
  ) {
    library?.call(work) { [weak self] result in
      guard let self else { return }
      then(self, result)
    }
  }

  /// Changes the library like ``withLibrary(_:then:)``, then re-reads what the panes show.
  func changeLibrary<T: Sendable>(
    _ work: @escaping @Sendable (any LibraryStorage) throws -> T,
    then: @escaping (App, LibraryResult<T>) -> Void
  ) {
    withLibrary(work, then: then)
    refreshLibrary()
  }

  /// Changes the library and says `message` on the status line once the change is stored,
  /// or why it was not.
  func editLibrary(
    _ message: String?, _ edit: @escaping @Sendable (any LibraryStorage) throws -> Void
  ) {
    changeLibrary(edit) { app, result in
      switch result {
      case .success: if let message { app.setStatus(message) }
      case .failure(let error): app.setStatus("\(error)", error: true)
      }
    }
  }

  /// Re-reads, in the background, the snapshot the panes draw from and the entries of every
  /// library playlist open on a pane.
  func refreshLibrary() {
    let open = Set(
      details.values.compactMap { stack -> Int64? in
        guard case .libraryPlaylist(let playlist, _)? = stack.last?.content else { return nil }
        return playlist.id
      })
    withLibrary({ library in
      let snapshot = LibrarySnapshot(
        playlists: try library.playlists(), recentSearches: try library.recentSearches())
      var playlists: [Int64: LibraryPlaylistRead] = [:]
      for id in open {
        // One that is gone (deleted meanwhile) keeps what it showed.
        guard let playlist = try? library.playlist(id),
          let entries = try? library.entries(inPlaylist: id, offset: 0, limit: nil)
        else { continue }
        playlists[id] = LibraryPlaylistRead(playlist: playlist, entries: entries)
      }
      return (snapshot, playlists)
    }) { app, result in
      switch result {
      case .success(let (snapshot, playlists)): app.show(snapshot, playlists: playlists)
      case .failure(let error):
        app.libraryReadError = "\(error)"
        app.setStatus("\(error)", error: true)
      }
    }
  }

  /// Puts what was read on the panes: the snapshot, the open playlists, and the picker's
  /// list. The picker's selection stays on the same playlist, or on "new playlist"; a picker
  /// that had no playlist to list starts at the top, as one opened now would.
  private func show(_ snapshot: LibrarySnapshot, playlists: [Int64: LibraryPlaylistRead]) {
    librarySnapshot = snapshot
    libraryReadError = nil
    for (pane, stack) in details {
      guard case .libraryPlaylist(let playlist, _)? = stack.last?.content,
        let fresh = playlists[playlist.id]
      else { continue }
      lists[pane]?.details[stack.count - 1].content = .libraryPlaylist(
        fresh.playlist, fresh.entries)
    }
    if case .picker(let tracks, let old, var cursor) = overlay {
      let fresh = snapshot.playlists
      if old.indices.contains(cursor.selection) {
        let id = old[cursor.selection].id
        cursor.selection = fresh.firstIndex { $0.id == id } ?? min(cursor.selection, fresh.count)
      } else if !old.isEmpty {
        cursor.selection = fresh.count  // "+ New playlist…"
      }
      overlay = .picker(tracks: tracks, playlists: fresh, cursor: cursor)
    }
  }

  /// Reads tracks from the library in the background, then runs `then` on the main loop
  /// with them (never with none: that is said on the status line instead).
  func loadLibraryTracks(
    _ read: @escaping LibraryTracksRead, then: @escaping (App, [CatalogTrack]) -> Void
  ) {
    withLibrary(read) { app, result in
      switch result {
      case .success(let tracks) where tracks.isEmpty:
        app.setStatus("this list has no tracks to add")
      case .success(let tracks): then(app, tracks)
      case .failure(let error): app.setStatus("\(error)", error: true)
      }
    }
  }

  /// Pushes a detail view that says "loading" on the focused pane and fills it from the
  /// library in the background.
  func pushLibraryDetail(
    _ title: String,
    load: @escaping @Sendable (any LibraryStorage) throws -> DetailState.Content
  ) {
    guard library != nil else { return setStatus("the library is not available", error: true) }
    let target = pane
    lists[target, default: ListPane(target)].details.append(DetailState(content: .loading(title)))
    let depth = lists[target]?.details.count ?? 0
    withLibrary(load) { app, result in
      guard app.lists[target]?.details.count == depth,
        case .loading(title)? = app.lists[target]?.details[depth - 1].content
      else { return }
      switch result {
      case .success(let content): app.lists[target]?.details[depth - 1].content = content
      case .failure(let error):
        app.lists[target]?.details[depth - 1].content = .failed("\(title) could not load: \(error)")
      }
    }
  }
}

/// Reads a list of tracks from the library (a playlist's entries, the liked tracks, …).
typealias LibraryTracksRead = @Sendable (any LibraryStorage) throws -> [CatalogTrack]

/// A library playlist and its entries, read together.
struct LibraryPlaylistRead: Sendable {
  var playlist: LibraryPlaylist
  var entries: [PlaylistEntry]
}
