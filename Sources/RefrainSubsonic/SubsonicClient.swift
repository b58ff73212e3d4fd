import Foundation
import RefrainHTTP

/// Sends Subsonic requests and reads their answers, turning every failure into a
/// ``SubsonicError``.
public struct SubsonicClient: Sendable {
  /// The requests, with the account's credentials.
  public let api: SubsonicAPI
  private let http: HTTPClient

  /// A client for `api` over `http`.
  public init(api: SubsonicAPI, http: HTTPClient) {
    self.api = api
    self.http = http
  }

  /// A client with Refrain's defaults: a 10-second timeout, no cache, and retries only on
  /// rate limits and server errors (a Subsonic error is an answer, never retried).
  public static func httpClient(transport: (any HTTPTransport)? = nil) -> HTTPClient {
    var configuration = HTTPClient.Configuration()
    configuration.retry = RetryPolicy(maxAttempts: 2, baseDelay: 0.5, maxDelay: 2, jitter: 0.2)
    return HTTPClient(configuration: configuration, transport: transport)
  }

  /// Calls `method` and returns the whole answer, failed or not (transport errors throw).
  ///
  /// An HTTP error whose body is a Subsonic error (supysonic answers an unknown method with
  /// HTTP 404 and error 0) is returned as that failed answer.
  func answer<Body: Decodable & Sendable>(
    _ type: Body.Type, _ method: String, _ parameters: [(String, String)] = []
  ) async throws(SubsonicError) -> SubsonicResponse<Body> {
    let data: Data
    do {
      data = try await http.data(for: api.endpoint(method, parameters))
    } catch {
      if case .httpStatus(_, let body) = error,
        let failed = try? JSONDecoder().decode(
          SubsonicResponse<SubsonicEmpty>.self, from: Data(body.utf8)), failed.error != nil
      {
        return SubsonicResponse(failed: failed)
      }
      throw .network(error)
    }
    do {
      return try JSONDecoder().decode(SubsonicResponse<Body>.self, from: data)
    } catch {
      throw .network(.decoding(DecodingErrorSummary.describe(error)))
    }
  }

  /// Calls `method` and returns its payload; a failed answer throws its error code.
  func call<Body: Decodable & Sendable>(
    _ type: Body.Type, _ method: String, _ parameters: [(String, String)] = []
  ) async throws(SubsonicError) -> Body {
    let response = try await answer(type, method, parameters)
    if let error = response.error {
      throw .server(code: error.code, message: error.message ?? "")
    }
    guard let body = response.body else {
      throw .network(.decoding("status \(response.status) without a payload"))
    }
    return body
  }
}

extension SubsonicResponse {
  /// A failed answer read as another payload type (it has none).
  init(failed: SubsonicResponse<SubsonicEmpty>) {
    self.init(
      status: failed.status, version: failed.version, type: failed.type,
      openSubsonic: failed.openSubsonic, error: failed.error, body: nil)
  }

  /// Creates an answer from its parts.
  init(
    status: String, version: String, type: String?, openSubsonic: Bool?,
    error: SubsonicErrorBody?, body: Body?
  ) {
    self.status = status
    self.version = version
    self.type = type
    self.openSubsonic = openSubsonic
    self.error = error
    self.body = body
  }
}
