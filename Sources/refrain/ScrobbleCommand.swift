import ArgumentParser
import Foundation
import RefrainCatalog
import RefrainConfig
import RefrainCore
import RefrainScrobble

/// `refrain scrobble`: the offline queue of listens and the services' logins.
struct ScrobbleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scrobble",
    abstract: "Scrobbling to ListenBrainz and Last.fm: status, flush, login lastfm.",
    discussion:
      "Listens are queued in the library first and sent in the background while Refrain "
      + "plays; see docs/scrobbling.md.",
    subcommands: [Status.self, Flush.self, Login.self])

  /// `refrain scrobble status [--json]`.
  struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show the services, the queue per service and the last error.")

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
      let environment = ProcessInfo.processInfo.environment
      let setup = ScrobbleSetup(
        configuration: RefrainConfiguration.load(environment: environment).configuration,
        environment: environment)
      var queues: [ScrobbleQueueSummary] = []
      let libraryFile = LibraryStore.defaultFileURL(environment: environment)
      if FileManager.default.fileExists(atPath: libraryFile.path) {
        do {
          queues = try LibraryStore(fileURL: libraryFile).scrobbleQueue.scrobbleQueueSummary()
        } catch {
          ScrobbleCommand.fail("cannot read the library: \(error)")
        }
      }
      let report = StatusReport(
        services: setup.states.map { state in
          let queue = queues.first { $0.service.rawValue == state.service }
          return StatusReport.Service(
            name: state.service, enabled: state.enabled, detail: state.detail,
            pending: queue?.pending ?? 0, sent: queue?.sent ?? 0, lastError: queue?.lastError)
        })
      if json {
        Console.line(JSONOutput.line(report))
        return
      }
      for service in report.services {
        Console.line("\(service.name): \(service.detail)")
        Console.line("  queued: \(service.pending), sent: \(service.sent)")
        if let error = service.lastError { Console.line("  last error: \(error)") }
      }
    }
  }

  /// `refrain scrobble flush`.
  struct Flush: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Send every queued listen now, waiting or not; exit 1 when a send failed.")

    func run() throws {
      let environment = ProcessInfo.processInfo.environment
      RefrainLogging.bootstrap(environment: environment)
      let setup = ScrobbleSetup(
        configuration: RefrainConfiguration.load(environment: environment).configuration,
        environment: environment)
      let store: LibraryStore
      do {
        store = try LibraryStore.openDefault(environment: environment)
      } catch {
        ScrobbleCommand.fail("cannot open the library: \(error)")
      }
      guard let sender = setup.sender(store: store, environment: environment) else {
        for state in setup.states { Console.line("\(state.service): \(state.detail)") }
        ScrobbleCommand.fail("no scrobbling service is on; nothing was sent")
      }
      let reports = try waitFor { await sender.flush() }
      var failed = false
      for report in reports {
        for listen in report.sent {
          Console.line(
            "sent to \(report.service): \(TerminalSanitizer.clean(listen.artist)) – "
              + "\(TerminalSanitizer.clean(listen.title)) (listened at \(listen.listenedAt))")
        }
        if let failure = report.failure {
          failed = true
          Console.error("refrain scrobble: \(failure)")
        } else if report.sent.isEmpty {
          Console.line("\(report.service): nothing queued")
        }
      }
      if failed { throw ExitCode(1) }
    }
  }

  /// `refrain scrobble login lastfm`.
  struct Login: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Log in to a service: lastfm (Last.fm's desktop authentication).")

    @Argument(help: "The service: lastfm.")
    var service: String

    func validate() throws {
      guard service == "lastfm" else {
        throw ValidationError(
          "only lastfm has a login; ListenBrainz takes a token in scrobble.listenbrainz_token")
      }
    }

    func run() throws {
      let environment = ProcessInfo.processInfo.environment
      let configuration = RefrainConfiguration.load(environment: environment).configuration
      guard let credentials = configuration.lastFMCredentials else {
        ScrobbleCommand.fail(
          "set scrobble.lastfm_api_key and scrobble.lastfm_secret in config.toml first "
            + "(last.fm/api/account/create gives both)")
      }
      let client = LastFMClient(
        endpoint: configuration.lastFMURL(environment: environment),
        apiKey: credentials.apiKey.revealed, secret: credentials.secret.revealed, sessionKey: nil,
        version: Refrain.version)
      do {
        let token = try waitFor { try await client.requestToken() }
        Console.line("Open this page, allow Refrain to use your Last.fm account, then press Enter:")
        Console.line(client.approvalURL(token: token))
        fflush(nil)  // every output stream: the URL must show before the wait
        _ = readLine()
        let session = try waitFor { try await client.session(forToken: token) }
        let file = LastFMSessionFile.standard(environment: environment)
        try file.save(session)
        Console.line(
          "logged in to Last.fm as \(TerminalSanitizer.clean(session.name)); the session is in "
            + file.url.path)
      } catch {
        ScrobbleCommand.fail("\(error)")
      }
    }
  }

  /// `refrain scrobble status --json`'s object.
  struct StatusReport: Codable {
    /// One service.
    struct Service: Codable {
      var name: String
      var enabled: Bool
      var detail: String
      var pending: Int
      var sent: Int
      var lastError: String?

      enum CodingKeys: String, CodingKey {
        case name, enabled, detail, pending, sent
        case lastError = "last_error"
      }
    }
    var services: [Service]
  }

  static func fail(_ message: String) -> Never {
    Console.error("refrain scrobble: \(message)")
    Foundation.exit(1)
  }
}
