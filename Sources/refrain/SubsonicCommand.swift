import ArgumentParser
import Foundation
import RefrainCatalog
import RefrainCore
import RefrainSubsonic

#if canImport(Glibc)
  import Glibc
#endif

/// `refrain subsonic`: log in to a Subsonic or OpenSubsonic server (Navidrome, gonic, …).
struct SubsonicCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "subsonic",
    abstract: "Your Subsonic server (Navidrome, gonic, Airsonic…): login, status, logout.",
    discussion:
      "The login is kept in subsonic.json beside the library, readable only by you: a token "
      + "and its salt, or an API key, never the password. See docs/home-server.md.",
    subcommands: [Login.self, Status.self, Logout.self])

  /// `refrain subsonic login URL --user NAME [--password-stdin] [--insecure]`.
  struct Login: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Log in: checks the login with the server, then stores a token or API key.")

    @Argument(help: "The server's address, such as https://music.example.org.")
    var url: String

    @Option(help: "Your user name on the server.")
    var user: String

    @Flag(help: "Read the password (or an API key) from the first line of stdin.")
    var passwordStdin = false

    @Flag(help: "Allow plain http:// to a host other than this machine.")
    var insecure = false

    func run() throws {
      let environment = ProcessInfo.processInfo.environment
      let login: SubsonicLogin
      do {
        login = SubsonicLogin(
          server: try SubsonicLogin.address(url), user: user, insecure: insecure)
        // Before asking: no password is read for a login that would be refused anyway.
        try login.checkTransport()
      } catch {
        SubsonicCommand.fail("\(error)")
      }
      let secret: String
      if passwordStdin {
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
          SubsonicCommand.fail("no password on stdin: pipe it as the first line")
        }
        secret = line
      } else {
        guard
          let typed = PasswordPrompt.ask(
            "Password for \(user) at \(login.server.host ?? url): ")
        else {
          SubsonicCommand.fail("no terminal to ask for the password; pipe it with --password-stdin")
        }
        secret = typed
      }
      let account: SubsonicAccount
      do {
        account = try waitFor {
          try await login.perform(secret: secret, http: SubsonicClient.httpClient())
        }
      } catch {
        SubsonicCommand.fail("\(error)")
      }
      let file = SubsonicAccountFile.standard(environment: environment)
      guard file.save(account) else {
        SubsonicCommand.fail(
          "cannot write \(file.url.path); check that the folder exists and is yours")
      }
      Console.line(
        "Logged in to \(account.hostAndPort) as \(TerminalSanitizer.clean(account.user)) "
          + "(\(account.auth.kind), API \(TerminalSanitizer.clean(account.apiVersion))).")
    }
  }

  /// `refrain subsonic status [--json]`.
  struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show the server, the user, its API version and extensions (from the login).")

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
      let file = SubsonicAccountFile.standard(environment: ProcessInfo.processInfo.environment)
      guard let account = file.load() else {
        SubsonicCommand.fail("\(SubsonicError.notLoggedIn)")
      }
      let report = Report(
        server: account.hostAndPort, url: account.server.absoluteString, user: account.user,
        apiVersion: account.apiVersion, serverType: account.serverType,
        extensions: account.extensions, auth: account.auth.kind)
      if json {
        Console.line(JSONOutput.line(report))
        return
      }
      let clean = TerminalSanitizer.clean
      Console.line("server: \(report.server)")
      Console.line("user: \(clean(report.user))")
      Console.line("api version: \(clean(report.apiVersion))")
      if let type = report.serverType { Console.line("server type: \(clean(type))") }
      let extensions = report.extensions.map(clean).joined(separator: ", ")
      Console.line("extensions: \(extensions.isEmpty ? "none" : extensions)")
      Console.line("login: \(report.auth)")
    }

    /// What `status --json` prints; never the token, salt or key.
    struct Report: Encodable {
      var server: String
      var url: String
      var user: String
      var apiVersion: String
      var serverType: String?
      var extensions: [String]
      var auth: String

      enum CodingKeys: String, CodingKey {
        case server, url, user, extensions, auth
        case apiVersion = "api_version"
        case serverType = "server_type"
      }
    }
  }

  /// `refrain subsonic logout`.
  struct Logout: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Forget the login (removes subsonic.json).")

    func run() throws {
      let file = SubsonicAccountFile.standard(environment: ProcessInfo.processInfo.environment)
      let account = file.load()
      guard file.remove() else {
        Console.line("Not logged in to a Subsonic server.")
        return
      }
      Console.line("Logged out\(account.map { " of \($0.hostAndPort)" } ?? "").")
    }
  }

  /// Prints `refrain subsonic: MESSAGE` on stderr and exits 1.
  static func fail(_ message: String) -> Never {
    Console.error("refrain subsonic: \(message)")
    Foundation.exit(1)
  }
}

/// Asks for a password on the terminal with echo off.
enum PasswordPrompt {
  /// The line typed at `prompt` on `/dev/tty`, or `nil` when there is no terminal.
  static func ask(_ prompt: String) -> String? {
    let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
    guard tty >= 0 else { return nil }
    defer { close(tty) }
    _ = prompt.withCString { write(tty, $0, strlen($0)) }
    var saved = termios()
    let canHide = tcgetattr(tty, &saved) == 0
    if canHide {
      var quiet = saved
      quiet.c_lflag &= ~tcflag_t(ECHO)
      tcsetattr(tty, TCSAFLUSH, &quiet)
    }
    defer {
      if canHide { tcsetattr(tty, TCSAFLUSH, &saved) }
      _ = write(tty, "\n", 1)
    }
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while read(tty, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
      bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
