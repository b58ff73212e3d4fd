import Foundation
import RefrainCore
import RefrainHTTP

/// The user's own Subsonic or OpenSubsonic server (Navidrome, gonic, Airsonic…) as a catalog.
///
/// Every call goes to the server with the stored login (`subsonic.json`); without one, each
/// call fails with a line saying how to log in. Tracks play from `stream.view` in the format
/// the server stores them (no `format`, no `maxBitRate`), so the player can ask for byte
/// ranges when it seeks; with a ``SubsonicTranscode`` format, transcoded, seeking by
/// `timeOffset` where the server offers it (``seeking(for:)``).
public struct SubsonicCatalogProvider: CatalogProvider {
  public let name = SubsonicMapping.provider
  private let client: SubsonicClient?
  private let mapping: SubsonicMapping?
  private let transcode: SubsonicTranscode
  private let extensions: [String]

  /// How many albums each Home section lists.
  static let homeSize = 20

  /// The provider for `account` (none: every call says to log in), over `http`, streaming
  /// tracks as `transcode` says.
  public init(
    account: SubsonicAccount?, transcode: SubsonicTranscode = .raw,
    http: HTTPClient = SubsonicClient.httpClient()
  ) {
    self.transcode = transcode
    extensions = account?.extensions ?? []
    guard let account else {
      client = nil
      mapping = nil
      return
    }
    let api = SubsonicAPI(account: account)
    client = SubsonicClient(api: api, http: http)
    mapping = SubsonicMapping(api: api)
  }

  // MARK: - CatalogProvider

  /// Recently added, most played, random and starred albums, and the server's playlists;
  /// a section the server cannot give is left out, and only when all fail does this throw.
  public func home() async throws -> [HomeSection] {
    let (client, mapping) = try connected()
    async let newest = attempt { try await albumList(client, "newest") }
    async let frequent = attempt { try await albumList(client, "frequent") }
    async let random = attempt { try await albumList(client, "random") }
    async let starred = attempt { try await albumList(client, "starred") }
    async let playlists = attempt {
      try await client.call(SubsonicPlaylistsBody.self, "getPlaylists").playlists?.playlist ?? []
    }
    async let stations = attempt { try await Self.stations(client) }
    let lists: [(String, String, HomeSectionKind, Result<[SubsonicAlbum], SubsonicError>)] = [
      ("subsonic.newest", "Recently added", .newReleases, await newest),
      ("subsonic.frequent", "Most played", .other, await frequent),
      ("subsonic.random", "Random albums", .other, await random),
      ("subsonic.starred", "Starred albums", .other, await starred),
    ]
    var sections: [HomeSection] = []
    var failures: [SubsonicError] = []
    for (id, title, kind, result) in lists {
      switch result {
      case .success(let albums) where !albums.isEmpty:
        sections.append(
          HomeSection(
            id: id, title: title, kind: kind, items: albums.map { .album(mapping.album($0)) }))
      case .success: break
      case .failure(let error): failures.append(error)
      }
    }
    switch await playlists {
    case .success(let records) where !records.isEmpty:
      sections.append(
        HomeSection(
          id: "subsonic.playlists", title: "Playlists", kind: .playlists,
          items: records.map { .playlist(mapping.playlist($0)) }))
    case .success: break
    case .failure(let error): failures.append(error)
    }
    if failures.count == lists.count + 1, let first = failures.first {
      throw Self.catalogError(first)
    }
    // Internet radio came with API 1.9: a server without it just has no such section.
    if case .success(let tracks) = await stations, !tracks.isEmpty {
      sections.append(
        HomeSection(
          id: "subsonic.radio", title: "Radio stations", kind: .other,
          items: tracks.map { .track($0) }))
    }
    return sections
  }

  /// `search3` for one kind: the other kinds' counts are 0.
  public func search(_ query: String, kind: SearchKind, offset: Int, limit: Int) async throws
    -> Page<CatalogItem>
  {
    let (client, mapping) = try connected()
    let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
    let offset = max(0, offset)
    guard !text.isEmpty, kind == .track || kind == .album || kind == .artist else {
      return Page(items: [], offset: offset, total: 0)
    }
    let count = String(min(max(1, limit), 500))
    var parameters = [("query", text)]
    for (name, wanted) in [("artist", SearchKind.artist), ("album", .album), ("song", .track)] {
      parameters.append(("\(name)Count", kind == wanted ? count : "0"))
      if kind == wanted { parameters.append(("\(name)Offset", String(offset))) }
    }
    let result = try await call(SubsonicSearchBody.self, "search3", parameters).searchResult3
    let items: [CatalogItem]
    switch kind {
    case .track: items = (result?.song ?? []).map { .track(mapping.track($0)) }
    case .album: items = (result?.album ?? []).map { .album(mapping.album($0)) }
    default: items = (result?.artist ?? []).map { .artist(mapping.artist($0)) }
    }
    // search3 gives no total: a full page may have more behind it.
    let full = items.count >= min(max(1, limit), 500)
    return Page(items: items, offset: offset, total: full ? nil : offset + items.count)
  }

  public func album(id: String) async throws -> AlbumDetail {
    let (_, mapping) = try connected()
    let record = try await call(
      SubsonicAlbumBody.self, "getAlbum", [("id", id)], item: "album \(id)"
    )
    .album
    return AlbumDetail(album: mapping.album(record), tracks: (record.song ?? []).map(mapping.track))
  }

  /// The artist's albums; Subsonic has no top tracks without Last.fm, so those stay empty.
  public func artist(id: String) async throws -> ArtistDetail {
    let (_, mapping) = try connected()
    let record = try await call(
      SubsonicArtistBody.self, "getArtist", [("id", id)], item: "artist \(id)"
    ).artist
    return ArtistDetail(
      artist: mapping.artist(record), topTracks: [],
      albums: (record.album ?? []).map(mapping.album))
  }

  public func playlist(id: String, offset: Int, limit: Int) async throws -> PlaylistDetail {
    let (_, mapping) = try connected()
    let record = try await call(
      SubsonicPlaylistBody.self, "getPlaylist", [("id", id)], item: "playlist \(id)"
    ).playlist
    let entries = record.entry ?? []
    let start = min(max(0, offset), entries.count)
    let end = min(entries.count, start + max(1, limit))
    var summary = mapping.playlist(record)
    summary.trackCount = summary.trackCount ?? entries.count
    return PlaylistDetail(
      playlist: summary,
      tracks: Page(
        items: entries[start..<end].map(mapping.track), offset: start, total: entries.count))
  }

  /// The authenticated `stream.view` URL of the song, once `getSong` says the server still
  /// has it: a track it no longer has is unplayable, with a reason, and not sent to the
  /// player (whose error would be "not audio").
  public func streamURL(for track: CatalogTrack) async throws -> URL {
    // A radio station plays from its own address.
    if track.provider == Self.stationProvider, let url = track.streamURL { return url }
    let (client, _) = try connected()
    do {
      _ = try await client.call(SubsonicSongBody.self, "getSong", [("id", track.id)])
    } catch SubsonicError.server(code: 70, message: _) {
      throw CatalogError.unplayable("the server no longer has it")
    } catch {
      throw Self.catalogError(error)
    }
    do {
      return try client.api.streamURL(songID: track.id, transcode: transcode)
    } catch {
      throw Self.catalogError(.network(error))
    }
  }

  /// How seeks move the server's tracks: `nil` for the stored file and for radio stations,
  /// else as ``SubsonicTranscode/seeking(extensions:)`` says for the login's extensions.
  public func seeking(for track: CatalogTrack) -> StreamSeeking? {
    guard track.provider != Self.stationProvider else { return nil }
    return transcode.seeking(extensions: extensions)
  }

  // MARK: - Plumbing

  private func connected() throws -> (SubsonicClient, SubsonicMapping) {
    guard let client, let mapping else {
      throw CatalogError.unavailable(SubsonicError.notLoggedIn.description)
    }
    return (client, mapping)
  }

  private func albumList(_ client: SubsonicClient, _ type: String) async throws(SubsonicError)
    -> [SubsonicAlbum]
  {
    try await client.call(
      SubsonicAlbumListBody.self, "getAlbumList2",
      [("type", type), ("size", String(Self.homeSize))]
    ).albumList2?.album ?? []
  }

  private func call<Body: Decodable & Sendable>(
    _ type: Body.Type, _ method: String, _ parameters: [(String, String)], item: String? = nil
  ) async throws -> Body {
    let (client, _) = try connected()
    do {
      return try await client.call(type, method, parameters)
    } catch {
      throw Self.catalogError(error, item: item)
    }
  }

  /// Runs `body` to its end without throwing, so concurrent requests all finish.
  private func attempt<Value: Sendable>(
    _ body: @Sendable () async throws -> Value
  ) async -> Result<Value, SubsonicError> {
    do {
      return .success(try await body())
    } catch let error as SubsonicError {
      return .failure(error)
    } catch {
      return .failure(.network(.cancelled))
    }
  }

  /// The catalog's error for a Subsonic one: "not found" for error 70 and HTTP 404 about an
  /// item, and the Subsonic line otherwise.
  static func catalogError(_ error: SubsonicError, item: String? = nil) -> CatalogError {
    switch error {
    case .server(70, _):
      return .notFound(item ?? "the item")
    case .server(0, let message) where item != nil && message.lowercased().contains("not found"):
      return .notFound(item ?? "the item")
    default:
      return .unavailable("the Subsonic server: \(error)")
    }
  }
}

// MARK: - Stars

extension SubsonicCatalogProvider: CatalogStarring {
  /// Reads `starred` from `getSong` or `getAlbum`.
  public func isStarred(_ item: CatalogItem) async throws -> Bool {
    switch item {
    case .track(let track):
      return try await call(
        SubsonicSongBody.self, "getSong", [("id", track.id)], item: "track \(track.title)"
      ).song.starred != nil
    case .album(let album):
      return try await call(
        SubsonicAlbumBody.self, "getAlbum", [("id", album.id)], item: "album \(album.title)"
      ).album.starred != nil
    default:
      throw CatalogError.unsupported("stars on \(item.kind)s")
    }
  }

  /// `star.view` or `unstar.view` with `id` (a song) or `albumId` (an album).
  public func setStarred(_ item: CatalogItem, _ starred: Bool) async throws {
    let parameter: (String, String)
    switch item {
    case .track(let track): parameter = ("id", track.id)
    case .album(let album): parameter = ("albumId", album.id)
    default: throw CatalogError.unsupported("stars on \(item.kind)s")
    }
    _ = try await call(
      SubsonicEmpty.self, starred ? "star" : "unstar", [parameter], item: item.title)
  }

  /// `getStarred2`: the starred songs, then the starred albums.
  public func starred() async throws -> [CatalogItem] {
    let (_, mapping) = try connected()
    let lists = try await call(SubsonicStarredBody.self, "getStarred2", []).starred2
    return (lists?.song ?? []).map { .track(mapping.track($0)) }
      + (lists?.album ?? []).map { .album(mapping.album($0)) }
  }
}

// MARK: - Playlists

extension SubsonicCatalogProvider: CatalogPlaylists {
  /// `getPlaylists`.
  public func playlists() async throws -> [PlaylistSummary] {
    let (_, mapping) = try connected()
    return try await call(SubsonicPlaylistsBody.self, "getPlaylists", []).playlists?.playlist?
      .map(mapping.playlist) ?? []
  }

  /// `getPlaylist`, with its count taken from its entries.
  public func playlistTracks(id: String) async throws -> (PlaylistSummary, [CatalogTrack]) {
    let (_, mapping) = try connected()
    let record = try await call(
      SubsonicPlaylistBody.self, "getPlaylist", [("id", id)], item: "playlist \(id)"
    ).playlist
    var summary = mapping.playlist(record)
    let tracks = (record.entry ?? []).map(mapping.track)
    summary.trackCount = tracks.count
    return (summary, tracks)
  }

  /// `createPlaylist` with `name`. A server before API 1.14 answers without the playlist, so
  /// its id is the one `getPlaylists` lists with that name that was not there before.
  public func createPlaylist(named name: String, with tracks: [CatalogTrack]) async throws
    -> PlaylistSummary
  {
    let (_, mapping) = try connected()
    let songs = try songIDs(tracks)
    let before = Set(try await playlists().map(\.id))
    let created = try await call(
      SubsonicCreatedBody.self, "createPlaylist", [("name", name)] + songs.map { ("songId", $0) })
    if let record = created.playlist { return mapping.playlist(record) }
    guard
      let made = try await playlists().first(where: { $0.title == name && !before.contains($0.id) })
    else {
      throw CatalogError.unavailable("the Subsonic server did not list the playlist it made")
    }
    return made
  }

  /// `updatePlaylist` with `name`.
  public func renamePlaylist(id: String, to name: String) async throws {
    try await update(id, [("name", name)])
  }

  /// `deletePlaylist`.
  public func deletePlaylist(id: String) async throws {
    _ = try await call(SubsonicEmpty.self, "deletePlaylist", [("id", id)], item: "playlist \(id)")
  }

  /// `updatePlaylist` with a `songIdToAdd` for each track; any track of another catalog is
  /// refused before anything is sent.
  public func addTracks(_ tracks: [CatalogTrack], toPlaylist id: String) async throws {
    try await update(id, try songIDs(tracks).map { ("songIdToAdd", $0) })
  }

  /// The server's song ids of `tracks`; throws for a track of another catalog.
  private func songIDs(_ tracks: [CatalogTrack]) throws -> [String] {
    if let other = tracks.first(where: { $0.provider != name }) {
      throw CatalogError.unavailable(
        "\(other.title) is not one of the Subsonic server's tracks; only those go in its playlists")
    }
    return tracks.map(\.id)
  }

  /// `updatePlaylist` with `songIndexToRemove` (which counts from 0).
  public func removeTrack(at position: Int, fromPlaylist id: String) async throws {
    try await update(id, [("songIndexToRemove", String(position))])
  }

  /// `createPlaylist` with `playlistId` and every song id in the new order, which replaces
  /// the playlist's songs (updatePlaylist has no way to move one).
  public func moveTrack(inPlaylist id: String, from: Int, to: Int) async throws {
    var songs = try await playlistTracks(id: id).1.map(\.id)
    guard songs.indices.contains(from), songs.indices.contains(to) else {
      throw CatalogError.notFound("position \(max(from, to) + 1) in playlist \(id)")
    }
    songs.insert(songs.remove(at: from), at: to)
    _ = try await call(
      SubsonicCreatedBody.self, "createPlaylist",
      [("playlistId", id)] + songs.map { ("songId", $0) }, item: "playlist \(id)")
  }

  private func update(_ id: String, _ parameters: [(String, String)]) async throws {
    _ = try await call(
      SubsonicEmpty.self, "updatePlaylist", [("playlistId", id)] + parameters,
      item: "playlist \(id)")
  }
}
