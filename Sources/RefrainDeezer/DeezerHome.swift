import Foundation
import RefrainCore
import RefrainHTTP

/// Builds the Home pane from `/editorial/0/releases`, `/chart/0` and `/genre`.
enum DeezerHome {
  /// The sections in display order, leaving out empty ones and those whose request failed.
  ///
  /// Throws only when every request failed, so one slow endpoint does not blank the pane.
  static func sections(
    chart: Result<DeezerChart, NetworkError>,
    releases: Result<DeezerList<DeezerAlbum>, NetworkError>,
    genres: Result<DeezerList<DeezerGenre>, NetworkError>
  ) throws -> [HomeSection] {
    if case .failure(let error) = chart, case .failure = releases, case .failure = genres {
      throw DeezerErrors.catalogError(error, item: nil)
    }
    var sections: [HomeSection] = []
    func add(_ id: String, _ title: String, _ kind: HomeSectionKind, _ items: [CatalogItem]) {
      guard !items.isEmpty else { return }
      sections.append(HomeSection(id: "deezer.\(id)", title: title, kind: kind, items: items))
    }
    if case .success(let list) = releases {
      add(
        "new-releases", "New releases", .newReleases,
        list.data.map { .album(DeezerMapping.album($0)) })
    }
    if case .success(let chart) = chart {
      add(
        "chart.tracks", "Top tracks", .charts,
        (chart.tracks?.data ?? []).map { .track(DeezerMapping.track($0)) })
      add(
        "chart.albums", "Top albums", .charts,
        (chart.albums?.data ?? []).map { .album(DeezerMapping.album($0)) })
      add(
        "chart.playlists", "Top playlists", .playlists,
        (chart.playlists?.data ?? []).map { .playlist(DeezerMapping.playlist($0)) })
      add(
        "chart.artists", "Top artists", .artists,
        (chart.artists?.data ?? []).map { .artist(DeezerMapping.artist($0)) })
    }
    if case .success(let list) = genres {
      add("genres", "Genres", .genres, list.data.map { .genre(DeezerMapping.genre($0)) })
    }
    return sections
  }
}
