import Foundation
import RefrainCore

/// What a detail view shows: an album, artist, playlist or genre from the catalog, or a list
/// from the library; or why it is not there yet.
public enum CatalogDetail: Sendable {
  case loading(String)
  case failed(String)
  case album(AlbumDetail)
  case artist(ArtistDetail)
  case playlist(PlaylistDetail)
  case genre(GenreDetail)
  case libraryPlaylist(LibraryPlaylist, [PlaylistEntry])
  case tracks(String, [CatalogTrack])

  /// Loads a detail from a catalog: the one path for detail views and for adding a list
  /// that was never opened.
  public typealias Load = @Sendable (any CatalogProvider) async throws -> CatalogDetail

  /// The title the detail view shows.
  public var title: String {
    switch self {
    case .loading(let what): return what
    case .failed: return "Error"
    case .album(let detail): return detail.album.title
    case .artist(let detail): return detail.artist.name
    case .playlist(let detail): return detail.playlist.title
    case .genre(let detail): return detail.genre.name
    case .libraryPlaylist(let playlist, _): return playlist.name
    case .tracks(let title, _): return title
    }
  }

  /// The tracks "play all" queues: an artist's top tracks, a genre's track rows; none while
  /// loading or after a failure.
  public var tracks: [CatalogTrack] {
    switch self {
    case .album(let detail): return detail.tracks
    case .artist(let detail): return detail.topTracks
    case .playlist(let detail): return detail.tracks.items
    case .libraryPlaylist(_, let entries): return entries.map(\.track)
    case .tracks(_, let tracks): return tracks
    case .genre(let detail):
      return detail.sections.flatMap(\.items).compactMap {
        if case .track(let track) = $0 { return track }
        return nil
      }
    case .loading, .failed: return []
    }
  }

  /// The title and the loader of `item`'s detail; `nil` for a track or a lyric line, which
  /// have none.
  public static func load(for item: CatalogItem) -> (title: String, load: Load)? {
    switch item {
    case .track, .lyric:
      return nil
    case .album(let album):
      return ("Album: \(album.title)", { try await .album($0.album(id: album.id)) })
    case .artist(let artist):
      return ("Artist: \(artist.name)", { try await .artist($0.artist(id: artist.id)) })
    case .playlist(let playlist):
      return (
        "Playlist: \(playlist.title)",
        { try await .playlist($0.playlist(id: playlist.id, offset: 0, limit: 100)) }
      )
    case .genre(let genre):
      return ("Genre: \(genre.name)", { try await .genre($0.genre(id: genre.id)) })
    }
  }
}
