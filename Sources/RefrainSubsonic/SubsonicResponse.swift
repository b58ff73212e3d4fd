import Foundation

/// One answer of a Subsonic server: `{"subsonic-response": {"status": …, …, BODY}}`.
///
/// The header fields and `Body` are read from the same inner object, so each `Body` type
/// names only the key of its payload (`searchResult3`, `album`, …).
struct SubsonicResponse<Body: Decodable & Sendable>: Decodable, Sendable {
  /// `ok` or `failed`.
  var status: String
  /// The API version the server speaks.
  var version: String
  /// The server's name (OpenSubsonic).
  var type: String?
  /// Whether the server says it speaks OpenSubsonic.
  var openSubsonic: Bool?
  /// The error of a failed answer.
  var error: SubsonicErrorBody?
  /// The payload; `nil` on a failed answer.
  var body: Body?

  private enum OuterKeys: String, CodingKey {
    case response = "subsonic-response"
  }

  private enum HeaderKeys: String, CodingKey {
    case status, version, type, openSubsonic, error
  }

  init(from decoder: any Decoder) throws {
    let outer = try decoder.container(keyedBy: OuterKeys.self)
    let inner = try outer.superDecoder(forKey: .response)
    let header = try inner.container(keyedBy: HeaderKeys.self)
    status = try header.decode(String.self, forKey: .status)
    version = try header.decodeIfPresent(String.self, forKey: .version) ?? "unknown"
    type = try header.decodeIfPresent(String.self, forKey: .type)
    openSubsonic = try header.decodeIfPresent(Bool.self, forKey: .openSubsonic)
    error = try header.decodeIfPresent(SubsonicErrorBody.self, forKey: .error)
    body = status == "ok" ? try Body(from: inner) : nil
  }
}

/// `error` in a failed answer.
struct SubsonicErrorBody: Decodable, Sendable, Hashable {
  var code: Int
  var message: String?
}

/// A payload with nothing in it (`ping`, `star`, `scrobble`).
struct SubsonicEmpty: Decodable, Sendable {}

/// `getOpenSubsonicExtensions`: the extensions and their versions.
struct SubsonicExtensionsBody: Decodable, Sendable {
  struct Extension: Decodable, Sendable {
    var name: String
  }
  var openSubsonicExtensions: [Extension]?
}
