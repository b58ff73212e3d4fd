import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A URLSession made on first use.
///
/// On Linux, creating a session brings up libcurl and OpenSSL, about 8 MiB of resident
/// memory; a player on the demo catalog or local files never needs it.
final class LazyURLSession: @unchecked Sendable {
  private let lock = NSLock()
  private var made: URLSession?
  private let configuration: @Sendable () -> URLSessionConfiguration

  /// Creates a holder that builds its session from `configuration` when first asked.
  init(_ configuration: @escaping @Sendable () -> URLSessionConfiguration) {
    self.configuration = configuration
  }

  /// The session, created now if this is the first use.
  var session: URLSession {
    lock.withLock {
      if let made { return made }
      let session = URLSession(configuration: configuration())
      made = session
      return session
    }
  }
}
