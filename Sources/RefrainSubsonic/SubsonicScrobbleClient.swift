import Foundation
import RefrainCore
import RefrainHTTP
import RefrainScrobble

/// Tells the Subsonic server what plays of its own tracks, through `scrobble.view`.
///
/// `submission=false` goes out when one of its tracks starts, and `submission=true` with
/// `time` (the start, in milliseconds) once a play meets the listen rule.
/// ``ScrobbleSender`` queues and resends as for the other services.
///
/// Only the server's own tracks (provider `subsonic`, whose key is `subsonic:SONG_ID`) are
/// sent; `stream.view` is not a play, since servers count streams apart.
public struct SubsonicScrobbleClient: ScrobbleClient {
  public let service = ScrobbleService.subsonic
  /// One listen a request: `scrobble.view` takes several `id`s, but not every server does.
  public let batchSize = 1
  private let client: SubsonicClient

  /// A client for `account` over `http`.
  public init(account: SubsonicAccount, http: HTTPClient = SubsonicClient.httpClient()) {
    client = SubsonicClient(api: SubsonicAPI(account: account), http: http)
  }

  public func nowPlaying(_ nowPlaying: NowPlaying) async throws(ScrobbleFailure) {
    guard nowPlaying.track.provider == SubsonicMapping.provider,
      let id = SubsonicMapping.songID(nowPlaying.track.id)
    else { return }
    try await send([("id", id), ("submission", "false")])
  }

  public func submit(_ listens: [QueuedListen]) async throws(ScrobbleFailure) -> ScrobbleReceipt {
    for listen in listens {
      guard let id = SubsonicMapping.songID(listen.trackKey) else {
        throw .rejected(service: service, detail: "\(listen.title) is not a track of the server")
      }
      try await send([
        ("id", id), ("time", String(listen.listenedAt * 1000)), ("submission", "true"),
      ])
    }
    return ScrobbleReceipt()
  }

  private func send(_ parameters: [(String, String)]) async throws(ScrobbleFailure) {
    do {
      _ = try await client.call(SubsonicEmpty.self, "scrobble", parameters)
    } catch .server(let code, let message) where [40, 41, 42, 44].contains(code) {
      throw .unauthorized(service: service, detail: "error \(code): \(message)")
    } catch .server(70, let message) {
      throw .rejected(service: service, detail: "the server no longer has it: \(message)")
    } catch {
      throw .failed(service: service, detail: error.description)
    }
  }
}
