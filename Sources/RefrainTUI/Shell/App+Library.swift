import Foundation
import RefrainCore
import RefrainSession

/// Keeping what the panes show from the library fresh: the session reads it in the
/// background; the shell puts the open playlists and the picker's list on screen.
extension App {
  /// Has the session re-read the library's lists and the entries of every library playlist
  /// open on a pane, then shows them.
  func refreshLibrary() {
    let open = Set(
      details.values.compactMap { stack -> Int64? in
        guard case .libraryPlaylist(let playlist, _)? = stack.last?.content else { return nil }
        return playlist.id
      })
    session.refreshLibrary(open: open) { [weak self] playlists in self?.show(playlists) }
  }

  /// Puts what was read on the panes: the open playlists, and the picker's list (see
  /// ``PlaylistPicker/update(own:server:)`` for where its selection goes).
  private func show(_ playlists: [Int64: LibraryPlaylistRead]) {
    for (pane, stack) in details {
      guard case .libraryPlaylist(let playlist, _)? = stack.last?.content,
        let fresh = playlists[playlist.id]
      else { continue }
      lists[pane]?.details[stack.count - 1].content = .libraryPlaylist(
        fresh.playlist, fresh.entries)
    }
    if case .picker(var picker) = overlay {
      picker.update(own: librarySnapshot?.playlists ?? [])
      overlay = .picker(picker)
    }
  }

  /// Has an open picker list the server's playlists as last read.
  func followServerPlaylists() {
    guard case .picker(var picker) = overlay, let fresh = serverPlaylists,
      picker.server != fresh
    else { return }
    picker.update(server: fresh)
    overlay = .picker(picker)
  }

  /// Pushes a detail view of a library list that says "loading" on the focused pane and
  /// fills it from the library in the background.
  func pushLibraryDetail(_ list: LibraryList) {
    guard library != nil else { return setStatus("the library is not available", error: true) }
    let title = list.title
    pushDetail(title) { app, fill in
      app.session.readDetail(title, { try list.detail(from: $0) }, then: fill)
    }
  }
}
