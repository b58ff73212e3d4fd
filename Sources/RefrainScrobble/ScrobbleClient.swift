import Foundation
import RefrainCore

/// One scrobbling service's network client, as ``ScrobbleSender`` drives it.
///
/// A client sends; it never queues, retries or waits. The sender decides what to send and
/// when, and records each outcome in the library's `scrobble_queue`.
public protocol ScrobbleClient: Sendable {
  /// The service this client talks to.
  var service: ScrobbleService { get }
  /// The most listens one ``submit(_:)`` takes.
  var batchSize: Int { get }
  /// Announces the track that just started (best effort: nothing is queued for it).
  func nowPlaying(_ nowPlaying: NowPlaying) async throws(ScrobbleFailure)
  /// Submits 1 to ``batchSize`` listens, oldest first; returns when the service took them.
  ///
  /// The answer says how long to hold the next request (a rate limit running out), if at all.
  func submit(_ listens: [QueuedListen]) async throws(ScrobbleFailure) -> ScrobbleReceipt
}

/// What a service said after taking listens.
public struct ScrobbleReceipt: Sendable, Equatable {
  /// Seconds to wait before the next request (the rate-limit window is used up); 0 for none.
  public var holdFor: Double

  /// Creates a receipt.
  public init(holdFor: Double = 0) { self.holdFor = holdFor }
}

/// Why a scrobbling request failed; each message says what the user can do and never holds
/// a credential.
public enum ScrobbleFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// The service asks to slow down (HTTP 429, Last.fm error 29): wait `retryIn` seconds, then
  /// send again. The listens did nothing wrong, so no attempt is counted.
  case rateLimited(service: ScrobbleService, retryIn: Double)
  /// The credentials were refused (a wrong token, a revoked session key).
  case unauthorized(service: ScrobbleService, detail: String)
  /// The request could not be made or answered (network, server error, bad answer); sent
  /// again later with backoff.
  case failed(service: ScrobbleService, detail: String)
  /// The service refused these listens as they are (a listen without an artist or title).
  case rejected(service: ScrobbleService, detail: String)

  /// The service the failure came from.
  public var service: ScrobbleService {
    switch self {
    case .rateLimited(let service, _), .unauthorized(let service, _), .failed(let service, _),
      .rejected(let service, _):
      return service
    }
  }

  public var description: String {
    switch self {
    case .rateLimited(let service, let seconds):
      return "\(service) is limiting requests; sending again in \(Int(seconds.rounded(.up))) s"
    case .unauthorized(.listenBrainz, let detail):
      return "listenbrainz refused the token (\(detail)); check scrobble.listenbrainz_token "
        + "against listenbrainz.org/settings"
    case .unauthorized(.subsonic, let detail):
      return "the Subsonic server refused the login (\(detail)); run `refrain subsonic login` "
        + "again"
    case .unauthorized(let service, let detail):
      return "\(service) refused the session (\(detail)); run `refrain scrobble login lastfm` "
        + "again and check scrobble.lastfm_api_key and scrobble.lastfm_secret"
    case .failed(let service, let detail):
      return "\(service): \(detail); the listens stay queued and are sent again later"
    case .rejected(let service, let detail):
      return "\(service) rejected the listens (\(detail))"
    }
  }
}
