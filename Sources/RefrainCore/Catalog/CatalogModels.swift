import Foundation

/// A track as a catalog lists it; it may be unplayable (no preview, a missing file).
public struct CatalogTrack: Sendable, Hashable, Codable {
  /// The provider's identifier (online IDs exceed 32 bits, so IDs are strings).
  public var id: String
  /// The provider's name: `demo`, `local`, `deezer`.
  public var provider: String
  /// The title.
  public var title: String
  /// The main artist's name.
  public var artist: String?
  /// The artist's identifier within the provider.
  public var artistID: String?
  /// The album's title.
  public var album: String?
  /// The album's identifier within the provider.
  public var albumID: String?
  /// The duration in seconds (for previews: the full track's length).
  public var duration: Double?
  /// The track number on its album.
  public var trackNumber: Int?
  /// Where the audio is; `nil` when the track cannot be played.
  public var streamURL: URL?
  /// Why the track cannot be played, when `streamURL` is `nil`.
  public var unplayableReason: String?
  /// A cover image (file or HTTP URL).
  public var coverURL: URL?
  /// A lyrics file the catalog supplies, if any.
  public var lyricsURL: URL?
  /// The recording's ISRC, when the catalog gives one.
  public var isrc: String?
  /// For a track imported from another service: what plays it, `local` (a file of the
  /// user's) or `preview` (the online catalog's); `nil` when nothing does.
  public var match: String?

  /// Creates a catalog track.
  public init(
    id: String, provider: String, title: String, artist: String? = nil, artistID: String? = nil,
    album: String? = nil, albumID: String? = nil, duration: Double? = nil, trackNumber: Int? = nil,
    streamURL: URL? = nil, unplayableReason: String? = nil, coverURL: URL? = nil,
    lyricsURL: URL? = nil, isrc: String? = nil, match: String? = nil
  ) {
    self.id = id
    self.provider = provider
    self.title = title
    self.artist = artist
    self.artistID = artistID
    self.album = album
    self.albumID = albumID
    self.duration = duration
    self.trackNumber = trackNumber
    self.streamURL = streamURL
    self.unplayableReason = unplayableReason
    self.coverURL = coverURL
    self.lyricsURL = lyricsURL
    self.isrc = isrc
    self.match = match
  }

  /// Whether the track has audio to play.
  public var isPlayable: Bool { streamURL != nil }

  /// The track's identity across catalogs: its catalog and its ID there.
  public var catalogID: CatalogTrackID { CatalogTrackID(provider: provider, id: id) }

  /// The playable track, or `nil` when there is no audio.
  public var playable: Track? {
    guard let streamURL else { return nil }
    var track = Track(
      id: catalogID.key, location: streamURL, title: title, artist: artist, album: album,
      duration: duration, provider: provider, lyricsURL: lyricsURL)
    track.catalogID = catalogID
    track.coverURL = coverURL
    return track
  }
}

/// An album as a catalog lists it.
public struct AlbumSummary: Sendable, Hashable, Codable {
  public var id: String
  public var provider: String
  public var title: String
  public var artist: String?
  public var artistID: String?
  public var year: Int?
  public var trackCount: Int?
  public var coverURL: URL?

  /// Creates an album summary.
  public init(
    id: String, provider: String, title: String, artist: String? = nil, artistID: String? = nil,
    year: Int? = nil, trackCount: Int? = nil, coverURL: URL? = nil
  ) {
    self.id = id
    self.provider = provider
    self.title = title
    self.artist = artist
    self.artistID = artistID
    self.year = year
    self.trackCount = trackCount
    self.coverURL = coverURL
  }
}

/// An artist as a catalog lists it.
public struct ArtistSummary: Sendable, Hashable, Codable {
  public var id: String
  public var provider: String
  public var name: String
  public var albumCount: Int?
  public var pictureURL: URL?

  /// Creates an artist summary.
  public init(
    id: String, provider: String, name: String, albumCount: Int? = nil, pictureURL: URL? = nil
  ) {
    self.id = id
    self.provider = provider
    self.name = name
    self.albumCount = albumCount
    self.pictureURL = pictureURL
  }
}

/// A playlist as a catalog lists it.
public struct PlaylistSummary: Sendable, Hashable, Codable {
  public var id: String
  public var provider: String
  public var title: String
  /// Who made it (Deezer calls this `creator` on details and `user` in lists).
  public var owner: String?
  public var trackCount: Int?
  public var coverURL: URL?

  /// Creates a playlist summary.
  public init(
    id: String, provider: String, title: String, owner: String? = nil, trackCount: Int? = nil,
    coverURL: URL? = nil
  ) {
    self.id = id
    self.provider = provider
    self.title = title
    self.owner = owner
    self.trackCount = trackCount
    self.coverURL = coverURL
  }
}

/// A genre as a catalog lists it.
public struct GenreSummary: Sendable, Hashable, Codable {
  public var id: String
  public var provider: String
  public var name: String
  public var pictureURL: URL?

  /// Creates a genre summary.
  public init(id: String, provider: String, name: String, pictureURL: URL? = nil) {
    self.id = id
    self.provider = provider
    self.name = name
    self.pictureURL = pictureURL
  }
}

/// A line of a track's lyrics that a search found: the track, and which line and when.
public struct LyricMatch: Sendable, Hashable, Codable {
  public var track: CatalogTrack
  /// The line's place in the lyrics (0 is the first line).
  public var lineIndex: Int
  /// When the line is sung, in milliseconds; `nil` for plain lyrics.
  public var ms: Int?
  /// The line's text.
  public var text: String

  public init(track: CatalogTrack, lineIndex: Int, ms: Int?, text: String) {
    self.track = track
    self.lineIndex = lineIndex
    self.ms = ms
    self.text = text
  }
}

/// One entry of a list in a pane: any kind of catalog item.
public enum CatalogItem: Sendable, Hashable, Codable {
  case track(CatalogTrack)
  case album(AlbumSummary)
  case artist(ArtistSummary)
  case playlist(PlaylistSummary)
  case genre(GenreSummary)
  /// A line of a track's lyrics that matched a search.
  case lyric(LyricMatch)

  /// The item's main line of text (title or name).
  public var title: String {
    switch self {
    case .track(let track): return track.title
    case .album(let album): return album.title
    case .artist(let artist): return artist.name
    case .playlist(let playlist): return playlist.title
    case .genre(let genre): return genre.name
    case .lyric(let match): return match.track.title
    }
  }

  /// The catalog the item comes from (`demo`, `local`, `subsonic`, …).
  public var catalogProvider: String {
    switch self {
    case .track(let track): return track.provider
    case .album(let album): return album.provider
    case .artist(let artist): return artist.provider
    case .playlist(let playlist): return playlist.provider
    case .genre(let genre): return genre.provider
    case .lyric(let match): return match.track.provider
    }
  }

  /// The item's kind as the command line names it.
  public var kind: String {
    switch self {
    case .track: return "track"
    case .album: return "album"
    case .artist: return "artist"
    case .playlist: return "playlist"
    case .genre: return "genre"
    case .lyric: return "lyric"
    }
  }
}

/// A track's identity: the catalog it comes from and its ID there, compared as a value.
public struct CatalogTrackID: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The catalog (`demo`, `local`, `deezer`, …).
  public var provider: String
  /// The track's ID within that catalog.
  public var id: String

  /// Creates an identity.
  public init(provider: String, id: String) {
    self.provider = provider
    self.id = id
  }

  /// `provider:id`: the key the library stores per-track data (lyric offsets) under.
  public var key: String { "\(provider):\(id)" }

  public var description: String { key }
}

extension CatalogTrack {
  /// The track as the library keeps it: a URL that carries a login (a Subsonic server's
  /// `t`, `s` or `p`, a token) is dropped, and is built again from the stored login when the
  /// track plays (the catalog resolves every stored track before it plays).
  public var withoutCredentials: CatalogTrack {
    var kept = self
    if let url = streamURL, url.carriesCredentials { kept.streamURL = nil }
    if let url = coverURL, url.carriesCredentials { kept.coverURL = nil }
    if let url = lyricsURL, url.carriesCredentials { kept.lyricsURL = nil }
    return kept
  }
}

extension URL {
  /// Whether the URL holds something ``SecretRedaction`` takes out: a password, a token.
  public var carriesCredentials: Bool {
    SecretRedaction.redacting(absoluteString) != absoluteString
  }
}
