import Foundation
import RefrainCore
import RefrainHTTP

/// The Deezer endpoints Refrain uses, built on the configured base URL.
///
/// Catalog pages are cacheable; `/track/{id}` is not, because it is where fresh preview
/// URLs come from.
struct DeezerAPI: Sendable {
  /// The API root (from `REFRAIN_DEEZER_URL` or the config file).
  var baseURL: URL

  /// `/chart/0`: top tracks, albums, artists and playlists.
  func chart() -> Endpoint { page("/chart/0") }

  /// `/editorial/0/releases`: new releases.
  func editorialReleases(limit: Int) -> Endpoint {
    page("/editorial/0/releases", ["limit": limit])
  }

  /// `/genre`: every genre.
  func genres() -> Endpoint { page("/genre") }

  /// `/search` (tracks) or `/search/{kind}`, paged with `index`/`limit`.
  func search(_ kind: SearchKind, query: String, index: Int, limit: Int) -> Endpoint {
    let path = kind == .track ? "/search" : "/search/\(kind.rawValue)"
    var endpoint = page(path, ["index": index, "limit": limit])
    endpoint.queryItems.insert(URLQueryItem(name: "q", value: query), at: 0)
    return endpoint
  }

  /// `/album/{id}` with its first tracks embedded.
  func album(_ id: String) -> Endpoint { page("/album/\(id)") }

  /// `/album/{id}/tracks`, paged.
  func albumTracks(_ id: String, index: Int, limit: Int) -> Endpoint {
    page("/album/\(id)/tracks", ["index": index, "limit": limit])
  }

  /// `/artist/{id}`.
  func artist(_ id: String) -> Endpoint { page("/artist/\(id)") }

  /// `/artist/{id}/top`: the most played tracks.
  func artistTop(_ id: String, limit: Int) -> Endpoint {
    page("/artist/\(id)/top", ["limit": limit])
  }

  /// `/artist/{id}/albums`.
  func artistAlbums(_ id: String, limit: Int) -> Endpoint {
    page("/artist/\(id)/albums", ["limit": limit])
  }

  /// `/playlist/{id}` (owner in `creator`).
  func playlist(_ id: String) -> Endpoint { page("/playlist/\(id)") }

  /// `/playlist/{id}/tracks`, paged.
  func playlistTracks(_ id: String, index: Int, limit: Int) -> Endpoint {
    page("/playlist/\(id)/tracks", ["index": index, "limit": limit])
  }

  /// `/genre/{id}`.
  func genre(_ id: String) -> Endpoint { page("/genre/\(id)") }

  /// `/genre/{id}/artists`.
  func genreArtists(_ id: String) -> Endpoint { page("/genre/\(id)/artists") }

  /// `/track/{id}`, never cached: its `preview` URL is signed and expires.
  func track(_ id: String) -> Endpoint {
    Endpoint(baseURL: baseURL, path: "/track/\(id)", isCacheable: false)
  }

  /// `/track/isrc:CODE`: the catalog's recording with that ISRC, never cached (its preview
  /// URL expires).
  func track(isrc: String) -> Endpoint {
    Endpoint(baseURL: baseURL, path: "/track/isrc:\(isrc)", isCacheable: false)
  }

  private func page(_ path: String, _ numbers: KeyValuePairs<String, Int> = [:]) -> Endpoint {
    Endpoint(
      baseURL: baseURL, path: path,
      queryItems: numbers.map { URLQueryItem(name: $0.key, value: String($0.value)) },
      isCacheable: true)
  }
}
