import Foundation

/// What a search looks for.
public enum SearchKind: String, Sendable, Codable, CaseIterable {
  case track, album, artist, playlist
  /// A phrase of the lyrics: catalogs without lyrics to search return nothing.
  case lyric
}

/// The kind of a home section, so panes can lay it out.
public enum HomeSectionKind: String, Sendable, Codable {
  case newReleases, playlists, charts, genres, artists, other
}

/// A titled list on the Home pane.
public struct HomeSection: Sendable, Hashable, Codable {
  public var id: String
  public var title: String
  public var kind: HomeSectionKind
  public var items: [CatalogItem]

  /// Creates a section.
  public init(id: String, title: String, kind: HomeSectionKind, items: [CatalogItem]) {
    self.id = id
    self.title = title
    self.kind = kind
    self.items = items
  }
}

/// One page of a longer list.
public struct Page<Item: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
  public var items: [Item]
  /// The index of the first item within the whole list.
  public var offset: Int
  /// The size of the whole list, when the provider says.
  public var total: Int?

  /// Creates a page.
  public init(items: [Item], offset: Int, total: Int? = nil) {
    self.items = items
    self.offset = offset
    self.total = total
  }

  /// Whether another page follows.
  public var hasMore: Bool {
    guard let total else { return !items.isEmpty }
    return offset + items.count < total
  }
}

/// An album with its tracks.
public struct AlbumDetail: Sendable, Hashable, Codable {
  public var album: AlbumSummary
  public var tracks: [CatalogTrack]

  /// Creates an album detail.
  public init(album: AlbumSummary, tracks: [CatalogTrack]) {
    self.album = album
    self.tracks = tracks
  }
}

/// An artist with top tracks and albums.
public struct ArtistDetail: Sendable, Hashable, Codable {
  public var artist: ArtistSummary
  public var topTracks: [CatalogTrack]
  public var albums: [AlbumSummary]

  /// Creates an artist detail.
  public init(artist: ArtistSummary, topTracks: [CatalogTrack], albums: [AlbumSummary]) {
    self.artist = artist
    self.topTracks = topTracks
    self.albums = albums
  }
}

/// A playlist with one page of its tracks.
public struct PlaylistDetail: Sendable, Hashable, Codable {
  public var playlist: PlaylistSummary
  public var tracks: Page<CatalogTrack>

  /// Creates a playlist detail.
  public init(playlist: PlaylistSummary, tracks: Page<CatalogTrack>) {
    self.playlist = playlist
    self.tracks = tracks
  }
}

/// A genre with what the provider lists under it.
public struct GenreDetail: Sendable, Hashable, Codable {
  public var genre: GenreSummary
  public var sections: [HomeSection]

  /// Creates a genre detail.
  public init(genre: GenreSummary, sections: [HomeSection]) {
    self.genre = genre
    self.sections = sections
  }
}

/// Every way a catalog can fail; each message says what the user can do.
public enum CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The item does not exist in this catalog.
  case notFound(String)
  /// The track has no audio (no preview, a missing file).
  case unplayable(String)
  /// The catalog could not be reached or answered badly.
  case unavailable(String)
  /// The catalog does not offer this (e.g. genres in a local folder).
  case unsupported(String)

  public var description: String {
    switch self {
    case .notFound(let what): return "not found: \(what)"
    case .unplayable(let why): return "cannot play: \(why)"
    case .unavailable(let why): return why
    case .unsupported(let what): return "this catalog has no \(what)"
    }
  }
}

/// A source of music: the demo catalog, the user's folders, an online catalog.
///
/// Providers are called from async tasks off the UI thread; every method may be slow.
public protocol CatalogProvider: Sendable {
  /// The provider's short name (`demo`, `local`, `deezer`).
  var name: String { get }
  /// The Home pane's sections, in display order.
  func home() async throws -> [HomeSection]
  /// One page of search results of one kind.
  func search(_ query: String, kind: SearchKind, offset: Int, limit: Int) async throws -> Page<
    CatalogItem
  >
  /// An album and its tracks.
  func album(id: String) async throws -> AlbumDetail
  /// An artist's top tracks and albums.
  func artist(id: String) async throws -> ArtistDetail
  /// A playlist with one page of tracks.
  func playlist(id: String, offset: Int, limit: Int) async throws -> PlaylistDetail
  /// A genre's sections.
  func genre(id: String) async throws -> GenreDetail
  /// A fresh, playable URL for the track (online previews expire, so never cache it).
  func streamURL(for track: CatalogTrack) async throws -> URL
  /// How seeks move the track's stream when its bytes do not map to time (a transcoded
  /// stream); `nil` when the decoder seeks as it can.
  func seeking(for track: CatalogTrack) -> StreamSeeking?
}

extension CatalogProvider {
  /// Genres are optional: by default a provider has none.
  public func genre(id: String) async throws -> GenreDetail {
    throw CatalogError.unsupported("genres")
  }

  /// By default a stream seeks as its decoder can.
  public func seeking(for track: CatalogTrack) -> StreamSeeking? { nil }

  /// By default the listed URL is the stream.
  public func streamURL(for track: CatalogTrack) async throws -> URL {
    guard let url = track.streamURL else {
      throw CatalogError.unplayable(track.unplayableReason ?? "\(track.title) has no audio")
    }
    return url
  }
}

/// A catalog that keeps its own stars (a Subsonic server): `+` stars and unstars there
/// instead of in Refrain's library.
public protocol CatalogStarring: Sendable {
  /// Whether the server has `item` (a track or an album) starred, read afresh.
  func isStarred(_ item: CatalogItem) async throws -> Bool
  /// Stars (`true`) or unstars `item` on the server; returns once the server has answered.
  func setStarred(_ item: CatalogItem, _ starred: Bool) async throws
  /// Everything the server has starred: the tracks, then the albums.
  func starred() async throws -> [CatalogItem]
}

/// A catalog that keeps the user's own playlists (a Subsonic server): `playlist …` edits act
/// there instead of in Refrain's library, each returning once the server has answered.
///
/// Positions count from 0; the caller checks them against ``playlistTracks(id:)``.
public protocol CatalogPlaylists: Sendable {
  /// The user's playlists, as the server lists them.
  func playlists() async throws -> [PlaylistSummary]
  /// One playlist and all its tracks, in order.
  func playlistTracks(id: String) async throws -> (PlaylistSummary, [CatalogTrack])
  /// Makes a playlist holding `tracks` (of this catalog; none for an empty one) and returns
  /// it (with the server's id).
  func createPlaylist(named name: String, with tracks: [CatalogTrack]) async throws
    -> PlaylistSummary
  /// Renames a playlist.
  func renamePlaylist(id: String, to name: String) async throws
  /// Deletes a playlist.
  func deletePlaylist(id: String) async throws
  /// Appends tracks of this catalog to a playlist.
  func addTracks(_ tracks: [CatalogTrack], toPlaylist id: String) async throws
  /// Removes the track at `position`.
  func removeTrack(at position: Int, fromPlaylist id: String) async throws
  /// Moves the track at `from` to `to`, the others keeping their order.
  func moveTrack(inPlaylist id: String, from: Int, to: Int) async throws
}
