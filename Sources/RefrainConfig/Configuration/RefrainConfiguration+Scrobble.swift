import Foundation

/// Where the scrobbling clients send listens, and with which credentials.
extension RefrainConfiguration {
  /// The environment variable that points the ListenBrainz client at another server.
  public static let listenBrainzURLVariable = "REFRAIN_LISTENBRAINZ_URL"
  /// The environment variable that points the Last.fm client at another server.
  public static let lastFMURLVariable = "REFRAIN_LASTFM_URL"
  /// ListenBrainz's public API root (the client adds `1/submit-listens`).
  public static let listenBrainzDefaultURL = "https://api.listenbrainz.org"
  /// Last.fm's public API endpoint (every method is a request to this one address).
  public static let lastFMDefaultURL = "https://ws.audioscrobbler.com/2.0/"

  /// The ListenBrainz API root: `REFRAIN_LISTENBRAINZ_URL` when it holds an `http(s)` URL
  /// with a host (a test server), else the public service.
  ///
  /// An empty or invalid variable counts as unset; whether listens are sent at all depends on
  /// the token, not on this address.
  public func listenBrainzURL(environment: [String: String]) -> URL {
    Self.scrobbleURL(
      environment[Self.listenBrainzURLVariable], default: Self.listenBrainzDefaultURL)
  }

  /// The Last.fm API endpoint: `REFRAIN_LASTFM_URL` when it holds an `http(s)` URL with a
  /// host (a test server), else the public service.
  public func lastFMURL(environment: [String: String]) -> URL {
    Self.scrobbleURL(environment[Self.lastFMURLVariable], default: Self.lastFMDefaultURL)
  }

  /// The ListenBrainz token: `scrobble.listenbrainz_token` when set, else the first line of
  /// `scrobble.listenbrainz_token_file` (read with `read`), else `nil` (ListenBrainz off).
  ///
  /// The errors name the file and what to do, never its content.
  public func listenBrainzToken(
    reading read: (String) throws -> String = { try String(contentsOfFile: $0, encoding: .utf8) }
  ) throws(ScrobbleCredentialError) -> SecretText? {
    if let listenBrainzToken { return listenBrainzToken }
    guard let file = listenBrainzTokenFile else { return nil }
    let text: String
    do {
      text = try read(file)
    } catch {
      throw .unreadableTokenFile(path: file)
    }
    let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    let token = line.trimmingCharacters(in: .whitespaces)
    guard !token.isEmpty else { throw .emptyTokenFile(path: file) }
    guard SecretText.isOneWord(token) else { throw .malformedTokenFile(path: file) }
    return SecretText(token)
  }

  /// Last.fm's API key and shared secret when both are set; `nil` (Last.fm off) otherwise.
  public var lastFMCredentials: (apiKey: SecretText, secret: SecretText)? {
    guard let lastFMAPIKey, let lastFMSecret else { return nil }
    return (lastFMAPIKey, lastFMSecret)
  }

  /// The URL in `text` when it is a valid `http(s)` address, else `fallback` (a constant).
  private static func scrobbleURL(_ text: String?, default fallback: String) -> URL {
    text.flatMap(serviceURL) ?? URL(string: fallback) ?? URL(fileURLWithPath: "/")
  }
}

/// Why a scrobbling credential could not be read; each message says what to do and never
/// shows the credential.
public enum ScrobbleCredentialError: Error, Equatable, CustomStringConvertible {
  /// The token file does not exist or cannot be read.
  case unreadableTokenFile(path: String)
  /// The token file holds no token on its first line.
  case emptyTokenFile(path: String)
  /// The token file's first line is not one word.
  case malformedTokenFile(path: String)

  public var description: String {
    switch self {
    case .unreadableTokenFile(let path):
      return "scrobble.listenbrainz_token_file: cannot read \(path); check the path and that "
        + "you may read it (chmod 600 keeps it yours), or set scrobble.listenbrainz_token"
    case .emptyTokenFile(let path):
      return "scrobble.listenbrainz_token_file: \(path) is empty; put your ListenBrainz user "
        + "token on its first line (listenbrainz.org/settings shows it)"
    case .malformedTokenFile(let path):
      return "scrobble.listenbrainz_token_file: the first line of \(path) is not one word; "
        + "put only your ListenBrainz user token there"
    }
  }
}
