import RefrainCore
import RefrainSession

/// Every list pane with its cursor and the detail views pushed on it, by pane.
///
/// It guarantees that what arrives late lands only where it was asked for: a detail filled
/// in the background goes into the view that asked for it, at the same depth, or nowhere;
/// a page whose list is gone (a deleted playlist) closes with the pages opened from it.
struct ListPanes {
  private var panes: [Command.Pane: ListPane] = [:]

  /// The list pane of `pane`: an empty one until it is first used.
  subscript(pane: Command.Pane) -> ListPane {
    get { panes[pane] ?? ListPane(pane) }
    set { panes[pane] = newValue }
  }

  /// The open detail views of every pane that has some, by pane.
  var details: [Command.Pane: [DetailState]] {
    panes.compactMapValues { $0.details.isEmpty ? nil : $0.details }
  }

  /// The IDs of Refrain's playlists open on top of a pane.
  var openLibraryPlaylists: Set<Int64> {
    Set(
      details.values.compactMap { stack -> Int64? in
        guard case .libraryPlaylist(let playlist, _)? = stack.last?.content else { return nil }
        return playlist.id
      })
  }

  /// Pushes a view saying "loading" on `pane`; returns where ``fill(_:at:ifLoading:)`` finds it.
  mutating func pushLoading(_ title: String, on pane: Command.Pane) -> Int {
    self[pane].details.append(DetailState(content: .loading(title)))
    return self[pane].details.count
  }

  /// Puts `detail` into the view at `depth` (from 1) on `pane`, if the pane still has that
  /// many views and, with `loading`, that view still says it is loading `loading`.
  mutating func fill(
    _ detail: CatalogDetail, on pane: Command.Pane, at depth: Int, ifLoading loading: String? = nil
  ) {
    guard depth > 0, panes[pane]?.details.count == depth else { return }
    if let loading {
      guard case .loading(loading)? = panes[pane]?.details[depth - 1].content else { return }
    }
    panes[pane]?.details[depth - 1].content = detail
  }

  /// Closes every open page `gone` says is gone, with the pages opened from it; returns the
  /// titles closed, by pane.
  mutating func closePages(where gone: (DetailState) -> Bool) -> [Command.Pane: String] {
    var closed: [Command.Pane: String] = [:]
    for (pane, stack) in details {
      guard let first = stack.firstIndex(where: gone) else { continue }
      panes[pane]?.details.removeSubrange(first...)
      closed[pane] = stack[first].title
    }
    return closed
  }

  /// Puts freshly read library playlists into the views showing them.
  mutating func update(_ playlists: [Int64: LibraryPlaylistRead]) {
    for (pane, stack) in details {
      guard case .libraryPlaylist(let playlist, _)? = stack.last?.content,
        let fresh = playlists[playlist.id]
      else { continue }
      panes[pane]?.details[stack.count - 1].content = .libraryPlaylist(
        fresh.playlist, fresh.entries)
    }
  }

  /// Where the server's playlist `id` is open on top of a pane (`pane`, or any): the pane,
  /// the view's depth and the playlist.
  func openServerPlaylist(_ id: String, on pane: Command.Pane? = nil) -> [(
    Command.Pane, Int, PlaylistSummary
  )] {
    (pane.map { [$0] } ?? Array(panes.keys)).compactMap { target in
      guard let stack = panes[target]?.details, !stack.isEmpty,
        case .playlist(let open)? = stack.last?.content, open.playlist.id == id
      else { return nil }
      return (target, stack.count, open.playlist)
    }
  }
}
