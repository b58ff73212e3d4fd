import Foundation
import RefrainCore
import RefrainSession

/// Keeping what the panes show from the library fresh: the session reads it in the
/// background; the shell puts the open playlists and the picker's list on screen.
extension App {
  /// Has the session re-read the library's lists and the entries of every library playlist
  /// open on a pane, then shows them.
  func refreshLibrary() {
    session.refreshLibrary(open: lists.openLibraryPlaylists) { [weak self] playlists in
      self?.show(playlists)
    }
  }

  /// Puts what was read on the panes: the open playlists, and the picker's list (see
  /// ``PlaylistPicker/update(own:server:)`` for where its selection goes).
  private func show(_ playlists: [Int64: LibraryPlaylistRead]) {
    let existing = Set((librarySnapshot?.playlists ?? []).map(\.id))
    closePages { detail in
      guard case .libraryPlaylist(let playlist, _) = detail.content else { return false }
      return !existing.contains(playlist.id)
    }
    lists.update(playlists)
    if case .picker(var picker) = overlay {
      picker.update(own: librarySnapshot?.playlists ?? [])
      overlay = .picker(picker)
    }
  }

  /// Closes every open page `gone` says is gone (a playlist deleted from any door), with
  /// the pages opened from it, so nothing plays from a list that no longer exists.
  func closePages(where gone: (DetailState) -> Bool) {
    if let title = lists.closePages(where: gone)[pane] { setStatus("\(title) was deleted") }
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
    guard session.libraryAvailable else {
      return setStatus("the library is not available", error: true)
    }
    let title = list.title
    pushDetail(title) { app, fill in
      app.session.readDetail(title, { try list.detail(from: $0) }, then: fill)
    }
  }
}
