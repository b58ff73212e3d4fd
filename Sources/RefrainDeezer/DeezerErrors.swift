import Foundation
import RefrainCore
import RefrainHTTP

/// Deezer's error conventions: how to spot them and what they mean to the catalog.
///
/// Errors usually arrive with HTTP 200 as `{"error":{"type","message","code"}}`; `code`
/// may be missing, and on unknown paths `error` is a plain string.
enum DeezerErrors {
  /// Code 4: the 50-requests-per-5-seconds quota is used up.
  static let quotaCode = 4
  /// Code 700: the service is busy.
  static let busyCode = 700
  /// Code 800: no such item.
  static let noDataCode = 800
  /// Codes 500 and 501: a wrong or missing parameter (for lookups, a bad ID).
  static let parameterCodes: Set<Int> = [500, 501]

  /// Finds Deezer errors in bodies; quota and busy errors are retried.
  static let parser = APIErrorParser(
    parse: parse,
    isRetryable: { $0.code == quotaCode || $0.code == busyCode },
    isQuota: { $0.code == quotaCode })

  /// The error a body reports, or `nil`.
  static func parse(_ body: Data) -> APIError? {
    // Error bodies are tiny; skip parsing catalog pages.
    guard body.count < 4096, body.first == UInt8(ascii: "{") else { return nil }
    guard let error = (try? JSONDecoder().decode(ErrorBody.self, from: body))?.error else {
      return nil
    }
    switch error {
    case .text(let text):
      return APIError(type: "Exception", message: text)
    case .fields(let fields):
      return APIError(
        type: fields.type ?? "Exception", message: fields.message ?? "unknown error",
        code: fields.code?.value)
    }
  }

  /// A body with an `error`: a string, or an object with `type`, `message` and `code`.
  private struct ErrorBody: Decodable {
    let error: Failure?

    enum Failure: Decodable {
      case text(String)
      case fields(Fields)

      init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let text = try? single.decode(String.self) {
          self = .text(text)
        } else {
          self = .fields(try single.decode(Fields.self))
        }
      }
    }

    struct Fields: Decodable {
      let type: String?
      let message: String?
      let code: Code?

      init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        type = try? keys.decodeIfPresent(String.self, forKey: .type)
        message = try? keys.decodeIfPresent(String.self, forKey: .message)
        code = try? keys.decodeIfPresent(Code.self, forKey: .code)
      }

      enum CodingKeys: String, CodingKey { case type, message, code }
    }

    /// A code written as a number or as a string of digits.
    struct Code: Decodable {
      let value: Int?

      init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let number = try? single.decode(Int.self) {
          value = number
        } else {
          value = Int(try single.decode(String.self))
        }
      }
    }
  }

  /// What a failed request means to the catalog's caller.
  ///
  /// - Parameter item: what was looked up by ID (`album 302127`), or `nil` for lists.
  static func catalogError(_ error: NetworkError, item: String?) -> any Error {
    switch error {
    case .cancelled:
      return CancellationError()
    case .apiError(_, _, let code?) where code == noDataCode:
      return CatalogError.notFound(item ?? "no data")
    case .apiError(_, _, let code?) where item != nil && parameterCodes.contains(code):
      return CatalogError.notFound(item ?? "")
    case .httpStatus(404, _):
      return CatalogError.notFound(item ?? "no data")
    default:
      return CatalogError.unavailable("online catalog: \(error.description)")
    }
  }
}
