import Foundation
import RefrainHTTP

/// How Refrain proves who it is to a Subsonic server: never with the password itself.
public enum SubsonicAuth: Sendable, Hashable {
  /// Token authentication (API 1.13): `t` = MD5(password + salt) with its salt `s`.
  case token(token: String, salt: String)
  /// The OpenSubsonic `apiKeyAuthentication` extension: `apiKey`, and no `u`.
  case apiKey(String)

  /// The token for `password` and `salt`: the lowercase hex MD5 of their UTF-8 bytes joined.
  public static func token(password: String, salt: String) -> SubsonicAuth {
    let digest = Digests.md5(Array((password + salt).utf8))
    return .token(token: digest.map { String(format: "%02x", $0) }.joined(), salt: salt)
  }

  /// A fresh salt of 16 hex digits from the system's random numbers.
  public static func randomSalt() -> String {
    var generator = SystemRandomNumberGenerator()
    return String(format: "%016llx", generator.next() as UInt64)
  }

  /// The short name `refrain subsonic status` shows: `token` or `apikey`.
  public var kind: String {
    switch self {
    case .token: return "token"
    case .apiKey: return "apikey"
    }
  }
}

/// A login to a Subsonic server: who, where and how, with what the server said of itself.
///
/// Stored in `subsonic.json`; it holds a token and its salt, or an API key, never a password.
public struct SubsonicAccount: Sendable, Hashable, Codable {
  /// The server's address as the user gave it (scheme, host, port and any path prefix).
  public var server: URL
  /// The user name.
  public var user: String
  /// The credentials sent with every request.
  public var auth: SubsonicAuth
  /// The API version the server reported at login, such as `1.16.1`.
  public var apiVersion: String
  /// The server's name for itself (`type`, OpenSubsonic), when it gave one.
  public var serverType: String?
  /// The OpenSubsonic extensions the server listed at login.
  public var extensions: [String]

  /// Creates an account.
  public init(
    server: URL, user: String, auth: SubsonicAuth, apiVersion: String, serverType: String? = nil,
    extensions: [String] = []
  ) {
    self.server = server
    self.user = user
    self.auth = auth
    self.apiVersion = apiVersion
    self.serverType = serverType
    self.extensions = extensions
  }

  /// `host:port` of the server (the port from the scheme when the address has none).
  public var hostAndPort: String {
    let host = server.host ?? server.absoluteString
    let port = server.port ?? (server.scheme?.lowercased() == "https" ? 443 : 80)
    return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
  }

  enum CodingKeys: String, CodingKey {
    case server, user, token, salt
    case apiKey = "api_key"
    case apiVersion = "api_version"
    case serverType = "server_type"
    case extensions
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    server = try container.decode(URL.self, forKey: .server)
    user = try container.decode(String.self, forKey: .user)
    if let key = try container.decodeIfPresent(String.self, forKey: .apiKey) {
      auth = .apiKey(key)
    } else {
      auth = .token(
        token: try container.decode(String.self, forKey: .token),
        salt: try container.decode(String.self, forKey: .salt))
    }
    apiVersion = try container.decode(String.self, forKey: .apiVersion)
    serverType = try container.decodeIfPresent(String.self, forKey: .serverType)
    extensions = try container.decodeIfPresent([String].self, forKey: .extensions) ?? []
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(server, forKey: .server)
    try container.encode(user, forKey: .user)
    switch auth {
    case .token(let token, let salt):
      try container.encode(token, forKey: .token)
      try container.encode(salt, forKey: .salt)
    case .apiKey(let key):
      try container.encode(key, forKey: .apiKey)
    }
    try container.encode(apiVersion, forKey: .apiVersion)
    try container.encodeIfPresent(serverType, forKey: .serverType)
    try container.encode(extensions, forKey: .extensions)
  }
}
