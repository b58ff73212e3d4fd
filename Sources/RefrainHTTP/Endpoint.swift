import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An HTTP method the endpoint layer sends.
public enum HTTPMethod: String, Sendable, Hashable {
  case get = "GET"
  case head = "HEAD"
  case post = "POST"
}

/// One request to a web API: where it goes and what it asks, as a plain value.
///
/// `Endpoint` knows nothing about sessions or decoding; `HTTPClient` sends it.
/// The path is appended to the base URL's own path, so a base such as
/// `http://127.0.0.1:8080/prefix/` keeps its prefix.
public struct Endpoint: Sendable, Hashable {
  /// The API's root: the configured catalog address.
  public var baseURL: URL
  /// The HTTP method.
  public var method: HTTPMethod
  /// The path below the base URL, such as `/album/302127`.
  public var path: String
  /// Query items in the order they are sent; `nil` values send the bare name.
  public var queryItems: [URLQueryItem]
  /// Extra request headers (the client adds `User-Agent` and `Accept`).
  public var headers: [String: String]
  /// Whether the response may be served from, and stored in, the response cache.
  public var isCacheable: Bool
  /// The request body (a POST's JSON or form), sent with its `Content-Type` from `headers`.
  public var body: Data?

  /// Creates an endpoint.
  public init(
    baseURL: URL, method: HTTPMethod = .get, path: String, queryItems: [URLQueryItem] = [],
    headers: [String: String] = [:], isCacheable: Bool = false, body: Data? = nil
  ) {
    self.baseURL = baseURL
    self.method = method
    self.path = path
    self.queryItems = queryItems
    self.headers = headers
    self.isCacheable = isCacheable
    self.body = body
  }

  /// The full URL: base URL, then the path's segments and the query, percent-encoded.
  public func url() throws(NetworkError) -> URL {
    guard
      var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      components.host?.isEmpty == false
    else {
      throw NetworkError.invalidURL(baseURL.absoluteString)
    }
    let baseSegments = components.percentEncodedPath.split(separator: "/").map(String.init)
    let segments = path.split(separator: "/").map { Self.encode(String($0), allowed: .pathSegment) }
    components.percentEncodedPath = "/" + (baseSegments + segments).joined(separator: "/")
    if queryItems.isEmpty {
      components.percentEncodedQuery = nil
    } else {
      components.percentEncodedQuery = queryItems.map { item in
        let name = Self.encode(item.name, allowed: .queryValue)
        guard let value = item.value else { return name }
        return name + "=" + Self.encode(value, allowed: .queryValue)
      }.joined(separator: "&")
    }
    guard let url = components.url else {
      throw NetworkError.invalidURL(baseURL.absoluteString + path)
    }
    return url
  }

  /// A `URLRequest` for this endpoint with the given timeout and user agent.
  public func urlRequest(timeout: TimeInterval, userAgent: String) throws(NetworkError)
    -> URLRequest
  {
    var request = URLRequest(url: try url(), timeoutInterval: timeout)
    request.httpMethod = method.rawValue
    request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
      request.setValue(value, forHTTPHeaderField: name)
    }
    request.httpBody = body
    return request
  }

  /// The key the response cache files this endpoint's answer under.
  var cacheKey: String {
    let url = (try? url().absoluteString) ?? baseURL.absoluteString + path
    let language = headers.first { $0.key.lowercased() == "accept-language" }?.value
    return language.map { "\(url) lang=\($0)" } ?? url
  }

  /// `name=value` pairs joined with `&`, every name and value percent-encoded outside
  /// RFC 3986's unreserved characters: an `application/x-www-form-urlencoded` body.
  public static func formBody(_ fields: [(String, String)]) -> Data {
    Data(
      fields.map { encode($0.0, allowed: .queryValue) + "=" + encode($0.1, allowed: .queryValue) }
        .joined(separator: "&").utf8)
  }

  /// Percent-encodes everything outside `allowed`, including `+`, `&`, `=` and `/`.
  private static func encode(_ text: String, allowed: CharacterSet) -> String {
    text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
  }
}

extension CharacterSet {
  /// RFC 3986 unreserved characters: safe in a query name or value as they are.
  fileprivate static let queryValue = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
  /// Unreserved characters plus the sub-delimiters a path segment may hold unencoded.
  fileprivate static let pathSegment = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$'()*,;:@")
}
