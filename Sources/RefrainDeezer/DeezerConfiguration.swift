import Foundation
import RefrainHTTP

extension DeezerCatalogProvider {
  /// What every call reports when no base URL is configured.
  public static let notConfiguredMessage =
    "online catalog not configured: set REFRAIN_DEEZER_URL"

  /// The HTTP client settings Deezer needs.
  ///
  /// - 50 requests per 5 seconds (Deezer's per-IP quota), 10 s timeout, 4 attempts;
  /// - quota (code 4) and busy (700) errors are retried like 429/5xx;
  /// - catalog pages are cached for 5 minutes, well inside the ~15 minutes a signed
  ///   preview URL in them stays valid; on disk too when `cacheDirectory` is given.
  public static func clientConfiguration(cacheDirectory: URL? = nil) -> HTTPClient.Configuration {
    var configuration = HTTPClient.Configuration()
    configuration.timeout = 10
    configuration.rateLimit = HTTPClient.RateLimit(requests: 50, per: 5)
    configuration.cacheTTL = 300
    configuration.cacheDirectory = cacheDirectory
    configuration.apiErrors = DeezerErrors.parser
    return configuration
  }
}
