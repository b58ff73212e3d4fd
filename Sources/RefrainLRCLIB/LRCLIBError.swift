import Foundation

/// Why the LRCLIB lyrics service could not be asked, or its answer could not be used.
///
/// A missing track is not an error: the source answers `.notFound` for that.
public enum LRCLIBError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No connection, or no answer within the time limit; `detail` says which.
  case offlineOrSlow(detail: String)
  /// The service answered with an HTTP error other than 404, and its own message if any.
  case httpStatus(Int, message: String?)
  /// The answer was not the JSON the service documents; `detail` says what was wrong.
  case malformedResponse(detail: String)

  public var description: String {
    switch self {
    case .offlineOrSlow(let detail):
      return "offline or slow: \(detail); lyrics will be looked up again next time"
    case .httpStatus(let status, let message):
      let said = message.map { ": \($0)" } ?? ""
      return "the lyrics service answered HTTP \(status)\(said); try again later"
    case .malformedResponse(let detail):
      return "the lyrics service sent a response Refrain cannot read (\(detail))"
    }
  }
}
