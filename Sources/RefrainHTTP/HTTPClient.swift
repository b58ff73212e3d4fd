import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The one HTTP client: rate limit, cache, send, retry with backoff, and typed errors.
///
/// Every failure comes out as a `NetworkError`. Rate limiting (429), server errors (5xx)
/// and API errors the parser calls temporary are retried with exponential backoff and
/// jitter; a `Retry-After` header sets the wait instead. Only `Endpoint.isCacheable` GET
/// answers that are successful and carry no API error enter the cache.
public actor HTTPClient {
  /// `User-Agent` sent with every request.
  public static let defaultUserAgent = "Refrain/0.1 (terminal music player)"

  /// A client-side limit of `requests` per `interval` seconds.
  public struct RateLimit: Sendable, Hashable {
    public var requests: Int
    public var interval: TimeInterval

    /// Creates a limit.
    public init(requests: Int, per interval: TimeInterval) {
      self.requests = requests
      self.interval = interval
    }
  }

  /// Everything that shapes the client's behaviour; the defaults suit a catalog API.
  public struct Configuration: Sendable {
    /// The `User-Agent` header.
    public var userAgent = HTTPClient.defaultUserAgent
    /// Seconds to wait for an answer before failing with `.timeout`.
    public var timeout: TimeInterval = 10
    /// The most an answer may be, and how long one may send nothing (``AnswerLimits``).
    public var limits = AnswerLimits.catalog
    /// When to retry.
    public var retry = RetryPolicy()
    /// The client-side rate limit, or `nil` for none.
    public var rateLimit: RateLimit? = nil
    /// How long cached answers stay fresh; 0 turns the cache off.
    public var cacheTTL: TimeInterval = 0
    /// Where cached answers are also written, or `nil` for memory only.
    public var cacheDirectory: URL? = nil
    /// Finds API errors inside answer bodies.
    public var apiErrors = APIErrorParser.none
    /// Time sources (inject a fake one in tests).
    public var clock = NetworkClock.system
    /// Random numbers in `0..<1` for jitter.
    public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }

    /// Creates the default configuration.
    public init() {}
  }

  /// The configuration the client was made with.
  public nonisolated let configuration: Configuration
  private let transport: any HTTPTransport
  private var bucket: TokenBucket?
  private var cache: ResponseCache?
  /// Requests that went over the wire, counting retries (for tests and diagnostics).
  private(set) var sentRequests = 0
  /// Answers served from the cache.
  private(set) var cacheHits = 0

  /// Creates a client; without a transport it uses `URLSession`.
  public init(configuration: Configuration = Configuration(), transport: (any HTTPTransport)? = nil)
  {
    self.configuration = configuration
    self.transport =
      transport ?? URLSessionTransport(timeout: configuration.timeout, limits: configuration.limits)
    bucket = configuration.rateLimit.map {
      TokenBucket(strictly: $0.requests, per: $0.interval, now: configuration.clock.now())
    }
    cache =
      configuration.cacheTTL > 0
      ? ResponseCache(ttl: configuration.cacheTTL, directory: configuration.cacheDirectory) : nil
  }

  /// Fetches an endpoint's body, from the cache when allowed and fresh.
  public func data(for endpoint: Endpoint) async throws(NetworkError) -> Data {
    let key = endpoint.cacheKey
    let cacheable = endpoint.isCacheable && endpoint.method == .get && cache != nil
    if cacheable, let body = cache?.body(for: key, now: configuration.clock.date()) {
      cacheHits += 1
      return body
    }
    let request = try endpoint.urlRequest(
      timeout: configuration.timeout, userAgent: configuration.userAgent)
    var attempt = 1
    while true {
      if Task.isCancelled { throw NetworkError.cancelled }
      try await waitForToken()
      let response = try await transport.send(request)
      sentRequests += 1
      // The real transport stops reading at the cap; any other is held to it here.
      if response.body.count > configuration.limits.maxBytes {
        throw NetworkError.tooLarge(
          limit: configuration.limits.capText, kind: configuration.limits.kind)
      }
      let failure: NetworkError
      var retryAfter: TimeInterval?
      if (200..<300).contains(response.status) {
        guard let apiError = configuration.apiErrors.parse(response.body) else {
          if cacheable { cache?.store(response.body, for: key, now: configuration.clock.date()) }
          return response.body
        }
        failure = .apiError(type: apiError.type, message: apiError.message, code: apiError.code)
        if configuration.apiErrors.isQuota(apiError) { drainBucket() }
        guard configuration.apiErrors.isRetryable(apiError) else { throw failure }
      } else {
        failure = .httpStatus(
          code: response.status, body: String(decoding: response.body.prefix(512), as: UTF8.self))
        guard RetryPolicy.isRetryable(status: response.status) else { throw failure }
        if response.status == 429 { drainBucket() }
        retryAfter = RetryPolicy.retryAfter(
          response.header("Retry-After"), now: configuration.clock.date())
      }
      guard attempt < configuration.retry.maxAttempts else { throw failure }
      let wait: TimeInterval
      if let retryAfter {
        guard retryAfter <= configuration.retry.maxRetryAfter else { throw failure }
        wait = retryAfter
      } else {
        wait = configuration.retry.delay(afterAttempt: attempt, random: configuration.random())
      }
      try await pause(wait)
      attempt += 1
    }
  }

  /// Fetches an endpoint and decodes its JSON body.
  ///
  /// A body that fails to decode is dropped from the cache and reported as `.decoding`.
  public nonisolated func decode<Value: Decodable & Sendable>(
    _ type: Value.Type, from endpoint: Endpoint,
    makeDecoder: @Sendable () -> JSONDecoder = { JSONDecoder() }
  ) async throws(NetworkError) -> Value {
    let body = try await data(for: endpoint)
    do {
      return try makeDecoder().decode(Value.self, from: body)
    } catch {
      await evict(endpoint)
      throw NetworkError.decoding(DecodingErrorSummary.describe(error))
    }
  }

  /// Forgets a cached answer.
  public func evict(_ endpoint: Endpoint) {
    cache?.remove(endpoint.cacheKey)
  }

  private func waitForToken() async throws(NetworkError) {
    guard var current = bucket else { return }
    let wait = current.reserve(now: configuration.clock.now())
    bucket = current
    if wait > 0 { try await pause(wait) }
  }

  private func drainBucket() {
    bucket?.drain(now: configuration.clock.now())
  }

  private func pause(_ seconds: TimeInterval) async throws(NetworkError) {
    do {
      try await configuration.clock.sleep(seconds)
    } catch {
      throw NetworkError.cancelled
    }
  }
}
