import Foundation

/// Every way one HTTP exchange can fail; each description says what the user can do.
public enum NetworkError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The address could not be turned into a request URL (a bad base URL in the configuration).
  case invalidURL(String)
  /// The server could not be reached or the connection broke (DNS, refused, reset).
  case transport(String)
  /// The server answered with a status outside 200–299; `body` holds the start of its answer.
  case httpStatus(code: Int, body: String)
  /// The API reported an error inside an otherwise successful answer (`code` may be missing).
  case apiError(type: String, message: String, code: Int?)
  /// The answer arrived but did not have the expected shape.
  case decoding(String)
  /// The server did not answer within the timeout.
  case timeout
  /// The request was cancelled, usually because the user moved on.
  case cancelled
  /// The network cannot be used on this machine at all (libcurl is missing); says why.
  case unavailable(String)
  /// The answer was larger than `limit` (``AnswerLimits/capText``), the cap for `kind`
  /// ("a catalog answer"); it was dropped unread.
  case tooLarge(limit: String, kind: String)
  /// The server sent nothing for `seconds` while the answer was awaited or arriving.
  case stalled(seconds: Int)

  public var description: String {
    switch self {
    case .invalidURL(let address):
      return "the address \"\(address)\" is not a valid http(s) URL; check the configured base URL"
    case .unavailable(let reason):
      return reason
    case .transport(let detail):
      return "could not reach the server (\(detail)); check the network connection and the address"
    case .httpStatus(let code, _):
      return Self.describe(status: code)
    case .apiError(let type, let message, let code):
      let label = code.map { "\(type) \($0)" } ?? type
      if code == 4 {
        return "the service's request quota is used up (\(label)); wait a few seconds and try again"
      }
      return "the service reported an error: \(message) (\(label)); try again or pick another item"
    case .decoding(let detail):
      return
        "the server's answer could not be read (\(detail)); the service may have changed, please report it"
    case .timeout:
      return "the server did not answer in time; check the connection and try again"
    case .cancelled:
      return "the request was cancelled"
    case .tooLarge(let limit, let kind):
      return
        "the server's answer is over \(limit), the most Refrain reads of \(kind); it was not read"
    case .stalled(let seconds):
      return "the server sent nothing for \(seconds) s; check the connection and try again"
    }
  }

  /// Whether the error means the item does not exist (HTTP 404).
  public var isNotFound: Bool {
    if case .httpStatus(404, _) = self { return true }
    return false
  }

  private static func describe(status code: Int) -> String {
    switch code {
    case 401, 403:
      return "the server refused access (HTTP \(code)); the link may have expired, try again"
    case 404:
      return "the server has no such item (HTTP 404); it may have been removed"
    case 429:
      return "the server is limiting requests (HTTP 429); wait a minute and try again"
    case 500...599:
      return "the server had a problem (HTTP \(code)); try again later"
    default:
      return "the server rejected the request (HTTP \(code)); check the configured base URL"
    }
  }
}
