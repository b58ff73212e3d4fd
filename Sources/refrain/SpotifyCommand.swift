import ArgumentParser
import Foundation
import RefrainCatalog
import RefrainConfig
import RefrainCore
import RefrainDeezer
import RefrainHTTP
import RefrainSpotify
import RefrainSubsonic

/// `refrain spotify`: log in to Spotify and bring the user's library into Refrain's.
struct SpotifyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "spotify",
    abstract: "Your Spotify library in Refrain: login, import, status, logout.",
    discussion:
      "Refrain imports your playlists, Liked Songs and saved albums, and plays each track "
      + "from a local file or an online preview; see docs/spotify.md.",
    subcommands: [Login.self, Import.self, Status.self, Logout.self])

  /// `refrain spotify login`.
  struct Login: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Log in with your own Spotify app's client ID (Authorization Code with PKCE).")

    @Option(help: "Your Spotify app's client ID (default: spotify.client_id in config.toml).")
    var clientID: String?

    @Option(help: "The loopback port of the redirect, as registered for your app.")
    var port = SpotifyAuthorization.defaultPort

    @Flag(help: "Print the address instead of opening a browser.")
    var noBrowser = false

    @Flag(help: "Over SSH: read the address the browser ends on from stdin.")
    var paste = false

    func validate() throws {
      guard (1...65535).contains(port) else { throw ValidationError("--port takes 1 to 65535") }
    }

    func run() throws {
      let environment = ProcessInfo.processInfo.environment
      let configuration = RefrainConfiguration.load(environment: environment).configuration
      guard let clientID = (clientID ?? configuration.spotifyClientID), !clientID.isEmpty else {
        SpotifyCommand.fail(
          "no Spotify client ID: pass --client-id or set client_id under [spotify] in config.toml "
            + "(docs/spotify.md shows how to register an app)")
      }
      let endpoints = SpotifyEndpoints.resolve(environment: environment)
      let attempt = SpotifyAuthorization.Attempt(port: port)
      guard let url = attempt.authorizeURL(accounts: endpoints.accounts, clientID: clientID) else {
        SpotifyCommand.fail("the accounts address \(endpoints.accounts) is not a URL")
      }
      // Listen before printing, so a browser that is quick never finds the port closed.
      var listener: SpotifyLoginListener?
      if !paste {
        do {
          listener = try SpotifyLoginListener(port: port)
        } catch {
          SpotifyCommand.fail("\(error)")
        }
      }
      let opened = !noBrowser && !paste && SpotifyCommand.openBrowser(url, environment: environment)
      SpotifyCommand.say(
        opened
          ? "Your browser is opening Spotify's login page. If it does not, open this address:"
          : "Open this address in a browser to log in to Spotify:")
      Console.line(url.absoluteString)
      fflush(nil)  // every output stream: the address must show before the wait
      let address: String
      if paste {
        SpotifyCommand.say(
          "After logging in, the browser goes to \(attempt.redirectURI)?code=… and may say it "
            + "cannot connect. Copy that whole address from its address bar and paste it here:")
        guard let line = readLine(strippingNewline: true) else {
          SpotifyCommand.fail("no address was pasted; run `refrain spotify login --paste` again")
        }
        address = line
      } else if let listener {
        SpotifyCommand.say("Waiting for the browser at \(attempt.redirectURI) …")
        do {
          address = try listener.waitForCallback(timeout: 300) { address in
            do {
              _ = try attempt.code(fromRedirect: address)
              return (200, "<h1>Refrain is logged in</h1><p>You can close this tab.</p>")
            } catch {
              return (400, "<h1>Refrain is not logged in</h1><p>\(Self.html("\(error)"))</p>")
            }
          }
        } catch {
          SpotifyCommand.fail("\(error)")
        }
      } else {
        SpotifyCommand.fail("the login listener did not start")
      }
      let code: String
      do {
        code = try attempt.code(fromRedirect: address)
      } catch {
        SpotifyCommand.fail("\(error)")
      }
      let tokenFile = SpotifyTokenFile.standard(environment: environment)
      let client = SpotifyClient(endpoints: endpoints, token: nil, tokenFile: tokenFile)
      let user: (id: String, name: String?)
      do {
        user = try waitFor {
          _ = try await client.exchange(code: code, attempt: attempt, clientID: clientID)
          let me = try await client.get(SpotifyUser.self, "me")
          try await client.remember(userID: me.id, userName: me.displayName)
          return (me.id, me.displayName)
        }
      } catch {
        SpotifyCommand.fail("\(error)")
      }
      SpotifyCommand.say(
        "Logged in to Spotify as \(TerminalSanitizer.clean(user.name ?? user.id)) "
          + "(\(TerminalSanitizer.clean(user.id))). Next: `refrain spotify import`.")
    }

    /// Text safe inside the callback page.
    static func html(_ text: String) -> String {
      text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;")
    }
  }

  /// `refrain spotify import`.
  struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Import your playlists, Liked Songs and saved albums, and match each track.")

    @Flag(help: "Print a JSON summary on stdout.")
    var json = false

    @Flag(help: "Ask the preview catalog again about tracks it did not have before.")
    var rematch = false

    func run() throws {
      let environment = ProcessInfo.processInfo.environment
      RefrainLogging.bootstrap(environment: environment)
      let configuration = RefrainConfiguration.load(environment: environment).configuration
      let summary: SpotifyImportSummary
      do {
        summary = try SpotifyCommand.runImport(
          configuration: configuration, environment: environment, rematch: rematch
        ) { progress in
          if let notice = progress.notice {
            SpotifyCommand.say("import: \(notice)")
          } else if let total = progress.total {
            SpotifyCommand.say("import: \(progress.stage) \(progress.done)/\(total)")
          } else {
            SpotifyCommand.say("import: \(progress.stage) \(progress.done)")
          }
        }
      } catch {
        SpotifyCommand.fail("\(error)")
      }
      Console.line(json ? JSONOutput.line(summary) : SpotifyCommand.sentence(summary))
    }
  }

  /// `refrain spotify status`.
  struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Who is logged in, when the token expires, and the last import.")

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
      let environment = ProcessInfo.processInfo.environment
      let token = SpotifyTokenFile.standard(environment: environment).load()
      var last: (at: Date, summary: String)?
      let libraryFile = LibraryStore.defaultFileURL(environment: environment)
      if FileManager.default.fileExists(atPath: libraryFile.path) {
        last = try? LibraryStore(fileURL: libraryFile).spotifyImport.lastSpotifyImport()
      }
      let lastSummary = last.flatMap {
        try? JSONDecoder().decode(SpotifyImportSummary.self, from: Data($0.summary.utf8))
      }
      let report = StatusReport(
        loggedIn: token != nil,
        user: token.map { StatusReport.User(id: $0.userID ?? "", name: $0.userName) },
        expiresAt: token.map { Self.iso(Date(timeIntervalSince1970: $0.expiresAt)) },
        lastImport: Self.lastImport(last, lastSummary))
      if json {
        Console.line(JSONOutput.line(report))
        return
      }
      if let token {
        Console.line(
          "Logged in to Spotify as \(TerminalSanitizer.clean(token.userName ?? token.userID ?? "?"))"
            + " (\(TerminalSanitizer.clean(token.userID ?? "?"))); the access token expires "
            + "\(report.expiresAt ?? "?") and is renewed when needed.")
      } else {
        Console.line("Not logged in to Spotify: run `refrain spotify login`.")
      }
      if let imported = report.lastImport {
        let s = imported.summary
        Console.line(
          "Last import \(imported.at): \(s.playlists) playlists, \(s.albums) albums, \(s.tracks) "
            + "tracks (\(s.matchedLocal) local, "
            + (s.matchedSubsonic > 0 ? "\(s.matchedSubsonic) on your server, " : "")
            + "\(s.matchedPreview) previews, \(s.unmatched) unmatched)."
        )
      } else {
        Console.line("Nothing imported yet.")
      }
    }

    static func iso(_ date: Date) -> String { date.formatted(.iso8601) }

    static func lastImport(_ last: (at: Date, summary: String)?, _ summary: SpotifyImportSummary?)
      -> StatusReport.LastImport?
    {
      guard let last, let summary else { return nil }
      return StatusReport.LastImport(at: iso(last.at), summary: summary)
    }

    /// What `status --json` prints.
    struct StatusReport: Encodable {
      struct User: Encodable {
        var id: String
        var name: String?
      }
      struct LastImport: Encodable {
        var at: String
        var summary: SpotifyImportSummary
        func encode(to encoder: any Encoder) throws {
          try summary.encode(to: encoder)
          var container = encoder.container(keyedBy: Key.self)
          try container.encode(at, forKey: .at)
        }
        enum Key: String, CodingKey { case at }
      }
      var loggedIn: Bool
      var user: User?
      var expiresAt: String?
      var lastImport: LastImport?
      enum CodingKeys: String, CodingKey {
        case loggedIn = "logged_in"
        case user
        case expiresAt = "expires_at"
        case lastImport = "last_import"
      }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(loggedIn, forKey: .loggedIn)
        try container.encode(user, forKey: .user)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(lastImport, forKey: .lastImport)
      }
    }
  }

  /// `refrain spotify logout`.
  struct Logout: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Forget the Spotify login (the imported library stays).")

    func run() throws {
      let file = SpotifyTokenFile.standard(environment: ProcessInfo.processInfo.environment)
      file.remove()
      SpotifyCommand.say("Logged out of Spotify; the imported library stays in Refrain.")
    }
  }

  /// What an import brought in, in one sentence.
  static func sentence(_ summary: SpotifyImportSummary) -> String {
    "Imported \(summary.playlists) playlists, \(summary.albums) albums and "
      + "\(summary.tracks) tracks: \(summary.matchedLocal) play from your files, "
      + (summary.matchedSubsonic > 0 ? "\(summary.matchedSubsonic) from your server, " : "")
      + "\(summary.matchedPreview) from previews, \(summary.unmatched) cannot be played."
  }

  /// Runs an import with the stored login; `report` gets its progress.
  static func runImport(
    configuration: RefrainConfiguration, environment: [String: String], rematch: Bool,
    report: @escaping SpotifyImporter.Report
  ) throws -> SpotifyImportSummary {
    let importer = try makeImporter(
      configuration: configuration, environment: environment, rematch: rematch)
    return try waitFor { try await importer.run(report: report) }
  }

  /// An importer with the stored login, the library, the Subsonic server when logged in to
  /// one, and the preview catalog.
  static func makeImporter(
    configuration: RefrainConfiguration, environment: [String: String], rematch: Bool
  ) throws -> SpotifyImporter {
    let tokenFile = SpotifyTokenFile.standard(environment: environment)
    guard let token = tokenFile.load() else { throw SpotifyError.notLoggedIn }
    let store = try LibraryStore.openDefault(environment: environment)
    let client = SpotifyClient(
      endpoints: SpotifyEndpoints.resolve(environment: environment), token: token,
      tokenFile: tokenFile)
    let previews = configuration.deezerURL(environment: environment).map {
      DeezerCatalogProvider(baseURL: $0, environment: environment, diskCache: false)
    }
    var lookup: SpotifyMatcher.PreviewLookup?
    if let previews {
      lookup = { isrc in try await previews.track(isrc: isrc) }
    }
    var serverLookup: SpotifyMatcher.ServerLookup?
    if let account = SubsonicAccountFile.standard(environment: environment).load() {
      let server = SubsonicCatalogProvider(account: account)
      serverLookup = { track in
        try await server.songID(matching: track, tolerance: SpotifyMatcher.durationTolerance)
      }
    }
    return SpotifyImporter(
      client: client, store: store,
      matcher: SpotifyMatcher(
        store: store, server: serverLookup, previews: lookup, rematchPreviews: rematch))
  }

  /// The user's ID and name, from `/me`.
  struct SpotifyUser: Decodable, Sendable {
    var id: String
    var displayName: String?
    enum CodingKeys: String, CodingKey {
      case id
      case displayName = "display_name"
    }
  }

  /// Opens `url` in the desktop's browser; `false` when there is no desktop here (over SSH,
  /// or no display) or `xdg-open` is missing.
  static func openBrowser(_ url: URL, environment: [String: String]) -> Bool {
    guard environment["SSH_CONNECTION"] == nil,
      environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil
    else { return false }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["xdg-open", url.absoluteString]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return false
    }
    return true
  }

  /// One line on stderr.
  static func say(_ line: String) {
    Console.error(line)
  }

  /// Prints `refrain spotify: MESSAGE` on stderr and exits 1.
  static func fail(_ message: String) -> Never {
    say("refrain spotify: \(message)")
    Foundation.exit(1)
  }
}
