import Foundation
import RefrainCore
import RefrainHTTP

/// Turns Deezer's records into the catalog's models.
enum DeezerMapping {
  /// The provider name stored in every model.
  static let provider = "deezer"
  /// Why a track without a preview cannot be played.
  static let noPreview = "no preview available"

  /// A track; `album` fills in the album when the record omits it (tracks inside an album).
  static func track(
    _ record: DeezerTrack, album: DeezerAlbumRef? = nil, artist: DeezerArtist? = nil
  ) -> CatalogTrack {
    let albumRef = record.album ?? album
    let artistRecord = record.artist ?? artist
    let preview = previewURL(record.preview)
    return CatalogTrack(
      id: record.id.value, provider: provider, title: record.title, artist: artistRecord?.name,
      artistID: artistRecord?.id.value, album: albumRef?.title, albumID: albumRef?.id.value,
      duration: ServerNumber.seconds(record.duration.map(Double.init)),
      trackNumber: ServerNumber.count(record.trackPosition),
      streamURL: preview, unplayableReason: preview == nil ? noPreview : nil,
      coverURL: url(albumRef?.coverMedium))
  }

  /// An album summary.
  static func album(_ record: DeezerAlbum) -> AlbumSummary {
    AlbumSummary(
      id: record.id.value, provider: provider, title: record.title, artist: record.artist?.name,
      artistID: record.artist?.id.value, year: year(record.releaseDate),
      trackCount: ServerNumber.count(record.trackCount), coverURL: url(record.coverMedium))
  }

  /// An artist summary.
  static func artist(_ record: DeezerArtist) -> ArtistSummary {
    ArtistSummary(
      id: record.id.value, provider: provider, name: record.name,
      albumCount: ServerNumber.count(record.albumCount),
      pictureURL: url(record.pictureMedium))
  }

  /// A playlist summary; the owner is `creator` on details and `user` in lists.
  static func playlist(_ record: DeezerPlaylist) -> PlaylistSummary {
    PlaylistSummary(
      id: record.id.value, provider: provider, title: record.title,
      owner: (record.creator ?? record.user)?.name,
      trackCount: ServerNumber.count(record.trackCount),
      coverURL: url(record.pictureMedium))
  }

  /// A genre summary.
  static func genre(_ record: DeezerGenre) -> GenreSummary {
    GenreSummary(
      id: record.id.value, provider: provider, name: record.name,
      pictureURL: url(record.pictureMedium))
  }

  /// The preview URL, or `nil` when Deezer sent `""` (no readable preview).
  static func previewURL(_ text: String?) -> URL? {
    guard let url = url(text), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https"
    else { return nil }
    return url
  }

  /// The page a list answer describes; without `total` or `next`, the list ends here.
  static func page<Record, Item>(
    _ list: DeezerList<Record>, offset: Int, transform: (Record) -> Item
  ) -> Page<Item> {
    let items = list.data.map(transform)
    let total = ServerNumber.count(list.total) ?? (list.next == nil ? offset + items.count : nil)
    return Page(items: items, offset: offset, total: total)
  }

  private static func url(_ text: String?) -> URL? {
    guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
    return URL(string: text)
  }

  private static func year(_ date: String?) -> Int? {
    guard let date, date.count >= 4, let year = Int(date.prefix(4)), year > 1000 else {
      return nil
    }
    return year
  }
}
