import Foundation
import RefrainCore
import RefrainHTTP

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The two LRCLIB calls Refrain makes, `/api/get` and `/api/search`, over HTTP.
///
/// Every request carries `User-Agent: Refrain/0.1 (terminal music player)`, as the service
/// asks, and has a time limit. Transport failures become `LRCLIBError.offlineOrSlow`, HTTP
/// errors other than 404 `.httpStatus`, and JSON that does not decode `.malformedResponse`.
/// Answers are read within ``AnswerLimits/lyrics`` (1 MiB, 10 s without progress).
struct LRCLIBClient: Sendable {
  /// The `User-Agent` sent with every request.
  static let userAgent = "Refrain/0.1 (terminal music player)"

  /// The service root; `api/get` and `api/search` are appended to its path.
  let baseURL: URL
  /// The time limit for each request, in seconds.
  let timeout: Double
  /// The transport that performs the requests (its session made on the first one).
  private let transport: URLSessionTransport

  /// Creates a client with its own ephemeral session (no shared cookies or HTTP cache).
  ///
  /// `timeout` is enforced by `LyricsDeadline`: on Linux, URLSession truncates its time-outs
  /// to whole seconds (0.5 s fails at once), so the session's own limits are only a backstop
  /// a second above it that ends abandoned requests.
  init(baseURL: URL, timeout: Double) {
    self.baseURL = baseURL
    self.timeout = timeout
    let backstop = max(1, timeout.rounded(.up)) + 1
    transport = URLSessionTransport(timeout: backstop, limits: .lyrics)
  }

  /// `GET /api/get`: the record for this exact track, or `nil` when the service has none.
  func get(title: String, artist: String, album: String?, duration: Double?) async throws
    -> LRCLIBRecord?
  {
    var query = [("track_name", title), ("artist_name", artist)]
    if let album, !album.isEmpty { query.append(("album_name", album)) }
    // The service accepts whole seconds from 1 to 3600; outside that, leave it out.
    if let duration, duration.isFinite, (0.5..<3600.5).contains(duration) {
      query.append(("duration", String(Int(duration.rounded()))))
    }
    let (status, data) = try await fetch(["api", "get"], query)
    if status == 404 { return nil }
    return try decode(LRCLIBRecord.self, from: data)
  }

  /// `GET /api/search`: up to 20 records whose title and artist resemble these.
  func search(title: String, artist: String) async throws -> [LRCLIBRecord] {
    let (status, data) = try await fetch(
      ["api", "search"], [("track_name", title), ("artist_name", artist)])
    if status == 404 { return [] }
    return try decode([LRCLIBRecord].self, from: data)
  }

  /// Performs one GET and returns the status and body of a 2xx or 404 answer.
  private func fetch(_ path: [String], _ query: [(String, String)]) async throws -> (Int, Data) {
    var request = URLRequest(
      url: url(path, query), timeoutInterval: max(1, timeout.rounded(.up)) + 1)
    request.setValue(Self.userAgent, forHTTPHeaderField: "User-Agent")
    request.setValue("application/json", forHTTPHeaderField: "Accept")

    let answer: HTTPResponse
    let (sent, transport) = (request, transport)
    let outcome = await LyricsDeadline.run(seconds: timeout) {
      try await transport.send(sent)
    }
    switch outcome {
    case .value(let response):
      answer = response
    case .timedOut:
      throw LRCLIBError.offlineOrSlow(
        detail: "no answer from the lyrics service within \(Self.seconds(timeout))")
    case .cancelled, .failure(NetworkError.cancelled):
      throw CancellationError()
    case .failure(let error as NetworkError):
      throw LRCLIBError.offlineOrSlow(detail: detail(error))
    case .failure(let error as CancellationError):
      throw error
    case .failure(let error):
      throw LRCLIBError.offlineOrSlow(detail: "the request failed (\(error))")
    }
    let (status, data) = (answer.status, answer.body)
    guard (200..<300).contains(status) || status == 404 else {
      let message = try? JSONDecoder().decode(ErrorBody.self, from: data).message
      throw LRCLIBError.httpStatus(status, message: message)
    }
    return (status, data)
  }

  /// The request URL: the base URL's path, then `path`, then the query.
  private func url(_ path: [String], _ query: [(String, String)]) -> URL {
    let endpoint = path.reduce(baseURL) { $0.appendingPathComponent($1) }
    guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else {
      return endpoint
    }
    components.percentEncodedQuery = query.map { "\($0)=\(Self.percentEncoded($1))" }
      .joined(separator: "&")
    return components.url ?? endpoint
  }

  /// Decodes a JSON answer, turning a failure into `.malformedResponse`.
  private func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
    do {
      return try JSONDecoder().decode(type, from: data)
    } catch let error as DecodingError {
      throw LRCLIBError.malformedResponse(detail: Self.reason(error))
    }
  }

  /// A short description of a transport failure.
  private func detail(_ error: NetworkError) -> String {
    switch error {
    case .timeout:
      return "no answer from the lyrics service within \(Self.seconds(timeout))"
    case .transport(let detail):
      return "cannot reach the lyrics service (\(detail))"
    case .tooLarge, .stalled:
      return "the lyrics service: \(error.description)"
    default:
      return "the request to the lyrics service failed (\(error))"
    }
  }

  /// The JSON shape of the service's error answers (`{"message","name","statusCode"}`).
  private struct ErrorBody: Decodable {
    var message: String?
  }

  /// Characters that may stay unescaped in a query value (RFC 3986 unreserved).
  private static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  /// Escapes a query value; `+`, `&` and `=` included, so they reach the service as typed.
  static func percentEncoded(_ value: String) -> String {
    value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
  }

  /// A short reason for a decoding failure.
  private static func reason(_ error: DecodingError) -> String {
    switch error {
    case .dataCorrupted(let context):
      let underlying = (context.underlyingError as NSError?)?.localizedDescription
      return "malformed JSON" + (underlying.map { ": \($0)" } ?? "")
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      return path.isEmpty ? "unexpected JSON shape" : "bad \"\(path)\" field"
    case .keyNotFound(let key, _):
      return "no \"\(key.stringValue)\" field"
    @unknown default:
      return "malformed JSON"
    }
  }

  /// A duration for messages: `5 s`, `0.5 s`.
  private static func seconds(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e9
      ? "\(Int(value)) s" : String(format: "%.1f s", value)
  }
}
