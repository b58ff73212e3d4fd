import Foundation
import RefrainHTTP

/// Spotify's Authorization Code flow with PKCE (S256), for a public client: the pieces
/// that need no network, so they can be checked on their own.
public enum SpotifyAuthorization {
  /// The permissions Refrain asks for, all read-only.
  ///
  /// The user's playlists (private and collaborative ones too) and their saved tracks and
  /// albums; nothing is ever written to the account.
  public static let scopes = "playlist-read-private playlist-read-collaborative user-library-read"
  /// The loopback port of the redirect unless `--port` names another; the app registered on
  /// Spotify's dashboard must list exactly `http://127.0.0.1:8974/callback`.
  public static let defaultPort = 8974

  /// One login attempt: the verifier kept secret until the code exchange, its challenge,
  /// and the `state` the answer must echo.
  public struct Attempt: Sendable, Equatable {
    public let verifier: String
    public let challenge: String
    public let state: String
    public let redirectURI: String

    /// An attempt with fresh secrets from `random` (the system's generator by default).
    public init(port: Int, random: inout some RandomNumberGenerator) {
      verifier = SpotifyAuthorization.randomText(64, using: &random)
      state = SpotifyAuthorization.randomText(24, using: &random)
      challenge = SpotifyAuthorization.challenge(for: verifier)
      redirectURI = "http://127.0.0.1:\(port)/callback"
    }

    /// An attempt with fresh secrets from the system's generator.
    public init(port: Int) {
      var random = SystemRandomNumberGenerator()
      self.init(port: port, random: &random)
    }

    /// The address the user opens to log in.
    public func authorizeURL(accounts: URL, clientID: String) -> URL? {
      guard
        var components = URLComponents(
          url: accounts.appendingPathComponent("authorize"), resolvingAgainstBaseURL: false)
      else { return nil }
      components.queryItems = [
        URLQueryItem(name: "client_id", value: clientID),
        URLQueryItem(name: "response_type", value: "code"),
        URLQueryItem(name: "redirect_uri", value: redirectURI),
        URLQueryItem(name: "code_challenge_method", value: "S256"),
        URLQueryItem(name: "code_challenge", value: challenge),
        URLQueryItem(name: "state", value: state),
        URLQueryItem(name: "scope", value: SpotifyAuthorization.scopes),
      ]
      // URLComponents leaves "+" alone, which a form decoder reads as a space.
      components.percentEncodedQuery = components.percentEncodedQuery?
        .replacingOccurrences(of: "+", with: "%2B")
      return components.url
    }

    /// The code in the address the browser was sent back to, once `state` matches.
    public func code(fromRedirect address: String) throws(SpotifyError) -> String {
      let trimmed = address.trimmingCharacters(in: .whitespacesAndNewlines)
      guard let components = URLComponents(string: trimmed), components.query != nil else {
        throw .login(
          "that is not the address the browser was sent back to; it starts with \(redirectURI)?code="
        )
      }
      let items = components.queryItems ?? []
      let value = { (name: String) in items.first { $0.name == name }?.value }
      guard value("state") == state else {
        throw .login(
          "the login answer does not match this login (its state differs); run `refrain spotify login` again"
        )
      }
      if let error = value("error") {
        throw .login("Spotify login was cancelled (\(error))")
      }
      guard let code = value("code"), !code.isEmpty else {
        throw .login("the address has no code; copy the whole address from the browser")
      }
      return code
    }
  }

  /// The S256 challenge of `verifier`: base64url of its SHA-256, without padding.
  public static func challenge(for verifier: String) -> String {
    base64URL(sha256(Array(verifier.utf8)))
  }

  /// `count` characters drawn from the unreserved set RFC 7636 allows in a verifier.
  static func randomText(_ count: Int, using random: inout some RandomNumberGenerator) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    return String(
      (0..<count).map { _ in alphabet[Int(random.next(upperBound: UInt64(alphabet.count)))] })
  }

  /// Base64url without padding.
  static func base64URL(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// SHA-256 by libgcrypt.
  static func sha256(_ bytes: [UInt8]) -> [UInt8] { Digests.sha256(bytes) }
}

/// Why something about Spotify did not work, in words that say what the user can do.
public enum SpotifyError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The login did not complete.
  case login(String)
  /// No token is stored.
  case notLoggedIn
  /// Spotify refused the stored login (revoked, or refused twice): log in again.
  case loginExpired(String)
  /// An endpoint Spotify has withdrawn for this app (403 or 404).
  case notAvailable(String)
  /// The service could not be reached or answered badly.
  case service(String)
  /// The library could not be written.
  case library(String)

  public var description: String {
    switch self {
    case .login(let why): return why
    case .notLoggedIn: return "not logged in to Spotify: run `refrain spotify login`"
    case .loginExpired(let why):
      return "Spotify refused the saved login (\(why)): run `refrain spotify login` to log in again"
    case .notAvailable(let what): return "\(what) is not available for this app"
    case .service(let why): return why
    case .library(let why): return why
    }
  }
}
