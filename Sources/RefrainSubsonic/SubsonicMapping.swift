import Foundation
import RefrainCore
import RefrainHTTP

/// Turns a Subsonic server's records into the catalog's models.
///
/// Tracks carry the authenticated `stream.view` URL of the file as stored, and covers the
/// `getCoverArt.view` URL with a `size` of ``coverSize`` pixels, which the cover locator
/// replaces with the size the pane draws (RefrainArt's `CoverSizing`).
struct SubsonicMapping: Sendable {
  /// The provider name stored in every model.
  static let provider = "subsonic"
  /// The cover size in the URL, in pixels: what a reader that does not size the URL asks.
  static let coverSize = 300

  /// Builds the URLs.
  var api: SubsonicAPI

  /// The server's song id in a track key `subsonic:ID`, or `nil` for another catalog's track.
  static func songID(_ key: String) -> String? {
    let prefix = provider + ":"
    guard key.hasPrefix(prefix), key.count > prefix.count else { return nil }
    return String(key.dropFirst(prefix.count))
  }

  /// A song.
  func track(_ song: SubsonicSong) -> CatalogTrack {
    let stream = try? api.streamURL(songID: song.id.value)
    return CatalogTrack(
      id: song.id.value, provider: Self.provider, title: song.title ?? song.id.value,
      artist: song.artist, artistID: song.artistId?.value, album: song.album,
      albumID: song.albumId?.value, duration: ServerNumber.seconds(song.duration?.value),
      trackNumber: ServerNumber.count(song.track?.value), streamURL: stream,
      unplayableReason: stream == nil ? "the server's address is not valid" : nil,
      coverURL: cover(song.coverArt), isrc: song.isrc?.values.first)
  }

  /// An album.
  func album(_ record: SubsonicAlbum) -> AlbumSummary {
    AlbumSummary(
      id: record.id.value, provider: Self.provider,
      title: record.name ?? record.title ?? record.id.value, artist: record.artist,
      artistID: record.artistId?.value, year: ServerNumber.count(record.year?.value),
      trackCount: ServerNumber.count(record.songCount?.value), coverURL: cover(record.coverArt))
  }

  /// An artist.
  func artist(_ record: SubsonicArtist) -> ArtistSummary {
    ArtistSummary(
      id: record.id.value, provider: Self.provider, name: record.name,
      albumCount: ServerNumber.count(record.albumCount?.value), pictureURL: cover(record.coverArt))
  }

  /// A playlist.
  func playlist(_ record: SubsonicPlaylist) -> PlaylistSummary {
    PlaylistSummary(
      id: record.id.value, provider: Self.provider, title: record.name, owner: record.owner,
      trackCount: ServerNumber.count(record.songCount?.value), coverURL: cover(record.coverArt))
  }

  private func cover(_ id: SubsonicText?) -> URL? {
    guard let id, !id.value.isEmpty else { return nil }
    return try? api.coverURL(id: id.value, size: Self.coverSize)
  }
}
