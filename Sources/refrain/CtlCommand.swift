import ArgumentParser
import Foundation
import RefrainCore

/// `refrain ctl`: controls a running Refrain over its socket.
struct CtlCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ctl",
    abstract: "Control a running Refrain: status, play, pause, toggle, next, prev, seek, volume…",
    discussion: """
      The commands are the same as the `:` prompt's: status, play, pause, toggle, stop, next, \
      prev, seek ±SEC|SEC|mm:ss, volume ±N|N, shuffle [on|off], repeat [off|all|one], queue, \
      play PATH|URL (adds it and plays it), queue add PATH|URL, queue remove|play N, queue move N M, queue clear, lyrics line N, \
      playlist list|show ID|create NAME|rename ID NAME|delete ID|add ID PATH|remove ID POS|\
      move ID FROM TO, chat TEXT, room join URL, room leave, quit. A relative PATH is taken \
      from the folder you run `refrain ctl` in. An answer is `ok` only when the command took \
      effect; otherwise the reason is printed and the exit status is 1.
      `status` prints one JSON object; `status --watch` prints one line per change.
      """)

  @Argument(parsing: .captureForPassthrough, help: "The command and its arguments.")
  var words: [String] = []

  @Option(help: "The control socket (default: $XDG_RUNTIME_DIR/refrain/socket).")
  var socket: String?

  @Flag(help: "With status: keep printing a JSON line whenever something changes.")
  var watch = false

  func run() throws {
    // The words are passed through untouched, so `--help` is looked for here.
    if words.first == "--help" || words.first == "-h" { throw CleanExit.helpRequest(self) }
    if words.isEmpty && !watch {
      Console.error(Refrain.helpMessage(for: Self.self))
      throw ExitCode(64)
    }
    var words = words
    var socketPath = socket
    var watching = watch
    // Options may come after the command words too: `refrain ctl status --watch`.
    if let index = words.firstIndex(of: "--watch") {
      words.remove(at: index)
      watching = true
    }
    if let index = words.firstIndex(of: "--socket"), index + 1 < words.count {
      socketPath = words[index + 1]
      words.removeSubrange(index...(index + 1))
    }
    let request =
      watching
      ? "watch"
      : Self.resolved(words, in: FileManager.default.currentDirectoryPath)
    guard !request.isEmpty else {
      throw ValidationError("name a command, e.g. `refrain ctl status`")
    }
    let path = socketPath ?? UnixSocket.defaultPath()
    let fd: Int32
    do {
      fd = try UnixSocket.connect(to: path)
    } catch {
      Console.error("refrain: \(error); is Refrain running?")
      throw ExitCode(2)
    }
    defer { close(fd) }
    guard UnixSocket.send(request + "\n", to: fd) else {
      Console.error("refrain: the player closed the connection")
      throw ExitCode(2)
    }
    while let line = UnixSocket.readLine(from: fd) {
      if line.hasPrefix("error: ") {
        Console.error("refrain: \(line.dropFirst(7))")
        throw ExitCode(1)
      }
      Console.line(line)
      fflush(nil)
      if !watching { break }
    }
  }

  /// The request line for `words`, as the player must read it: a relative path after
  /// `queue add`, `play` or `playlist add ID` is made absolute in `folder` (the caller's, not the
  /// player's).
  static func resolved(_ words: [String], in folder: String) -> String {
    var words = words
    let lowered = words.map { $0.lowercased() }
    let pathAt: Int?
    if lowered.starts(with: ["queue", "add"]) {
      pathAt = 2
    } else if lowered.first == "play" {
      pathAt = 1
    } else if lowered.starts(with: ["playlist", "add"]) {
      pathAt = 3
    } else {
      pathAt = nil
    }
    if let pathAt, words.count > pathAt {
      let item = words[pathAt...].joined(separator: " ")
      words.removeSubrange(pathAt...)
      words.append(absolute(item, in: folder))
    }
    return words.joined(separator: " ")
  }

  /// `item` made absolute in `folder` when it is a relative file path; URLs, `~` paths,
  /// absolute paths and `current` stay as they are.
  static func absolute(_ item: String, in folder: String) -> String {
    if item.hasPrefix("/") || item.hasPrefix("~") || item == "current" || item.contains("://") {
      return item
    }
    return URL(fileURLWithPath: item, relativeTo: URL(fileURLWithPath: folder, isDirectory: true))
      .standardizedFileURL.path
  }
}
