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

/// The real transport: Foundation's `URLSession` (FoundationNetworking on Linux), reading
/// each answer within its ``AnswerLimits``.
///
/// The body is collected as it arrives: an answer whose `Content-Length` or whose bytes go
/// past ``AnswerLimits/maxBytes`` is dropped at once (``NetworkError/tooLarge(limit:kind:)``),
/// so memory holds at most the cap; a request that receives nothing for
/// ``AnswerLimits/progressDeadline`` seconds ends with ``NetworkError/stalled(seconds:)``.
public struct URLSessionTransport: HTTPTransport {
  private let lazySession: LazyURLSession
  private let router: AnswerRouter
  /// What every answer this transport reads may be.
  public let limits: AnswerLimits

  /// Creates a transport over an ephemeral session (no cookies, no URL cache), made on
  /// the first request, whose answers are read within `limits`.
  public init(timeout: TimeInterval = 10, limits: AnswerLimits = .catalog) {
    let router = AnswerRouter()
    self.router = router
    self.limits = limits
    lazySession = LazyURLSession(delegate: router) {
      let configuration = URLSessionConfiguration.ephemeral
      configuration.timeoutIntervalForRequest = timeout
      configuration.timeoutIntervalForResource = timeout * 3
      configuration.urlCache = nil
      configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
      return configuration
    }
  }

  public func send(_ request: URLRequest) async throws(NetworkError) -> HTTPResponse {
    let session: URLSession
    do {
      session = try lazySession.session()
    } catch {
      throw NetworkError.unavailable(error.description)
    }
    let collector = AnswerCollector(limits: limits)
    let router = router
    let outcome = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        guard collector.install(continuation) else { return }
        let task = session.dataTask(with: request)
        router.add(task, collector)
        collector.watch(task) { router.remove(task) }
        task.resume()
      }
    } onCancel: {
      collector.cancel()
    }
    return try outcome.get()
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

/// The session's delegate: hands each task's callbacks to the collector of its request.
private final class AnswerRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  private let lock = NSLock()
  private var collectors: [Int: AnswerCollector] = [:]

  func add(_ task: URLSessionTask, _ collector: AnswerCollector) {
    lock.withLock { collectors[task.taskIdentifier] = collector }
  }

  func remove(_ task: URLSessionTask) {
    lock.withLock { _ = collectors.removeValue(forKey: task.taskIdentifier) }
  }

  private func collector(_ task: URLSessionTask) -> AnswerCollector? {
    lock.withLock { collectors[task.taskIdentifier] }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let keep = collector(dataTask)?.received(response) ?? false
    completionHandler(keep ? .allow : .cancel)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    guard let collector = collector(dataTask), collector.received(data) else {
      dataTask.cancel()
      return
    }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    collector(task)?.completed(error)
    remove(task)
  }
}

/// One request's answer as it arrives, within its limits, handed once to the waiting
/// request: the answer, the first limit it broke, or a cancellation, whichever comes first.
///
/// Cancelling a `URLSessionTask` on Linux is unsafe when the answer arrives at the same
/// moment (`URLSession.data(for:)` deadlocks or traps "a task that is not in the
/// registry"), so a request the caller cancels stops waiting at once and its data task is
/// cancelled from the delegate's queue at its next callback. The resume is sent from
/// another queue, because the cancellation handler runs while the Swift task's status is
/// locked.
private final class AnswerCollector: @unchecked Sendable {
  typealias Answer = Result<HTTPResponse, NetworkError>

  private let limits: AnswerLimits
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Answer, Never>?
  private var finished = false
  private var response: HTTPURLResponse?
  private var body = Data()
  /// When something last arrived (or the request started), in monotonic nanoseconds.
  private var lastProgress = DispatchTime.now().uptimeNanoseconds
  private var timer: DispatchSourceTimer?
  private var onFinish: (@Sendable () -> Void)?

  init(limits: AnswerLimits) { self.limits = limits }

  /// Stores the continuation; returns `false` (after resuming it) if already cancelled.
  func install(_ continuation: CheckedContinuation<Answer, Never>) -> Bool {
    let cancelled = lock.withLock {
      if !finished { self.continuation = continuation }
      return finished
    }
    if cancelled { continuation.resume(returning: .failure(.cancelled)) }
    return !cancelled
  }

  /// Checks, four times per deadline, that `task` keeps making progress; cancels it when
  /// it has not for the deadline.
  func watch(_ task: URLSessionTask, onFinish: @escaping @Sendable () -> Void) {
    let deadline = limits.progressDeadline
    let timer = DispatchSource.makeTimerSource(queue: .global())
    let period = max(0.05, deadline / 4)
    timer.schedule(deadline: .now() + period, repeating: period)
    timer.setEventHandler { [weak self, weak task] in
      guard let self else { return }
      let since = self.lock.withLock { self.lastProgress }
      let idle = Double(DispatchTime.now().uptimeNanoseconds &- since) / 1e9
      guard idle >= deadline else { return }
      self.finish(.failure(.stalled(seconds: Int(deadline.rounded()))))
      task?.cancel()
    }
    // Resumed before anything else: a timer source released while suspended traps.
    timer.resume()
    let over = lock.withLock { () -> Bool in
      if finished { return true }
      self.timer = timer
      self.onFinish = onFinish
      return false
    }
    if over {
      timer.cancel()
      onFinish()
    }
  }

  /// Takes the answer's head; `false` when the request is over or the body is too large.
  func received(_ response: URLResponse) -> Bool {
    guard let http = response as? HTTPURLResponse else {
      finish(.failure(.transport("the answer was not HTTP")))
      return false
    }
    if http.expectedContentLength > Int64(limits.maxBytes) {
      finish(.failure(.tooLarge(limit: limits.capText, kind: limits.kind)))
      return false
    }
    return lock.withLock {
      self.response = http
      lastProgress = DispatchTime.now().uptimeNanoseconds
      return !finished
    }
  }

  /// Takes a piece of the body; `false` when the request is over or the body is too large.
  func received(_ data: Data) -> Bool {
    let over = lock.withLock { () -> Bool? in
      guard !finished else { return nil }
      guard body.count + data.count <= limits.maxBytes else { return true }
      body.append(data)
      lastProgress = DispatchTime.now().uptimeNanoseconds
      return false
    }
    guard let over else { return false }
    if over { finish(.failure(.tooLarge(limit: limits.capText, kind: limits.kind))) }
    return !over
  }

  /// Takes how the request ended.
  func completed(_ error: Error?) {
    if let error {
      finish(.failure(URLSessionTransport.map(error)))
      return
    }
    let (response, body) = lock.withLock { (self.response, self.body) }
    guard let response else {
      finish(.failure(.transport("the answer was not HTTP")))
      return
    }
    var headers: [String: String] = [:]
    for (key, value) in response.allHeaderFields {
      if let name = key as? String, let text = value as? String { headers[name] = text }
    }
    finish(.success(HTTPResponse(status: response.statusCode, headers: headers, body: body)))
  }

  /// Ends the wait with a cancellation, without blocking the caller.
  func cancel() {
    let waiting = lock.withLock { () -> CheckedContinuation<Answer, Never>? in
      guard !finished else { return nil }
      return takeLocked()
    }
    guard let waiting else { return }
    DispatchQueue.global().async { waiting.resume(returning: .failure(.cancelled)) }
  }

  private func finish(_ answer: Answer) {
    let waiting = lock.withLock { () -> CheckedContinuation<Answer, Never>? in
      guard !finished else { return nil }
      return takeLocked()
    }
    waiting?.resume(returning: answer)
  }

  /// Marks the request over and returns its waiter; the lock held.
  private func takeLocked() -> CheckedContinuation<Answer, Never>? {
    finished = true
    body = Data()
    timer?.cancel()
    timer = nil
    let done = onFinish
    onFinish = nil
    if let done { DispatchQueue.global().async { done() } }
    defer { continuation = nil }
    return continuation
  }
}
