import Foundation
import RefrainCatalog
import RefrainCore

/// The user's Spotify login: tokens, when the access token expires, and who it is.
///
/// `description` never shows a token, so a token cannot reach a log by interpolation.
public struct SpotifyToken: Codable, Sendable, Equatable, CustomStringConvertible {
  public var accessToken: String
  public var refreshToken: String
  /// When the access token expires, in Unix seconds.
  public var expiresAt: Double
  public var scope: String?
  public var clientID: String
  public var userID: String?
  public var userName: String?

  enum CodingKeys: String, CodingKey {
    case accessToken = "access_token"
    case refreshToken = "refresh_token"
    case expiresAt = "expires_at"
    case scope
    case clientID = "client_id"
    case userID = "user_id"
    case userName = "user_name"
  }

  public init(
    accessToken: String, refreshToken: String, expiresAt: Double, scope: String?,
    clientID: String, userID: String? = nil, userName: String? = nil
  ) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiresAt = expiresAt
    self.scope = scope
    self.clientID = clientID
    self.userID = userID
    self.userName = userName
  }

  public var description: String {
    "SpotifyToken(user: \(userID ?? "?"), expiresAt: \(expiresAt))"
  }

  /// Whether the access token is expired or expires within `margin` seconds of `now`.
  public func isExpiring(now: Double, margin: Double = 60) -> Bool { now + margin >= expiresAt }
}

/// Where the login is kept: `$XDG_DATA_HOME/refrain/spotify-token.json`, mode 0600, written
/// as a ``PrivateFile`` (whole, and readable only by the user).
public struct SpotifyTokenFile: Sendable {
  /// The file's location.
  public let url: URL

  public init(url: URL) { self.url = url }

  /// The file in Refrain's data folder for `environment`.
  public static func standard(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> SpotifyTokenFile {
    SpotifyTokenFile(
      url: LibraryStore.defaultFileURL(environment: environment).deletingLastPathComponent()
        .appendingPathComponent("spotify-token.json"))
  }

  /// The stored login, or `nil` when there is none or it cannot be read.
  public func load() -> SpotifyToken? {
    guard let data = try? Data(contentsOf: url) else { return nil }
    return try? JSONDecoder().decode(SpotifyToken.self, from: data)
  }

  /// Stores `token`, replacing the previous one.
  public func save(_ token: SpotifyToken) throws(SpotifyError) {
    guard PrivateFile.write(JSONOutput.data(token), to: url) else {
      throw .library("cannot write \(url.path); check that the folder exists and is yours")
    }
  }

  /// Removes the login; `true` when there was one.
  @discardableResult
  public func remove() -> Bool { unlink(url.path) == 0 }
}
