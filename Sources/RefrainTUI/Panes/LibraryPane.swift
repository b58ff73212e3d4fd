import RefrainCore
import RefrainSession

/// The Library pane (key `3`): the playlists, "new playlist", then the collection (liked
/// tracks, saved albums, recently played), then the radio stations (Enter plays one).
/// Rename and delete work on a playlist's row. Under a Subsonic server, its playlists and
/// stars come first.
struct LibraryPane: ListSource {
  /// How many of the latest plays "Recently played" lists.
  static let historyLength = 50

  /// From the snapshot; until the first read, the header says why no playlist is listed
  /// (rows keep their places when they arrive).
  func rows(_ content: ListContent) -> [ListRow] {
    let server = content.browsing.serverLists.map(Self.serverRows) ?? []
    return server + ownRows(content, newPlaylistKey: server.isEmpty)
  }

  /// Under a catalog that keeps its own lists (a Subsonic server), above Refrain's own: the
  /// server's playlists (Enter opens one) and what it has starred (Enter plays a track).
  private static func serverRows(_ lists: ServerLists) -> [ListRow] {
    switch lists {
    case .loading:
      return [.header("Server playlists (loading…)")]
    case .failed(let reason):
      return [ListRow(text: "Server playlists: \(reason)", style: .error, isHeader: true)]
    case .loaded(let playlists, let starred):
      let noPlaylists = ListRow(text: "No playlists on the server yet", style: .dim)
      let noStars = ListRow(text: "Nothing starred yet: + stars a track", style: .dim)
      return [.header("Server playlists")]
        + (playlists.isEmpty ? [noPlaylists] : playlists.map { ListPane.itemRow(.playlist($0)) })
        + [
          ListRow(text: "+ New playlist on the server (c)", style: .dim, action: .newServerPlaylist)
        ]
        + [.header("Starred on the server")]
        + (starred.isEmpty ? [noStars] : starred.map(ListPane.itemRow))
    }
  }

  /// Refrain's own lists: the playlists, the collection and the radio stations. `c` makes
  /// a playlist here only when no server's playlists are listed above (it goes to the
  /// server's then), so only then does "new playlist" name the key.
  private func ownRows(_ content: ListContent, newPlaylistKey: Bool) -> [ListRow] {
    guard content.libraryAvailable else {
      return [
        ListRow(text: "The library database is not available.", style: .error, isHeader: true)
      ]
    }
    guard let snapshot = content.browsing.library else {
      let header =
        content.browsing.libraryReadError.map {
          ListRow(text: "Playlists: \($0)", style: .error, isHeader: true)
        } ?? .header("Playlists (loading…)")
      return [header] + Self.collectionRows(newPlaylistKey)
    }
    var rows: [ListRow] = [.header("Playlists")]
    for playlist in snapshot.playlists {
      rows.append(
        ListRow(
          text: "≡ \(playlist.name)", detail: "\(playlist.trackCount) tracks",
          action: .libraryPlaylist(playlist)))
    }
    return rows + Self.collectionRows(newPlaylistKey) + Self.radioRows(snapshot.stations)
  }

  /// The Radio section: each station, or how to add one.
  private static func radioRows(_ stations: [RadioStation]) -> [ListRow] {
    guard !stations.isEmpty else {
      return [
        .header("Radio"),
        ListRow(text: "No stations: refrain radio add NAME URL", style: .dim),
      ]
    }
    return [.header("Radio")]
      + stations.map { ListRow(text: "◎ \($0.name)", detail: $0.url, action: .station($0)) }
  }

  /// Below the playlists: "new playlist" (naming `c` when that key makes one here), then
  /// the collection.
  private static func collectionRows(_ newPlaylistKey: Bool) -> [ListRow] {
    [
      ListRow(
        text: newPlaylistKey ? "+ New playlist (c)" : "+ New playlist", style: .dim,
        action: .newPlaylist),
      .header("Collection"),
      ListRow(text: "♥ Liked tracks", action: .likedTracks),
      ListRow(text: "◉ Saved albums", action: .savedAlbums),
      ListRow(text: "↺ Recently played", action: .history),
    ]
  }

  /// Rename (with a name: at once; without: asks) and delete (asks) on a playlist's row,
  /// Refrain's own or the server's.
  func edit(
    _ command: Command, on action: ListRow.Action, cursor: inout ListCursor, rows: [ListRow]
  )
    -> PaneResult
  {
    if case .item(.playlist(let playlist)) = action {
      return Self.edit(command, onServer: playlist)
    }
    guard case .libraryPlaylist(let playlist) = action else { return .ignored }
    switch command {
    case .rename(let name?): return .effect(.renamePlaylist(playlist.id, to: name))
    case .rename(nil), .delete: return .overlay(ListPane.question(command, about: playlist))
    default: return .ignored
    }
  }

  /// Rename and delete on a playlist of the server's (the only catalog playlists listed here).
  private static func edit(_ command: Command, onServer playlist: PlaylistSummary) -> PaneResult {
    switch command {
    case .rename(let name?): return .effect(.editServerPlaylist(.rename(playlist.id, name)))
    case .rename(nil):
      return .overlay(
        .input(
          title: "Rename \(playlist.title) to:", editor: LineEditor(text: playlist.title),
          purpose: .renameOnServer(playlist.id)))
    case .delete:
      return .overlay(
        .confirm(
          question: "Delete the playlist \(playlist.title) on the server? (y/n)",
          action: .deleteOnServer(playlist.id)))
    default: return .ignored
    }
  }
}
