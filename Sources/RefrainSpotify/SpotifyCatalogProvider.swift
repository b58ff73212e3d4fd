import Foundation
import RefrainCatalog
import RefrainCore
import RefrainDeezer

/// The user's imported Spotify library as a catalog, offline: Home lists the imported
/// playlists, Liked Songs and saved albums; Search looks through the imported tracks.
///
/// Every track carries what plays it (``CatalogTrack/match``): a local file, a song on the
/// user's Subsonic server, or the preview catalog's preview. ``streamURL(for:)`` makes the
/// server's and the preview's URLs fresh at play time (previews expire, and a stored server
/// URL would hold credentials).
/// A track nothing plays is listed with its reason and cannot be queued.
public struct SpotifyCatalogProvider: CatalogProvider {
  public let name = SpotifyMapping.provider
  /// The ID of the Liked Songs playlist.
  public static let likedID = "liked"

  private let store: LibraryStore
  private let previews: DeezerCatalogProvider?
  private let server: (any CatalogProvider)?

  /// The provider over `store`; `server` (the Subsonic provider) plays server matches and
  /// `previews` plays preview matches (without them, those cannot be played).
  public init(
    store: LibraryStore, previews: DeezerCatalogProvider?, server: (any CatalogProvider)? = nil
  ) {
    self.store = store
    self.previews = previews
    self.server = server
  }

  public func home() async throws -> [HomeSection] {
    let playlists = try store.spotifyImport.spotifyPlaylists()
    let liked = try store.likedTracks().filter { $0.provider == name }.count
    let albums = try store.savedAlbums().filter { $0.provider == name }
    var playlistItems: [CatalogItem] = []
    if liked > 0 {
      playlistItems.append(
        .playlist(
          PlaylistSummary(
            id: Self.likedID, provider: name, title: "Liked Songs", owner: "you",
            trackCount: liked)))
    }
    playlistItems += playlists.map {
      .playlist(
        PlaylistSummary(
          id: String($0.id), provider: name, title: $0.name, trackCount: $0.trackCount))
    }
    var sections: [HomeSection] = []
    if !playlistItems.isEmpty {
      sections.append(
        HomeSection(
          id: "spotify-playlists", title: "Playlists", kind: .playlists, items: playlistItems))
    }
    if !albums.isEmpty {
      sections.append(
        HomeSection(
          id: "spotify-albums", title: "Saved albums", kind: .other,
          items: albums.map { .album($0) }))
    }
    if sections.isEmpty {
      throw CatalogError.unavailable(
        "nothing imported from Spotify yet: run `refrain spotify login`, then `refrain spotify import`"
      )
    }
    return sections
  }

  public func search(_ query: String, kind: SearchKind, offset: Int, limit: Int) async throws
    -> Page<CatalogItem>
  {
    let offset = max(0, offset)
    let words = query.lowercased().split(whereSeparator: \.isWhitespace)
    let contains = { (text: String?) in
      let lower = (text ?? "").lowercased()
      return words.allSatisfy { lower.contains($0) }
    }
    switch kind {
    case .track:
      let found = try store.spotifyImport.searchSpotifyTracks(
        query, offset: offset, limit: max(1, limit))
      return Page(items: found.tracks.map { .track($0) }, offset: offset, total: found.total)
    case .album:
      let albums = try store.savedAlbums().filter {
        $0.provider == name && (contains($0.title) || contains($0.artist))
      }
      return Self.page(albums.map { .album($0) }, offset: offset, limit: limit)
    case .playlist:
      let playlists = try store.spotifyImport.spotifyPlaylists().filter { contains($0.name) }.map {
        CatalogItem.playlist(
          PlaylistSummary(
            id: String($0.id), provider: name, title: $0.name, trackCount: $0.trackCount))
      }
      return Self.page(playlists, offset: offset, limit: limit)
    case .artist, .lyric:
      return Page(items: [], offset: offset, total: 0)
    }
  }

  public func album(id: String) async throws -> AlbumDetail {
    guard let album = try store.savedAlbums().first(where: { $0.provider == name && $0.id == id })
    else { throw CatalogError.notFound("album \(id)") }
    return AlbumDetail(album: album, tracks: try store.spotifyImport.spotifyAlbumTracks(id))
  }

  public func artist(id: String) async throws -> ArtistDetail {
    throw CatalogError.unsupported("artist pages (search the imported tracks instead)")
  }

  public func playlist(id: String, offset: Int, limit: Int) async throws -> PlaylistDetail {
    let offset = max(0, offset)
    if id == Self.likedID {
      let liked = try store.spotifyImport.spotifyLikedTracks()
      let page = Array(liked.dropFirst(offset).prefix(max(1, limit)))
      return PlaylistDetail(
        playlist: PlaylistSummary(
          id: id, provider: name, title: "Liked Songs", owner: "you", trackCount: liked.count),
        tracks: Page(items: page, offset: offset, total: liked.count))
    }
    guard let number = Int64(id),
      let playlist = try store.spotifyImport.spotifyPlaylists().first(where: { $0.id == number })
    else { throw CatalogError.notFound("playlist \(id)") }
    let tracks = try store.spotifyImport.spotifyPlaylistTracks(
      number, offset: offset, limit: max(1, limit))
    return PlaylistDetail(
      playlist: PlaylistSummary(
        id: id, provider: name, title: playlist.name, trackCount: playlist.trackCount),
      tracks: Page(items: tracks, offset: offset, total: playlist.trackCount))
  }

  /// A track matched to the user's server seeks as the server's own tracks do (a transcoded
  /// stream may refuse); the others seek as their decoder can.
  public func seeking(for track: CatalogTrack) -> StreamSeeking? {
    guard let server, track.streamURL?.scheme == "subsonic" else { return nil }
    return server.seeking(
      for: CatalogTrack(id: track.id, provider: server.name, title: track.title))
  }

  public func streamURL(for track: CatalogTrack) async throws -> URL {
    guard track.provider == name else {
      guard let url = track.streamURL else {
        throw CatalogError.unplayable(track.unplayableReason ?? "\(track.title) has no audio")
      }
      return url
    }
    let match = try store.spotifyImport.spotifyMatch(for: track.id)
    switch match?.kind {
    case .local?:
      guard let path = match?.localPath, FileManager.default.fileExists(atPath: path) else {
        throw CatalogError.unplayable(
          "the local file matched to \(track.title) is gone; run `refrain scan`, then `refrain spotify import`"
        )
      }
      return URL(fileURLWithPath: path)
    case .subsonic?:
      guard let server, let id = match?.serverID else {
        throw CatalogError.unplayable(
          "\(track.title) plays from your Subsonic server: log in with `refrain subsonic login`")
      }
      return try await server.streamURL(
        for: CatalogTrack(id: id, provider: server.name, title: track.title))
    case .preview?:
      guard let previews, let id = match?.previewID else {
        throw CatalogError.unplayable(
          "\(track.title) plays from the online catalog's preview, which is not configured")
      }
      return try await previews.streamURL(
        for: CatalogTrack(id: id, provider: "deezer", title: track.title))
    default:
      throw CatalogError.unplayable(
        match?.reason ?? "\(track.title) is not matched yet: run `refrain spotify import`")
    }
  }

  private static func page(_ items: [CatalogItem], offset: Int, limit: Int) -> Page<CatalogItem> {
    Page(
      items: Array(items.dropFirst(offset).prefix(max(1, limit))), offset: offset,
      total: items.count)
  }
}
