import Foundation
import RefrainArt
import RefrainCatalog
import RefrainCore
import RefrainHTTP

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Where the full-screen player's covers come from: a locator over the cover cache
/// (`$XDG_CACHE_HOME/refrain/covers`) that downloads a catalog's online cover once.
enum CoverFetching {
  /// How long a cover download may take before the placeholder box stays.
  static let timeout: TimeInterval = 8

  /// The covers for the full-screen player, or `nil` when `display.cover_art` is off.
  static func covers(mode: CoverArtMode, environment: [String: String]) -> (any CoverProvider)? {
    guard mode != .off else { return nil }
    let home = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true)
    let cache = CoverDiskCache(
      directory: CoverDiskCache.defaultDirectory(environment: environment, home: home))
    return LocatedCovers(locator: CoverLocator(cache: cache, fetch: download))
  }

  /// Downloads `url`: the body of a 2xx answer, else an error naming the status.
  @Sendable static func download(_ url: URL) async throws -> Data {
    let transport = URLSessionTransport(timeout: timeout, limits: .cover)
    var request = URLRequest(url: url, timeoutInterval: timeout)
    request.setValue("Refrain/\(Refrain.version)", forHTTPHeaderField: "User-Agent")
    let response = try await transport.send(request)
    guard (200..<300).contains(response.status) else {
      throw CoverError.fetchFailed(reason: "HTTP \(response.status) from \(url.host ?? "")")
    }
    return response.body
  }
}
