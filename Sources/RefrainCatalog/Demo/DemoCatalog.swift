import Foundation
import RefrainCore

/// The demo catalog resolved from `catalog.json`: every reference checked, every path a file URL.
///
/// A track whose MP3 is missing stays listed but unplayable, with a reason that says how to
/// regenerate the files; a reference to an unknown ID makes the whole catalog malformed.
struct DemoCatalog: Sendable {
  /// The provider name every item carries.
  static let provider = "demo"

  /// Every track, in `catalog.json` order.
  private(set) var tracks: [CatalogTrack] = []
  /// Every album, in `catalog.json` order.
  private(set) var albums: [AlbumSummary] = []
  /// Every artist, in `catalog.json` order.
  private(set) var artists: [ArtistSummary] = []
  /// Every playlist, in `catalog.json` order.
  private(set) var playlists: [PlaylistSummary] = []
  /// Every genre, in `catalog.json` order.
  private(set) var genres: [GenreSummary] = []
  /// The Home pane's sections.
  private(set) var home: [HomeSection] = []

  private var trackIndex: [String: Int] = [:]
  private var albumIndex: [String: Int] = [:]
  private var artistIndex: [String: Int] = [:]
  private var playlistIndex: [String: Int] = [:]
  private var genreIndex: [String: Int] = [:]
  private var albumTrackIDs: [String: [String]] = [:]
  private var albumGenreIDs: [String: [String]] = [:]
  private var playlistTrackIDs: [String: [String]] = [:]

  /// Resolves a decoded file; relative paths are taken from `folder`.
  init(file: DemoCatalogFile, folder: URL) throws(DemoCatalogProblem) {
    guard file.format == DemoCatalogFile.supportedFormat else {
      throw DemoCatalogProblem(
        "format \(file.format) is not format \(DemoCatalogFile.supportedFormat), which this "
          + "Refrain reads")
    }
    func url(_ path: String?) -> URL? {
      path.map { folder.appendingPathComponent($0) }
    }

    artistIndex = try Self.index(file.artists.map(\.id), kind: "artist")
    genreIndex = try Self.index(file.genres.map(\.id), kind: "genre")
    albumIndex = try Self.index(file.albums.map(\.id), kind: "album")
    trackIndex = try Self.index(file.tracks.map(\.id), kind: "track")
    playlistIndex = try Self.index(file.playlists.map(\.id), kind: "playlist")

    genres = file.genres.map {
      GenreSummary(id: $0.id, provider: Self.provider, name: $0.name, pictureURL: url($0.picture))
    }
    artists = file.artists.map { artist in
      ArtistSummary(
        id: artist.id, provider: Self.provider, name: artist.name,
        albumCount: file.albums.filter { $0.artist == artist.id }.count,
        pictureURL: url(artist.picture))
    }
    var albumOfTrack: [String: (album: DemoCatalogFile.Album, number: Int)] = [:]
    for album in file.albums {
      guard let artist = artistIndex[album.artist] else {
        throw DemoCatalogProblem(
          "album \"\(album.id)\" names an unknown artist \"\(album.artist)\"")
      }
      for genre in album.genres ?? [] where genreIndex[genre] == nil {
        throw DemoCatalogProblem("album \"\(album.id)\" names an unknown genre \"\(genre)\"")
      }
      try Self.check(album.tracks, known: trackIndex, owner: "album \"\(album.id)\"")
      for (offset, trackID) in album.tracks.enumerated() where albumOfTrack[trackID] == nil {
        albumOfTrack[trackID] = (album, offset + 1)
      }
      albumTrackIDs[album.id] = album.tracks
      albumGenreIDs[album.id] = album.genres ?? []
      albums.append(
        AlbumSummary(
          id: album.id, provider: Self.provider, title: album.title,
          artist: artists[artist].name, artistID: album.artist, year: album.year,
          trackCount: album.tracks.count, coverURL: url(album.cover)))
    }
    for track in file.tracks {
      guard let artist = artistIndex[track.artist] else {
        throw DemoCatalogProblem(
          "track \"\(track.id)\" names an unknown artist \"\(track.artist)\"")
      }
      let placement = albumOfTrack[track.id]
      let audio = folder.appendingPathComponent(track.file)
      let present = FileManager.default.fileExists(atPath: audio.path)
      tracks.append(
        CatalogTrack(
          id: track.id, provider: Self.provider, title: track.title,
          artist: artists[artist].name, artistID: track.artist, album: placement?.album.title,
          albumID: placement?.album.id, duration: track.duration, trackNumber: placement?.number,
          streamURL: present ? audio : nil,
          unplayableReason: present
            ? nil : "the demo file \(audio.path) is missing; run scripts/make-demo-catalog",
          coverURL: url(placement?.album.cover), lyricsURL: url(track.lyrics)))
    }
    for playlist in file.playlists {
      try Self.check(playlist.tracks, known: trackIndex, owner: "playlist \"\(playlist.id)\"")
      playlistTrackIDs[playlist.id] = playlist.tracks
      playlists.append(
        PlaylistSummary(
          id: playlist.id, provider: Self.provider, title: playlist.title, owner: playlist.owner,
          trackCount: playlist.tracks.count, coverURL: url(playlist.cover)))
    }
    for section in file.home {
      guard let kind = HomeSectionKind(rawValue: section.kind) else {
        throw DemoCatalogProblem(
          "home section \"\(section.id)\" has an unknown kind \"\(section.kind)\"")
      }
      var items: [CatalogItem] = []
      for reference in section.items {
        guard let item = item(reference) else {
          throw DemoCatalogProblem(
            "home section \"\(section.id)\" lists \"\(reference)\", which is not in the catalog")
        }
        items.append(item)
      }
      home.append(HomeSection(id: section.id, title: section.title, kind: kind, items: items))
    }
  }

  // MARK: - Lookups

  /// The track with this ID.
  func track(_ id: String) -> CatalogTrack? {
    trackIndex[id].map { tracks[$0] }
  }

  /// The album with this ID.
  func album(_ id: String) -> AlbumSummary? {
    albumIndex[id].map { albums[$0] }
  }

  /// The artist with this ID.
  func artist(_ id: String) -> ArtistSummary? {
    artistIndex[id].map { artists[$0] }
  }

  /// The playlist with this ID.
  func playlist(_ id: String) -> PlaylistSummary? {
    playlistIndex[id].map { playlists[$0] }
  }

  /// The genre with this ID.
  func genre(_ id: String) -> GenreSummary? {
    genreIndex[id].map { genres[$0] }
  }

  /// An album's tracks in track-number order.
  func tracks(ofAlbum id: String) -> [CatalogTrack] {
    (albumTrackIDs[id] ?? []).compactMap(track)
  }

  /// A playlist's tracks in playlist order.
  func tracks(ofPlaylist id: String) -> [CatalogTrack] {
    (playlistTrackIDs[id] ?? []).compactMap(track)
  }

  /// The genres an album belongs to.
  func genreIDs(ofAlbum id: String) -> [String] {
    albumGenreIDs[id] ?? []
  }

  /// The item a Home reference such as `album:blue-hour` names.
  func item(_ reference: String) -> CatalogItem? {
    let parts = reference.split(separator: ":", maxSplits: 1).map(String.init)
    guard parts.count == 2 else { return nil }
    switch parts[0] {
    case "track": return track(parts[1]).map(CatalogItem.track)
    case "album": return album(parts[1]).map(CatalogItem.album)
    case "artist": return artist(parts[1]).map(CatalogItem.artist)
    case "playlist": return playlist(parts[1]).map(CatalogItem.playlist)
    case "genre": return genre(parts[1]).map(CatalogItem.genre)
    default: return nil
    }
  }

  // MARK: - Validation

  /// Maps IDs to their positions, rejecting empty and repeated IDs.
  private static func index(_ ids: [String], kind: String) throws(DemoCatalogProblem) -> [String:
    Int]
  {
    var index: [String: Int] = [:]
    for (position, id) in ids.enumerated() {
      guard !id.isEmpty else {
        throw DemoCatalogProblem("\(kind) #\(position + 1) has an empty id")
      }
      guard index[id] == nil else { throw DemoCatalogProblem("\(kind) \"\(id)\" is listed twice") }
      index[id] = position
    }
    return index
  }

  /// Rejects a track list that names an unknown track.
  private static func check(_ ids: [String], known: [String: Int], owner: String)
    throws(DemoCatalogProblem)
  {
    if let unknown = ids.first(where: { known[$0] == nil }) {
      throw DemoCatalogProblem("\(owner) lists an unknown track \"\(unknown)\"")
    }
  }
}
