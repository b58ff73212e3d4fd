import Foundation
import RefrainCore

/// `getInternetRadioStations`.
struct SubsonicRadioBody: Decodable, Sendable {
  struct List: Decodable, Sendable {
    var internetRadioStation: [SubsonicRadioStation]?
  }
  var internetRadioStations: List?
}

/// One of the server's internet radio stations.
struct SubsonicRadioStation: Decodable, Sendable, Hashable {
  var id: SubsonicText
  var name: String?
  var streamUrl: String?
  var homePageUrl: String?
}

extension SubsonicCatalogProvider {
  /// The provider name carried by the server's radio stations: they play from their own
  /// stream address, never through `stream.view`.
  public static let stationProvider = "subsonic-radio"

  /// The server's internet radio stations as tracks whose stream is the station's own
  /// address (an Icecast or SHOUTcast stream, or a playlist of them); a station without a
  /// valid address is left out.
  static func stations(_ client: SubsonicClient) async throws(SubsonicError) -> [CatalogTrack] {
    let body = try await client.call(SubsonicRadioBody.self, "getInternetRadioStations")
    return (body.internetRadioStations?.internetRadioStation ?? []).compactMap { station in
      guard let text = station.streamUrl, let url = URL(string: text),
        url.scheme == "http" || url.scheme == "https"
      else { return nil }
      return CatalogTrack(
        id: station.id.value, provider: stationProvider, title: station.name ?? text,
        album: "Radio", streamURL: url)
    }
  }
}
