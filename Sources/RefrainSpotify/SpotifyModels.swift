import Foundation
import RefrainCatalog
import RefrainCore
import RefrainHTTP

/// The parts of Spotify's Web API objects an import reads.
///
/// Every field that Spotify has
/// dropped for some apps, or that differs between the object's full and simplified forms,
/// is optional, so an answer missing it is still read.
enum SpotifyObjects {
  /// A page of a list: `items`, and the absolute address of the next page or `null`.
  struct Paging<Item: Decodable & Sendable>: Decodable, Sendable {
    var items: [Item]
    var next: String?
    var total: Int?
  }

  struct User: Decodable, Sendable {
    var id: String
    var displayName: String?
    enum CodingKeys: String, CodingKey {
      case id
      case displayName = "display_name"
    }
  }

  struct Artist: Decodable, Sendable {
    var id: String?
    var name: String
  }

  struct Image: Decodable, Sendable {
    var url: String
    var width: Int?
  }

  struct AlbumRef: Decodable, Sendable {
    var id: String?
    var name: String?
    var images: [Image]?
  }

  struct ExternalIDs: Decodable, Sendable {
    var isrc: String?
  }

  /// A track, full (with album and ISRC) or simplified (an album's track list).
  struct Track: Decodable, Sendable {
    var id: String?
    var name: String?
    var type: String?
    var durationMs: Int?
    var trackNumber: Int?
    var artists: [Artist]?
    var album: AlbumRef?
    var externalIDs: ExternalIDs?
    var isLocal: Bool?
    enum CodingKeys: String, CodingKey {
      case id, name, type, artists, album
      case durationMs = "duration_ms"
      case trackNumber = "track_number"
      case externalIDs = "external_ids"
      case isLocal = "is_local"
    }
  }

  struct PlaylistOwner: Decodable, Sendable {
    var id: String?
    var displayName: String?
    enum CodingKeys: String, CodingKey {
      case id
      case displayName = "display_name"
    }
  }

  struct Playlist: Decodable, Sendable {
    var id: String
    var name: String
    var snapshotID: String?
    var owner: PlaylistOwner?
    enum CodingKeys: String, CodingKey {
      case id, name, owner
      case snapshotID = "snapshot_id"
    }
  }

  /// One entry of a playlist: the track is `item` since 2026 and `track` before.
  struct PlaylistEntry: Decodable, Sendable {
    var addedAt: String?
    var isLocal: Bool?
    var item: Track?
    var track: Track?
    enum CodingKeys: String, CodingKey {
      case item, track
      case addedAt = "added_at"
      case isLocal = "is_local"
    }
    /// The entry's track, when it is one Spotify can name (not an episode or a local file).
    var playableTrack: Track? {
      guard isLocal != true, let track = item ?? track, track.isLocal != true,
        track.type == nil || track.type == "track", track.id != nil, track.name != nil
      else { return nil }
      return track
    }

    /// Decodes `item` and `track` leniently: an episode or an unknown shape is no track.
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      addedAt = try? container.decodeIfPresent(String.self, forKey: .addedAt)
      isLocal = try? container.decodeIfPresent(Bool.self, forKey: .isLocal)
      item = try? container.decodeIfPresent(Track.self, forKey: .item)
      track = try? container.decodeIfPresent(Track.self, forKey: .track)
    }
  }

  struct SavedTrack: Decodable, Sendable {
    var addedAt: String?
    var track: Track?
    enum CodingKeys: String, CodingKey {
      case track
      case addedAt = "added_at"
    }
  }

  struct Album: Decodable, Sendable {
    var id: String
    var name: String
    var artists: [Artist]?
    var releaseDate: String?
    var totalTracks: Int?
    var images: [Image]?
    var tracks: Paging<Track>?
    enum CodingKeys: String, CodingKey {
      case id, name, artists, images, tracks
      case releaseDate = "release_date"
      case totalTracks = "total_tracks"
    }
  }

  struct SavedAlbum: Decodable, Sendable {
    var addedAt: String?
    var album: Album
    enum CodingKeys: String, CodingKey {
      case album
      case addedAt = "added_at"
    }
  }
}

/// Spotify objects as Refrain's catalog values.
enum SpotifyMapping {
  static let provider = SpotifyImportStore.spotifyProvider

  /// A track as Refrain stores it; `album` fills in what a simplified track lacks.
  static func track(_ record: SpotifyObjects.Track, album: SpotifyObjects.Album? = nil)
    -> CatalogTrack?
  {
    guard let id = record.id, let name = record.name else { return nil }
    let artists = record.artists ?? album?.artists ?? []
    return CatalogTrack(
      id: id, provider: provider, title: TerminalSanitizer.clean(name),
      artist: artists.isEmpty
        ? nil : TerminalSanitizer.clean(artists.map(\.name).joined(separator: ", ")),
      artistID: artists.first?.id,
      album: (record.album?.name ?? album?.name).map(TerminalSanitizer.clean),
      albumID: record.album?.id ?? album?.id,
      duration: ServerNumber.seconds(milliseconds: record.durationMs),
      trackNumber: ServerNumber.count(record.trackNumber),
      coverURL: image(record.album?.images ?? album?.images),
      isrc: record.externalIDs?.isrc.flatMap(ISRC.normalized))
  }

  /// An album summary.
  static func album(_ record: SpotifyObjects.Album) -> AlbumSummary {
    AlbumSummary(
      id: record.id, provider: provider, title: TerminalSanitizer.clean(record.name),
      artist: record.artists.map {
        TerminalSanitizer.clean($0.map(\.name).joined(separator: ", "))
      },
      artistID: record.artists?.first?.id,
      year: record.releaseDate.flatMap { Int($0.prefix(4)) },
      trackCount: ServerNumber.count(record.totalTracks),
      coverURL: image(record.images))
  }

  /// The image closest to 300 pixels wide.
  static func image(_ images: [SpotifyObjects.Image]?) -> URL? {
    guard let images, !images.isEmpty else { return nil }
    let best = images.min { abs(($0.width ?? 300) - 300) < abs(($1.width ?? 300) - 300) }
    return best.flatMap { URL(string: $0.url) }
  }

  /// Unix seconds of an ISO-8601 `added_at`.
  static func time(_ text: String?) -> Double? {
    guard let text else { return nil }
    return (try? Date.ISO8601FormatStyle().parse(text))?.timeIntervalSince1970
  }
}
