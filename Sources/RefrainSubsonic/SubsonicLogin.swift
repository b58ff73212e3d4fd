import Foundation
import RefrainHTTP

/// `refrain subsonic login`: finds how the server lets Refrain in without storing the
/// password, and checks that very way with `ping.view`.
///
/// 1. `getOpenSubsonicExtensions` with a token: a list, or "no extensions" when the server
///    does not know the method (error 0 or HTTP 404) or misses a parameter (error 10).
/// 2. With `apiKeyAuthentication` listed, the secret is tried as an API key (`apiKey=`).
/// 3. Otherwise, or when the key is refused, the token (`t` = MD5(secret + salt), `s`) is
///    checked with `ping.view`; that token and salt are what is stored. A server that
///    refuses the token for any reason but the password (it wants `p=`) is refused.
///
/// The secret is never sent as `p=`, and never stored.
public struct SubsonicLogin: Sendable {
  /// The server's address as given.
  public var server: URL
  /// The user name.
  public var user: String
  /// Allows plain `http://` to a host other than this machine.
  public var insecure: Bool

  /// A login to `server` as `user`.
  public init(server: URL, user: String, insecure: Bool = false) {
    self.server = server
    self.user = user
    self.insecure = insecure
  }

  /// Reads a server address: `http://` or `https://` with a host; a trailing `/rest` and
  /// slashes are dropped, since every request adds `rest/METHOD.view` itself.
  public static func address(_ text: String) throws(SubsonicError) -> URL {
    var trimmed = text.trimmingCharacters(in: .whitespaces)
    while trimmed.hasSuffix("/") { trimmed.removeLast() }
    if trimmed.lowercased().hasSuffix("/rest") { trimmed.removeLast(5) }
    guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", url.host?.isEmpty == false
    else { throw .badAddress(text) }
    return url
  }

  /// Refuses plain `http://` to a host other than a loopback one unless `insecure`.
  public func checkTransport() throws(SubsonicError) {
    guard server.scheme?.lowercased() == "http", !insecure else { return }
    let host = (server.host ?? "").lowercased()
    if host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.") { return }
    throw .insecure(host: host)
  }

  /// Logs in with `secret` (a password, or an API key the server made) and returns the
  /// account to store; `salt` is the token's salt (a fresh random one by default).
  public func perform(
    secret: String, salt: String = SubsonicAuth.randomSalt(), http: HTTPClient
  ) async throws(SubsonicError) -> SubsonicAccount {
    try checkTransport()
    let tokenAuth = SubsonicAuth.token(password: secret, salt: salt)
    let tokenClient = SubsonicClient(
      api: SubsonicAPI(server: server, user: user, auth: tokenAuth), http: http)
    let extensions = try await Self.extensions(tokenClient)
    if extensions.contains("apiKeyAuthentication") {
      let keyClient = SubsonicClient(
        api: SubsonicAPI(server: server, user: user, auth: .apiKey(secret)), http: http)
      let ping = try await keyClient.answer(SubsonicEmpty.self, "ping")
      if ping.error == nil {
        return account(.apiKey(secret), ping, extensions)
      }
      // A refused key may be the user's password: try it as a token below.
      guard let code = ping.error?.code, [40, 42, 43, 44].contains(code) else {
        throw Self.failure(ping.error)
      }
    }
    let ping = try await tokenClient.answer(SubsonicEmpty.self, "ping")
    guard let error = ping.error else { return account(tokenAuth, ping, extensions) }
    switch error.code {
    case 40, 44: throw .server(code: 40, message: error.message ?? "")
    case 10, 30, 41, 42: throw .passwordOnly(code: error.code, message: error.message ?? "")
    default: throw Self.failure(error)
    }
  }

  private func account(
    _ auth: SubsonicAuth, _ ping: SubsonicResponse<SubsonicEmpty>, _ extensions: [String]
  ) -> SubsonicAccount {
    SubsonicAccount(
      server: server, user: user, auth: auth, apiVersion: ping.version, serverType: ping.type,
      extensions: extensions)
  }

  /// The extensions the server lists; none when it does not know the method.
  ///
  /// An unknown method (error 0, HTTP 404) or a missing parameter (error 10) means none.
  /// Transport failures throw: the server cannot be reached.
  static func extensions(_ client: SubsonicClient) async throws(SubsonicError) -> [String] {
    let answer: SubsonicResponse<SubsonicExtensionsBody>
    do {
      answer = try await client.answer(SubsonicExtensionsBody.self, "getOpenSubsonicExtensions")
    } catch .network(.httpStatus(404, _)) {
      return []
    }
    return (answer.body?.openSubsonicExtensions ?? []).map(\.name).sorted()
  }

  private static func failure(_ error: SubsonicErrorBody?) -> SubsonicError {
    .server(code: error?.code ?? 0, message: error?.message ?? "")
  }
}
