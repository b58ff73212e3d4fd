import Foundation
import RefrainCore

/// A list the library holds: a playlist, the liked tracks, the saved albums, or the latest
/// plays. One place says how each is read, for its detail view and for adding it whole.
public enum LibraryList: Sendable {
  case playlist(LibraryPlaylist)
  case liked
  case savedAlbums
  /// The latest plays, most recent first.
  case history(limit: Int)

  /// The title its detail view shows.
  public var title: String {
    switch self {
    case .playlist(let playlist): return playlist.name
    case .liked: return "Liked tracks"
    case .savedAlbums: return "Saved albums"
    case .history: return "Recently played"
    }
  }

  /// Reads the list as a detail view shows it (saved albums as one section of albums).
  public func detail(from library: any LibraryStorage) throws -> CatalogDetail {
    switch self {
    case .playlist(let playlist):
      let entries = try library.entries(inPlaylist: playlist.id, offset: 0, limit: nil)
      return .libraryPlaylist(playlist, entries)
    case .liked: return .tracks(title, try library.likedTracks())
    case .history(let limit):
      return .tracks(title, try library.playHistory(limit: limit).map(\.track))
    case .savedAlbums:
      let section = HomeSection(
        id: "saved", title: title, kind: .other,
        items: try library.savedAlbums().map { .album($0) })
      return .genre(
        GenreDetail(
          genre: GenreSummary(id: "saved", provider: "library", name: title),
          sections: [section]))
    }
  }

  /// Reads the list's tracks, for adding it whole (saved albums have none of their own).
  public func tracks(from library: any LibraryStorage) throws -> [CatalogTrack] {
    try detail(from: library).tracks
  }
}
