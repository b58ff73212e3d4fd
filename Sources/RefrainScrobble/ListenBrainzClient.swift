import Foundation
import RefrainCore
import RefrainHTTP

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// ListenBrainz's `POST /1/submit-listens`: `playing_now`, `single` and `import` bodies
/// (``ListenBrainzPayload``) with `Authorization: Token …` and a User-Agent naming Refrain.
///
/// Rate limits: every answer's `X-RateLimit-Remaining` and `X-RateLimit-Reset-In` are read;
/// when nothing remains, the receipt holds the next request until the window resets, and a
/// 429 is ``ScrobbleFailure/rateLimited(service:retryIn:)`` with the reset time (60 s when the
/// headers are missing).
public struct ListenBrainzClient: ScrobbleClient {
  public var service: ScrobbleService { .listenBrainz }
  public var batchSize: Int { ListenBrainzPayload.maximumImport }

  private let root: URL
  private let token: String
  private let client: ListenBrainzPayload.Client
  private let transport: any HTTPTransport
  private let timeout: Double

  /// Creates a client for the API at `root` (`https://api.listenbrainz.org`) with the user's
  /// token; `clientName` and `version` name Refrain in the User-Agent and in every listen.
  public init(
    root: URL, token: String, clientName: String = "Refrain", version: String,
    transport: (any HTTPTransport)? = nil, timeout: Double = 10
  ) {
    self.root = root
    self.token = token
    client = ListenBrainzPayload.Client(name: clientName, version: version)
    self.timeout = timeout
    self.transport = transport ?? URLSessionTransport(timeout: timeout, limits: .service)
  }

  public func nowPlaying(_ nowPlaying: NowPlaying) async throws(ScrobbleFailure) {
    guard let body = ListenBrainzPayload.playingNow(nowPlaying, client: client) else {
      throw .rejected(service: service, detail: "a listen needs an artist and a title")
    }
    _ = try await post(body)
  }

  public func submit(_ listens: [QueuedListen]) async throws(ScrobbleFailure) -> ScrobbleReceipt {
    let body =
      listens.count == 1
      ? listens.first.flatMap { ListenBrainzPayload.single($0, client: client) }
      : ListenBrainzPayload.importing(listens, client: client)
    guard let body else {
      throw .rejected(service: service, detail: "a listen needs an artist and a title")
    }
    return try await post(body)
  }

  /// The User-Agent: `Refrain/VERSION (terminal music player)`.
  var userAgent: String { "\(client.name)/\(client.version) (terminal music player)" }

  private func post(_ body: Data) async throws(ScrobbleFailure) -> ScrobbleReceipt {
    let endpoint = Endpoint(
      baseURL: root, method: .post, path: "/1/submit-listens",
      headers: ["Authorization": "Token \(token)", "Content-Type": "application/json"],
      body: body)
    let response: HTTPResponse
    do throws(NetworkError) {
      let request = try endpoint.urlRequest(timeout: timeout, userAgent: userAgent)
      response = try await transport.send(request)
    } catch {
      throw .failed(service: service, detail: error.description)
    }
    let resetIn = ServerNumber.seconds(
      response.header("X-RateLimit-Reset-In").flatMap { Double($0) }.map { max(0, $0) })
    switch response.status {
    case 200..<300:
      let remaining = response.header("X-RateLimit-Remaining").flatMap { Int($0) }
      return ScrobbleReceipt(holdFor: remaining == 0 ? (resetIn ?? 0) : 0)
    case 429:
      throw .rateLimited(service: service, retryIn: resetIn ?? 60)
    case 401, 403:
      throw .unauthorized(service: service, detail: "HTTP \(response.status)")
    case 400:
      throw .rejected(service: service, detail: Self.errorText(response))
    default:
      throw .failed(
        service: service,
        detail: NetworkError.httpStatus(code: response.status, body: "")
          .description)
    }
  }

  /// ListenBrainz's `{"code": 400, "error": "…"}` message, else the status.
  private static func errorText(_ response: HTTPResponse) -> String {
    struct Answer: Decodable { var error: String? }
    let message = (try? JSONDecoder().decode(Answer.self, from: response.body))?.error
    return message.map { "HTTP \(response.status): \(TerminalSanitizer.clean($0).prefix(200))" }
      ?? "HTTP \(response.status)"
  }
}
