import Foundation
import RefrainCore
import XCTest

@testable import RefrainCatalog
@testable import RefrainDeezer
@testable import RefrainHTTP

/// A Deezer provider on the fixture server, with Deezer's client settings and a fake clock.
func makeDeezerProvider(base: URL, cacheTTL: TimeInterval = 300) -> (
  DeezerCatalogProvider, FakeNetworkClock
) {
  let fake = FakeNetworkClock()
  var configuration = DeezerCatalogProvider.clientConfiguration()
  configuration.clock = fake.clock
  configuration.random = { 0 }
  configuration.timeout = 2
  configuration.cacheTTL = cacheTTL
  let client = HTTPClient(configuration: configuration)
  return (DeezerCatalogProvider(baseURL: base, client: client), fake)
}

/// Runs `body` and returns the `CatalogError` it threw, failing the test otherwise.
func catalogError<T>(
  _ body: () async throws -> T, file: StaticString = #filePath, line: UInt = #line
) async -> CatalogError? {
  do {
    _ = try await body()
    XCTFail("expected a CatalogError", file: file, line: line)
  } catch let error as CatalogError {
    return error
  } catch {
    XCTFail("expected a CatalogError, got \(error)", file: file, line: line)
  }
  return nil
}

extension CatalogItem {
  /// The track inside, if this is one.
  var trackValue: CatalogTrack? {
    if case .track(let track) = self { return track }
    return nil
  }

  /// The playlist inside, if this is one.
  var playlistValue: PlaylistSummary? {
    if case .playlist(let playlist) = self { return playlist }
    return nil
  }

  /// The item's identifier.
  var itemID: String {
    switch self {
    case .track(let track): return track.id
    case .album(let album): return album.id
    case .artist(let artist): return artist.id
    case .playlist(let playlist): return playlist.id
    case .genre(let genre): return genre.id
    case .lyric(let match): return match.track.id
    }
  }
}
