import Foundation

/// An error a web API reports inside its answer body.
public struct APIError: Sendable, Hashable {
  /// The error's kind as the API names it, such as `DataException`.
  public var type: String
  /// The API's message.
  public var message: String
  /// The API's numeric code, when it sends one.
  public var code: Int?

  /// Creates an API error.
  public init(type: String, message: String, code: Int? = nil) {
    self.type = type
    self.message = message
    self.code = code
  }
}

/// Finds API errors in answer bodies, including those sent with HTTP 200.
///
/// Each API has its own error shape, so the provider supplies the parser.
public struct APIErrorParser: Sendable {
  /// Returns the error the body reports, or `nil` when the body is not an error.
  public var parse: @Sendable (Data) -> APIError?
  /// Whether an error is temporary (a used-up quota) and worth retrying.
  public var isRetryable: @Sendable (APIError) -> Bool
  /// Whether an error means the client is sending too fast, so the rate limit should tighten.
  public var isQuota: @Sendable (APIError) -> Bool

  /// Creates a parser.
  public init(
    parse: @escaping @Sendable (Data) -> APIError?,
    isRetryable: @escaping @Sendable (APIError) -> Bool = { _ in false },
    isQuota: @escaping @Sendable (APIError) -> Bool = { _ in false }
  ) {
    self.parse = parse
    self.isRetryable = isRetryable
    self.isQuota = isQuota
  }

  /// A parser that never finds an error.
  public static let none = APIErrorParser(parse: { _ in nil })
}
