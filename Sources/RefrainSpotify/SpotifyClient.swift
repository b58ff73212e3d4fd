import Foundation
import RefrainCore
import RefrainHTTP

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Where Spotify's services are: the accounts service (login, tokens) and the Web API.
public struct SpotifyEndpoints: Sendable {
  /// The accounts root: `/authorize` and `/api/token` are under it.
  public var accounts: URL
  /// The Web API root, `…/v1`.
  public var api: URL

  public init(accounts: URL, api: URL) {
    self.accounts = accounts
    self.api = api
  }

  /// Spotify's own services, unless `REFRAIN_SPOTIFY_ACCOUNTS_URL` and
  /// `REFRAIN_SPOTIFY_API_URL` name others (test servers).
  public static func resolve(environment: [String: String]) -> SpotifyEndpoints {
    let accounts = environment["REFRAIN_SPOTIFY_ACCOUNTS_URL"].flatMap(URL.init(string:))
    let api = environment["REFRAIN_SPOTIFY_API_URL"].flatMap(URL.init(string:))
    return SpotifyEndpoints(
      accounts: accounts ?? URL(fileURLWithPath: "/").resolvingHost("accounts.spotify.com"),
      api: api ?? URL(fileURLWithPath: "/").resolvingHost("api.spotify.com", path: "/v1"))
  }
}

/// Talks to Spotify for one user: exchanges and refreshes tokens, and reads the Web API.
///
/// - The access token is refreshed when it is within a minute of expiring, and once when
///   the API answers 401; a second 401, or a refresh Spotify refuses, is
///   ``SpotifyError/loginExpired(_:)``.
/// - Every refresh stores the answer at once, with the rotated refresh token when Spotify
///   sends one, so a crash never leaves a used-up refresh token in the file.
/// - 429 waits `Retry-After` seconds (at most 60 each time, 5 times in a row) and retries.
/// - 403 and 404 are ``SpotifyError/notAvailable(_:)``: Spotify withdraws endpoints from
///   apps in development mode.
/// - No token is ever part of an error's text.
public actor SpotifyClient {
  public let endpoints: SpotifyEndpoints
  private let transport: any HTTPTransport
  private let tokenFile: SpotifyTokenFile?
  private let clock: NetworkClock
  private var token: SpotifyToken?

  public init(
    endpoints: SpotifyEndpoints, token: SpotifyToken?, tokenFile: SpotifyTokenFile?,
    transport: any HTTPTransport = URLSessionTransport(timeout: 20), clock: NetworkClock = .system
  ) {
    self.endpoints = endpoints
    self.token = token
    self.tokenFile = tokenFile
    self.transport = transport
    self.clock = clock
  }

  /// The current login.
  public var currentToken: SpotifyToken? { token }

  // MARK: - Tokens

  /// Exchanges an authorization code for tokens (PKCE: the verifier instead of a secret).
  public func exchange(
    code: String, attempt: SpotifyAuthorization.Attempt, clientID: String
  ) async throws(SpotifyError) -> SpotifyToken {
    let answer = try await tokenRequest([
      "grant_type": "authorization_code", "code": code, "redirect_uri": attempt.redirectURI,
      "client_id": clientID, "code_verifier": attempt.verifier,
    ])
    guard let refresh = answer.refreshToken else {
      throw .login("Spotify sent no refresh token; try `refrain spotify login` again")
    }
    let token = SpotifyToken(
      accessToken: answer.accessToken, refreshToken: refresh,
      expiresAt: clock.date().timeIntervalSince1970 + Double(answer.expiresIn ?? 3600),
      scope: answer.scope, clientID: clientID)
    self.token = token
    return token
  }

  /// Records who the token belongs to and stores the login.
  public func remember(userID: String, userName: String?) throws(SpotifyError) {
    guard var token else { throw .notLoggedIn }
    token.userID = userID
    token.userName = userName
    self.token = token
    try tokenFile?.save(token)
  }

  /// Refreshes the access token and stores the answer.
  public func refresh() async throws(SpotifyError) {
    guard var token else { throw .notLoggedIn }
    let answer: TokenAnswer
    do {
      answer = try await tokenRequest([
        "grant_type": "refresh_token", "refresh_token": token.refreshToken,
        "client_id": token.clientID,
      ])
    } catch .login(let why) {
      throw .loginExpired(why)
    }
    token.accessToken = answer.accessToken
    if let rotated = answer.refreshToken { token.refreshToken = rotated }
    token.expiresAt = clock.date().timeIntervalSince1970 + Double(answer.expiresIn ?? 3600)
    if let scope = answer.scope { token.scope = scope }
    self.token = token
    try tokenFile?.save(token)
  }

  private struct TokenAnswer: Decodable {
    var accessToken: String
    var refreshToken: String?
    var expiresIn: Int?
    var scope: String?
    enum CodingKeys: String, CodingKey {
      case accessToken = "access_token"
      case refreshToken = "refresh_token"
      case expiresIn = "expires_in"
      case scope
    }
  }

  private struct TokenFailure: Decodable {
    var error: String
    var errorDescription: String?
    enum CodingKeys: String, CodingKey {
      case error
      case errorDescription = "error_description"
    }
  }

  private func tokenRequest(_ form: [String: String]) async throws(SpotifyError) -> TokenAnswer {
    var request = URLRequest(url: endpoints.accounts.appendingPathComponent("api/token"))
    request.httpMethod = "POST"
    request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(Self.formBody(form).utf8)
    let response = try await send(request)
    if (200..<300).contains(response.status),
      let answer = try? JSONDecoder().decode(TokenAnswer.self, from: response.body)
    {
      return answer
    }
    if let failure = try? JSONDecoder().decode(TokenFailure.self, from: response.body) {
      let detail = TerminalSanitizer.clean(failure.errorDescription ?? failure.error)
      switch failure.error {
      case "invalid_grant":
        throw .login("the refresh token was revoked or has expired: \(detail)")
      case "invalid_client":
        throw .login("Spotify does not know this client ID (\(detail)); check spotify.client_id")
      default:
        throw .login("Spotify refused the login: \(detail)")
      }
    }
    throw .service("Spotify's accounts service answered HTTP \(response.status)")
  }

  /// `application/x-www-form-urlencoded`, keys sorted.
  static func formBody(_ form: [String: String]) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return form.sorted { $0.key < $1.key }.map { key, value in
      let encoded = value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
      return "\(key)=\(encoded)"
    }.joined(separator: "&")
  }

  // MARK: - The Web API

  /// `GET` an API path under the root (`me/tracks?limit=50`) or an absolute `next` URL,
  /// decoded as `Value`.
  public func get<Value: Decodable & Sendable>(_ type: Value.Type, _ address: String)
    async throws(SpotifyError) -> Value
  {
    let data = try await getData(address)
    do {
      return try JSONDecoder().decode(type, from: data)
    } catch {
      throw .service(
        "Spotify's answer to \(Self.pathOnly(address)) could not be read (\(DecodingErrorSummary.describe(error)))"
      )
    }
  }

  /// The URL for an API path or an absolute address.
  func url(_ address: String) -> URL? {
    if address.hasPrefix("http://") || address.hasPrefix("https://") { return URL(string: address) }
    return URL(string: endpoints.api.absoluteString + "/" + address)
  }

  private func getData(_ address: String) async throws(SpotifyError) -> Data {
    guard let url = url(address) else { throw .service("not an address: \(address)") }
    var refreshed = false
    var waits = 0
    while true {
      guard var token else { throw .notLoggedIn }
      if token.isExpiring(now: clock.date().timeIntervalSince1970) {
        try await refresh()
        refreshed = true
        guard let fresh = self.token else { throw .notLoggedIn }
        token = fresh
      }
      var request = URLRequest(url: url)
      request.setValue("Bearer \(token.accessToken)", forHTTPHeaderField: "Authorization")
      let response = try await send(request)
      switch response.status {
      case 200..<300:
        return response.body
      case 401:
        guard !refreshed else {
          throw .loginExpired("the API refused a freshly refreshed token")
        }
        try await refresh()
        refreshed = true
      case 429:
        waits += 1
        guard waits <= 5 else {
          throw .service("Spotify keeps answering \"too many requests\"; try again later")
        }
        let seconds = min(60, max(1, Double(response.header("Retry-After") ?? "") ?? 1))
        do {
          try await clock.sleep(seconds)
        } catch {
          throw .service("cancelled")
        }
      case 403, 404:
        throw .notAvailable(Self.pathOnly(address))
      default:
        throw .service("Spotify answered HTTP \(response.status) to \(Self.pathOnly(address))")
      }
    }
  }

  private func send(_ request: URLRequest) async throws(SpotifyError) -> HTTPResponse {
    do {
      return try await transport.send(request)
    } catch {
      throw .service("cannot reach Spotify: \(error)")
    }
  }

  /// An address's path without its query, as errors name it.
  static func pathOnly(_ address: String) -> String {
    let path = URL(string: address).map(\.path) ?? address
    let trimmed = path.split(separator: "?").first.map(String.init) ?? path
    if let range = trimmed.range(of: "/v1/") { return String(trimmed[range.upperBound...]) }
    return trimmed
  }
}

extension URL {
  /// `https://HOST` + `path`: a fixed service address built without a force unwrap.
  fileprivate func resolvingHost(_ host: String, path: String = "") -> URL {
    var components = URLComponents()
    components.scheme = "https"
    components.host = host
    components.path = path
    return components.url ?? self
  }
}
