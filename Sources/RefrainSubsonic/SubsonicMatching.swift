import Foundation
import RefrainCore

/// One string or a list of them: OpenSubsonic sends `isrc` as a list, some servers as one
/// string.
struct SubsonicStrings: Decodable, Sendable, Hashable {
  var values: [String]

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let one = try? container.decode(String.self) {
      values = [one]
    } else {
      values = (try? container.decode([String].self)) ?? []
    }
  }
}

extension SubsonicCatalogProvider {
  /// The server's song for a track of another catalog (an imported Spotify track), or `nil`.
  ///
  /// One `search3` by title; among the songs found, one carrying the track's ISRC
  /// (OpenSubsonic `isrc`) wins, else one with the same artist and title (``TrackMatchKey``)
  /// and a duration within `tolerance` seconds (any duration when either is unknown).
  /// Throws when the server cannot be asked.
  public func songID(matching track: CatalogTrack, tolerance: Double) async throws -> String? {
    let page = try await search(track.title, kind: .track, offset: 0, limit: 50)
    let songs = page.items.compactMap { item -> CatalogTrack? in
      if case .track(let song) = item { song } else { nil }
    }
    if let isrc = track.isrc?.uppercased(),
      let song = songs.first(where: { $0.isrc?.uppercased() == isrc })
    {
      return song.id
    }
    guard let key = TrackMatchKey(artist: track.artist, title: track.title) else { return nil }
    return songs.first { song in
      guard TrackMatchKey(artist: song.artist, title: song.title) == key else { return false }
      guard let mine = track.duration, let theirs = song.duration else { return true }
      return abs(mine - theirs) <= tolerance
    }?.id
  }
}
