import CCurlLoader
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Why the network cannot be used at all on this machine (libcurl is missing).
public struct NetworkUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
  /// One line saying what is missing and how to install it.
  public let description: String

  /// Checks that libcurl, which Foundation's URLSession uses, can be loaded; throws the
  /// reason in one line when it cannot (never aborts).
  public static func check() throws(NetworkUnavailable) {
    var reason = [CChar](repeating: 0, count: 512)
    guard refrain_curl_load(&reason, UInt(reason.count)) == 0 else { return }
    throw NetworkUnavailable(description: String(cString: reason))
  }
}

/// A URLSession made on first use.
///
/// On Linux, creating a session brings up libcurl and OpenSSL, about 8 MiB of resident
/// memory; a player on the demo catalog or local files never needs it.
package final class LazyURLSession: @unchecked Sendable {
  private let lock = NSLock()
  private var made: URLSession?
  private let configuration: @Sendable () -> URLSessionConfiguration
  private let delegate: (any URLSessionDelegate & Sendable)?

  /// Creates a holder that builds its session from `configuration` when first asked; the
  /// session's delegate, when there is one, is called on one serial queue.
  package init(
    delegate: (any URLSessionDelegate & Sendable)? = nil,
    _ configuration: @escaping @Sendable () -> URLSessionConfiguration
  ) {
    self.delegate = delegate
    self.configuration = configuration
  }

  /// The session, created now if this is the first use; throws when libcurl is missing.
  package func session() throws(NetworkUnavailable) -> URLSession {
    lock.lock()
    defer { lock.unlock() }
    if let made { return made }
    try NetworkUnavailable.check()
    let session: URLSession
    if let delegate {
      let queue = OperationQueue()
      queue.maxConcurrentOperationCount = 1
      session = URLSession(configuration: configuration(), delegate: delegate, delegateQueue: queue)
    } else {
      session = URLSession(configuration: configuration())
    }
    made = session
    return session
  }
}
