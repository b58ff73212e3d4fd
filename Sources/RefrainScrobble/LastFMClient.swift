import Foundation
import RefrainCore
import RefrainHTTP

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Last.fm's API 2.0 for scrobbling: `track.updateNowPlaying`, `track.scrobble` in batches of
/// up to 50, and the desktop authentication's `auth.getToken` and `auth.getSession`.
///
/// Every call is a POST to the one endpoint, form-encoded, signed with ``LastFMSignature``
/// (`api_sig`) and asking for `format=json`; scrobbling calls carry the session key (`sk`)
/// that `refrain scrobble login lastfm` stored (``LastFMSessionFile``). Last.fm's errors
/// (`{"error": 9, "message": "…"}`) become ``ScrobbleFailure``s: 9, 4, 10, 13 and 26 are
/// credentials, 29 is the rate limit, 11 and 16 are temporary, the rest reject the request.
public struct LastFMClient: ScrobbleClient {
  public var service: ScrobbleService { .lastFM }
  public var batchSize: Int { Self.maximumBatch }
  /// The most scrobbles one `track.scrobble` call takes (Last.fm's limit).
  public static let maximumBatch = 50
  /// The page where the user approves a token (desktop authentication).
  public static let authPage = "https://www.last.fm/api/auth/"

  private let endpoint: URL
  private let apiKey: String
  private let secret: String
  private let sessionKey: String?
  private let userAgent: String
  private let transport: any HTTPTransport
  private let timeout: Double

  /// Creates a client for the API `endpoint` (`https://ws.audioscrobbler.com/2.0/`) with the
  /// application's key and secret and, for scrobbling, the user's session key.
  public init(
    endpoint: URL, apiKey: String, secret: String, sessionKey: String?, version: String,
    transport: (any HTTPTransport)? = nil, timeout: Double = 10
  ) {
    self.endpoint = endpoint
    self.apiKey = apiKey
    self.secret = secret
    self.sessionKey = sessionKey
    userAgent = "Refrain/\(version) (terminal music player)"
    self.timeout = timeout
    self.transport = transport ?? URLSessionTransport(timeout: timeout, limits: .service)
  }

  // MARK: - Scrobbling

  public func nowPlaying(_ nowPlaying: NowPlaying) async throws(ScrobbleFailure) {
    let track = nowPlaying.track
    let artist = (track.artist ?? "").trimmingCharacters(in: .whitespaces)
    guard !artist.isEmpty else {
      throw .rejected(service: service, detail: "a scrobble needs an artist and a title")
    }
    var fields = [("method", "track.updateNowPlaying"), ("artist", artist), ("track", track.title)]
    if let album = track.album, !album.isEmpty { fields.append(("album", album)) }
    if let seconds = Self.wholeSeconds(nowPlaying.duration) {
      fields.append(("duration", seconds))
    }
    _ = try await call(fields, signedIn: true)
  }

  public func submit(_ listens: [QueuedListen]) async throws(ScrobbleFailure) -> ScrobbleReceipt {
    _ = try await call(Self.scrobbleFields(listens), signedIn: true)
    return ScrobbleReceipt()
  }

  /// `track.scrobble`'s indexed fields for up to 50 listens (`artist[0]`, `track[0]`,
  /// `timestamp[0]`, `album[0]`, `duration[0]`, …), without the key, session or signature.
  static func scrobbleFields(_ listens: [QueuedListen]) -> [(String, String)] {
    var fields = [("method", "track.scrobble")]
    for (index, listen) in listens.prefix(maximumBatch).enumerated() {
      fields.append(("artist[\(index)]", listen.artist))
      fields.append(("track[\(index)]", listen.title))
      fields.append(("timestamp[\(index)]", String(listen.listenedAt)))
      if !listen.album.isEmpty { fields.append(("album[\(index)]", listen.album)) }
      if let seconds = wholeSeconds(listen.duration) {
        fields.append(("duration[\(index)]", seconds))
      }
    }
    return fields
  }

  // MARK: - Desktop authentication

  /// `auth.getToken`: a token for the user to approve on ``approvalURL(token:)``.
  public func requestToken() async throws(ScrobbleFailure) -> String {
    struct Answer: Decodable { var token: String }
    let body = try await call([("method", "auth.getToken")], signedIn: false)
    guard let answer = try? JSONDecoder().decode(Answer.self, from: body) else {
      throw .failed(service: service, detail: "auth.getToken's answer had no token")
    }
    return answer.token
  }

  /// The page where the user approves `token`: `https://www.last.fm/api/auth/?api_key=…&token=…`.
  public func approvalURL(token: String) -> String {
    var components = URLComponents(string: Self.authPage)
    components?.queryItems = [
      URLQueryItem(name: "api_key", value: apiKey), URLQueryItem(name: "token", value: token),
    ]
    return components?.string ?? Self.authPage
  }

  /// `auth.getSession`: the session for an approved token (the user's name and session key).
  public func session(forToken token: String) async throws(ScrobbleFailure) -> LastFMSession {
    struct Answer: Decodable {
      struct Session: Decodable {
        var name: String
        var key: String
      }
      var session: Session
    }
    let body = try await call([("method", "auth.getSession"), ("token", token)], signedIn: false)
    guard let answer = try? JSONDecoder().decode(Answer.self, from: body) else {
      throw .failed(service: service, detail: "auth.getSession's answer had no session")
    }
    return LastFMSession(name: answer.session.name, key: answer.session.key)
  }

  // MARK: - Requests

  /// The signed form for `fields`: the fields, `api_key`, `sk` when signed in, `api_sig`
  /// over all of them, then `format=json` (unsigned).
  func signedForm(_ fields: [(String, String)], sessionKey: String?) -> [(String, String)] {
    var form = fields + [("api_key", apiKey)]
    if let sessionKey { form.append(("sk", sessionKey)) }
    let signature = LastFMSignature.sign(
      Dictionary(form, uniquingKeysWith: { _, last in last }), secret: secret)
    return form + [("api_sig", signature), ("format", "json")]
  }

  private func call(_ fields: [(String, String)], signedIn: Bool) async throws(ScrobbleFailure)
    -> Data
  {
    if signedIn && sessionKey == nil {
      throw .unauthorized(service: service, detail: "not logged in")
    }
    // The endpoint is used exactly as configured: Last.fm's ends in `/2.0/`, and `Endpoint`
    // would drop the final slash (a redirect that turns a POST into a GET).
    var request = URLRequest(url: endpoint, timeoutInterval: timeout)
    request.httpMethod = "POST"
    request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    request.httpBody = Endpoint.formBody(
      signedForm(fields, sessionKey: signedIn ? sessionKey : nil))
    let response: HTTPResponse
    do throws(NetworkError) {
      response = try await transport.send(request)
    } catch {
      throw .failed(service: service, detail: error.description)
    }
    if let error = Self.apiError(response.body) { throw failure(error) }
    guard (200..<300).contains(response.status) else {
      if response.status == 429 { throw .rateLimited(service: service, retryIn: 60) }
      throw .failed(
        service: service,
        detail: NetworkError.httpStatus(code: response.status, body: "").description)
    }
    return response.body
  }

  /// Last.fm's error body, if the answer is one.
  private static func apiError(_ body: Data) -> (code: Int, message: String)? {
    struct Answer: Decodable {
      var error: Int
      var message: String?
    }
    guard let answer = try? JSONDecoder().decode(Answer.self, from: body) else { return nil }
    return (answer.error, TerminalSanitizer.clean(answer.message ?? "").prefix(200).description)
  }

  private func failure(_ error: (code: Int, message: String)) -> ScrobbleFailure {
    let detail = "error \(error.code): \(error.message)"
    switch error.code {
    case 4, 9, 10, 13, 26: return .unauthorized(service: service, detail: detail)
    case 14: return .unauthorized(service: service, detail: "the token was not approved yet")
    case 29: return .rateLimited(service: service, retryIn: 60)
    case 8, 11, 16: return .failed(service: service, detail: detail)
    default: return .rejected(service: service, detail: detail)
    }
  }

  private static func wholeSeconds(_ duration: Double) -> String? {
    guard duration.isFinite, duration >= 1 else { return nil }
    return String(Int(duration.rounded()))
  }
}

/// A Last.fm session: the user's name and the session key that signs scrobbles.
public struct LastFMSession: Sendable, Equatable, Codable {
  /// The Last.fm user name.
  public var name: String
  /// The session key (`sk`); a credential.
  public var key: String

  /// Creates a session.
  public init(name: String, key: String) {
    self.name = name
    self.key = key
  }
}
