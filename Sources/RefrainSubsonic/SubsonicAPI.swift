import Foundation
import RefrainCore
import RefrainHTTP

/// The requests Refrain sends a Subsonic server, as `Endpoint`s under `rest/`.
///
/// Every request carries the account's credentials (`u`, `t`, `s`, or `apiKey` alone), the
/// client name `c=refrain`, the API version Refrain speaks `v=1.16.1` and `f=json`. The
/// password is never a parameter.
public struct SubsonicAPI: Sendable {
  /// The name Refrain gives itself in `c`.
  public static let clientName = "refrain"
  /// The API version in `v`: OpenSubsonic's, which older servers answer as their own.
  public static let apiVersion = "1.16.1"

  /// The server's address (any path prefix is kept).
  public var server: URL
  /// The user name, sent as `u` with a token (never with an API key).
  public var user: String
  /// The credentials.
  public var auth: SubsonicAuth

  /// Requests for `server` as `user` with `auth`.
  public init(server: URL, user: String, auth: SubsonicAuth) {
    self.server = server
    self.user = user
    self.auth = auth
  }

  /// Requests for a stored login.
  public init(account: SubsonicAccount) {
    self.init(server: account.server, user: account.user, auth: account.auth)
  }

  /// The query items that say who is asking, in the order they are sent.
  public var credentials: [URLQueryItem] {
    let who: [URLQueryItem]
    switch auth {
    case .token(let token, let salt):
      who = [
        URLQueryItem(name: "u", value: user), URLQueryItem(name: "t", value: token),
        URLQueryItem(name: "s", value: salt),
      ]
    case .apiKey(let key):
      who = [URLQueryItem(name: "apiKey", value: key)]
    }
    return who + [
      URLQueryItem(name: "c", value: Self.clientName),
      URLQueryItem(name: "v", value: Self.apiVersion), URLQueryItem(name: "f", value: "json"),
    ]
  }

  /// `rest/METHOD.view` with the credentials, then `parameters` in order.
  public func endpoint(_ method: String, _ parameters: [(String, String)] = []) -> Endpoint {
    Endpoint(
      baseURL: server, path: "rest/\(method).view",
      queryItems: credentials + parameters.map { URLQueryItem(name: $0.0, value: $0.1) })
  }

  /// The URL of `stream.view` for a song, with the credentials, so the player can fetch it
  /// itself: the file as stored (no `format`, no `maxBitRate`, so byte ranges seek) unless
  /// `transcode` names a format, which is sent with its `maxBitRate` when that is set.
  public func streamURL(songID: String, transcode: SubsonicTranscode = .raw) throws(NetworkError)
    -> URL
  {
    var parameters = [("id", songID)]
    if let format = transcode.format {
      parameters.append(("format", format))
      if transcode.maxBitRate > 0 {
        parameters.append(("maxBitRate", String(transcode.maxBitRate)))
      }
    }
    var endpoint = endpoint("stream", parameters)
    endpoint.queryItems.removeAll { $0.name == "f" }
    return try endpoint.url()
  }

  /// The URL of `getCoverArt.view` for a cover id, at `size` pixels when given.
  public func coverURL(id: String, size: Int?) throws(NetworkError) -> URL {
    var parameters = [("id", id)]
    if let size { parameters.append(("size", String(size))) }
    var endpoint = endpoint("getCoverArt", parameters)
    endpoint.queryItems.removeAll { $0.name == "f" }
    return try endpoint.url()
  }
}

/// What `stream.view` asks the server for: the stored file, or a transcoded stream.
public struct SubsonicTranscode: Sendable, Hashable {
  /// The stored file: no `format`, no `maxBitRate`.
  public static let raw = SubsonicTranscode(format: nil)

  /// The format the server transcodes to (`opus`, `mp3`), or `nil` for the stored file.
  public var format: String?
  /// The most kbit/s the stream may use, sent as `maxBitRate` when above 0 with a format.
  public var maxBitRate: Int

  /// Transcoding to `format` (`nil`: the stored file) at no more than `maxBitRate` kbit/s.
  public init(format: String?, maxBitRate: Int = 0) {
    self.format = format
    self.maxBitRate = maxBitRate
  }

  /// How seeks move a stream of this kind from a server listing `extensions`: `nil` for the
  /// stored file (byte ranges), a request again at `timeOffset` when the server lists
  /// `transcodeOffset`, and otherwise a refusal saying why.
  public func seeking(extensions: [String]) -> StreamSeeking? {
    guard let format else { return nil }
    if extensions.contains("transcodeOffset") { return .reRequest(parameter: "timeOffset") }
    return .refused(
      reason: "seeking is not available: the server transcodes this track to \(format) "
        + "and does not offer timeOffset (transcodeOffset)")
  }
}
