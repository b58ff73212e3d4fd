import Foundation
import Logging
import RefrainCatalog
import RefrainConfig
import RefrainCore
import RefrainScrobble
import RefrainSession
import RefrainSubsonic
import RefrainTags

/// The scrobbling of one run, built from the configuration: which services are on, their
/// clients and the send loop over the library's queue.
///
/// A service is on when its credentials are complete: ListenBrainz with a token (or a token
/// file), Last.fm with the API key, the secret and a session key stored by `refrain scrobble
/// login lastfm`, the Subsonic server with a login (`refrain subsonic login`) unless
/// `subsonic.scrobble` is false. Nothing here logs or prints a credential.
struct ScrobbleSetup {
  /// How one service stands.
  struct ServiceState: Sendable, Codable, Equatable {
    /// The service's name (`listenbrainz`, `lastfm`).
    var service: String
    /// Whether listens are queued and sent for it.
    var enabled: Bool
    /// Why it is off, or who it scrobbles as.
    var detail: String
  }

  /// Every service's state, in a fixed order.
  let states: [ServiceState]
  /// The clients of the services that are on.
  let clients: [any ScrobbleClient]

  /// The services that are on.
  var services: [ScrobbleService] { clients.map(\.service) }

  /// Reads the credentials and makes the clients.
  init(configuration: RefrainConfiguration, environment: [String: String]) {
    var states: [ServiceState] = []
    var clients: [any ScrobbleClient] = []
    func add(_ service: ScrobbleService, _ client: (any ScrobbleClient)?, _ detail: String) {
      states.append(
        ServiceState(service: service.rawValue, enabled: client != nil, detail: detail))
      if let client { clients.append(client) }
    }
    do {
      if let token = try configuration.listenBrainzToken() {
        let client = ListenBrainzClient(
          root: configuration.listenBrainzURL(environment: environment), token: token.revealed,
          version: Refrain.version)
        add(.listenBrainz, client, "token set")
      } else {
        add(
          .listenBrainz, nil,
          "off: set scrobble.listenbrainz_token or scrobble.listenbrainz_token_file")
      }
    } catch {
      add(.listenBrainz, nil, "off: \(error)")
    }
    if let credentials = configuration.lastFMCredentials {
      if let session = LastFMSessionFile.standard(environment: environment).load() {
        let client = LastFMClient(
          endpoint: configuration.lastFMURL(environment: environment),
          apiKey: credentials.apiKey.revealed, secret: credentials.secret.revealed,
          sessionKey: session.key, version: Refrain.version)
        add(.lastFM, client, "logged in as \(TerminalSanitizer.clean(session.name))")
      } else {
        add(.lastFM, nil, "off: not logged in; run `refrain scrobble login lastfm`")
      }
    } else {
      add(.lastFM, nil, "off: set scrobble.lastfm_api_key and scrobble.lastfm_secret")
    }
    if let account = SubsonicAccountFile.standard(environment: environment).load() {
      if configuration.subsonicScrobble {
        add(
          .subsonic, SubsonicScrobbleClient(account: account),
          "the server's tracks, as \(TerminalSanitizer.clean(account.user))@\(account.hostAndPort)")
      } else {
        add(.subsonic, nil, "off: subsonic.scrobble = false")
      }
    } else {
      add(.subsonic, nil, "off: not logged in; run `refrain subsonic login URL --user NAME`")
    }
    self.states = states
    self.clients = clients
  }

  /// The send loop over `store`'s queue; `nil` when no service is on.
  func sender(store: LibraryStore, environment: [String: String]) -> ScrobbleSender? {
    guard !clients.isEmpty else { return nil }
    let logger = Logger(label: "refrain.scrobble")
    let library = LibraryStore.defaultFileURL(environment: environment)
    return ScrobbleSender(
      store: store, clients: clients, lockFile: ScrobbleSender.lockFile(forLibrary: library),
      log: { logger.warning("\($0)") })
  }

  /// Follows `session` for the services that are on: a ``Scrobbler`` over `store`, with the
  /// send loop started (it sends what an earlier run left queued). `nil` when no service is
  /// on.
  func attach(to session: Session, store: LibraryStore, environment: [String: String])
    -> ScrobbleAttachment?
  {
    guard let sender = sender(store: store, environment: environment) else { return nil }
    let logger = Logger(label: "refrain.scrobble")
    let scrobbler = Scrobbler(
      session: session, services: services, library: store, outbox: sender,
      log: { logger.warning("\($0)") }, describe: Self.withTags)
    sender.start()
    return ScrobbleAttachment(scrobbler: scrobbler, sender: sender)
  }
}

extension ScrobbleSetup {
  /// `track` with the title, artist and album of its tags, for a local file without an
  /// artist (given by path: `refrain play FILE`, `refrain ctl queue add FILE`).
  static func withTags(_ track: Track) -> Track {
    guard track.artist == nil, track.location.isFileURL,
      let info = try? AudioTagReader().readTags(atPath: track.location.path)
    else { return track }
    var tagged = track
    if let title = info.title, !title.isEmpty { tagged.title = title }
    tagged.artist = info.artist
    tagged.album = info.album ?? track.album
    return tagged
  }
}

/// A scrobbler following a session, with its send loop.
struct ScrobbleAttachment {
  /// The session's scrobbling front end; sample it after every wake-up of the loop.
  let scrobbler: Scrobbler
  /// The send loop.
  let sender: ScrobbleSender

  /// Lets a listen just counted reach the library before the process ends (at most 5 s),
  /// and a send under way finish (at most 3 s). Anything not sent yet stays queued.
  func finish() {
    scrobbler.waitForHandOffs(seconds: 5)
    sender.waitUntilIdle(seconds: 3)
  }
}
