import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A raw HTTP answer: status, headers (lower-cased names) and body.
public struct HTTPResponse: Sendable, Hashable {
  /// The status code.
  public var status: Int
  /// Header values by lower-cased name.
  public var headers: [String: String]
  /// The body bytes.
  public var body: Data

  /// Creates a response.
  public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    self.headers = Dictionary(
      headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
    self.body = body
  }

  /// A header's value by case-insensitive name.
  public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Sends one request and returns the raw answer; the seam between the client and the wire.
public protocol HTTPTransport: Sendable {
  /// Sends the request once (no retries) and returns whatever status came back.
  ///
  /// Throws `NetworkError.transport`, `.timeout` or `.cancelled`.
  func send(_ request: URLRequest) async throws(NetworkError) -> HTTPResponse
}

/// The real transport: Foundation's `URLSession` (FoundationNetworking on Linux).
public struct URLSessionTransport: HTTPTransport {
  private let lazySession: LazyURLSession

  /// Creates a transport over an ephemeral session (no cookies, no URL cache), made on
  /// the first request.
  public init(timeout: TimeInterval = 10) {
    lazySession = LazyURLSession {
      let configuration = URLSessionConfiguration.ephemeral
      configuration.timeoutIntervalForRequest = timeout
      configuration.timeoutIntervalForResource = timeout * 3
      configuration.urlCache = nil
      configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
      return configuration
    }
  }

  public func send(_ request: URLRequest) async throws(NetworkError) -> HTTPResponse {
    let waiter = AnswerWaiter()
    let session: URLSession
    do {
      session = try lazySession.session()
    } catch {
      throw NetworkError.unavailable(error.description)
    }
    let outcome = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        guard waiter.install(continuation) else { return }
        session.dataTask(with: request) { data, response, error in
          if let error {
            waiter.finish(.failure(error))
          } else if let response {
            waiter.finish(.success((data ?? Data(), response)))
          } else {
            waiter.finish(.failure(URLError(.badServerResponse)))
          }
        }.resume()
      }
    } onCancel: {
      waiter.cancel()
    }
    let data: Data
    let response: URLResponse
    switch outcome {
    case .success(let answer): (data, response) = answer
    case .failure(let error): throw Self.map(error)
    }
    guard let http = response as? HTTPURLResponse else {
      throw NetworkError.transport("the answer was not HTTP")
    }
    var headers: [String: String] = [:]
    for (key, value) in http.allHeaderFields {
      if let name = key as? String, let text = value as? String {
        headers[name] = text
      }
    }
    return HTTPResponse(status: http.statusCode, headers: headers, body: data)
  }

  /// How the detail of a TLS failure starts: `.transport("TLS: …")`.
  static let tlsPrefix = "TLS: "

  /// Whether a `.transport` detail reports a failed TLS handshake or an untrusted certificate.
  public static func isTLSFailure(_ detail: String) -> Bool { detail.hasPrefix(tlsPrefix) }

  /// Maps Foundation's errors to the typed network errors.
  static func map(_ error: any Error) -> NetworkError {
    if error is CancellationError { return .cancelled }
    guard let urlError = error as? URLError else {
      return .transport(String(describing: error))
    }
    switch urlError.code {
    case .timedOut: return .timeout
    case .cancelled: return .cancelled
    case .badURL, .unsupportedURL: return .invalidURL(urlError.failingURL?.absoluteString ?? "")
    case .cannotConnectToHost: return .transport("connection refused")
    case .cannotFindHost, .dnsLookupFailed: return .transport("unknown host")
    case .networkConnectionLost: return .transport("connection lost")
    case .notConnectedToInternet: return .transport("no network connection")
    case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot,
      .serverCertificateHasBadDate, .serverCertificateNotYetValid, .secureConnectionFailed,
      .clientCertificateRejected, .clientCertificateRequired:
      return .transport("\(tlsPrefix)\(urlError.localizedDescription)")
    default:
      // FoundationNetworking passes curl's own words for most TLS failures under other
      // codes ("SSL certificate problem: self-signed certificate").
      let detail = urlError.localizedDescription
      let lowered = detail.lowercased()
      let isTLS = ["ssl", "tls", "certificate"].contains { lowered.contains($0) }
      return .transport(isTLS ? "\(tlsPrefix)\(detail)" : detail)
    }
  }
}

/// Hands one answer to a waiting request: the data task's, or a cancellation, whichever
/// comes first.
///
/// Cancelling a `URLSessionTask` on Linux is unsafe when the answer arrives at the same
/// moment: `URLSession.data(for:)` then deadlocks (its cancellation handler waits for
/// the session's queue) or traps ("a task that is not in the registry"). So a cancelled
/// request stops waiting at once, and its data task is left to finish or time out on its
/// own, its answer ignored. The resume is sent from another queue, because the
/// cancellation handler runs while the Swift task's status is locked.
private final class AnswerWaiter: @unchecked Sendable {
  typealias Answer = Result<(Data, URLResponse), any Error>

  private let lock = NSLock()
  private var continuation: CheckedContinuation<Answer, Never>?
  private var isCancelled = false

  /// Stores the continuation; returns `false` (after resuming it) if already cancelled.
  func install(_ continuation: CheckedContinuation<Answer, Never>) -> Bool {
    let cancelled = lock.withLock {
      if !isCancelled { self.continuation = continuation }
      return isCancelled
    }
    if cancelled { continuation.resume(returning: .failure(CancellationError())) }
    return !cancelled
  }

  /// Delivers the data task's answer, unless the request was cancelled first.
  func finish(_ answer: Answer) {
    take()?.resume(returning: answer)
  }

  /// Ends the wait with a cancellation, without blocking the caller.
  func cancel() {
    let waiting = lock.withLock {
      isCancelled = true
      defer { continuation = nil }
      return continuation
    }
    guard let waiting else { return }
    DispatchQueue.global().async { waiting.resume(returning: .failure(CancellationError())) }
  }

  private func take() -> CheckedContinuation<Answer, Never>? {
    lock.withLock {
      defer { continuation = nil }
      return continuation
    }
  }
}
