import ArgumentParser
import Foundation

/// `refrain ctl`: controls a running Refrain over its socket.
struct CtlCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ctl",
    abstract: "Control a running Refrain: status, play, pause, toggle, next, prev, seek, volume…",
    discussion: """
      The commands are the same as the `:` prompt's: status, play, pause, toggle, next, prev, \
      seek ±SEC|SEC|mm:ss, volume ±N|N, queue add PATH|URL, queue clear, lyrics line N, \
      playlist list|show ID|create NAME|rename ID NAME|delete ID|add ID PATH|remove ID POS|\
      move ID FROM TO, quit.
      `status` prints one JSON object; `status --watch` prints one line per change.
      """)

  @Argument(parsing: .captureForPassthrough, help: "The command and its arguments.")
  var words: [String] = []

  @Option(help: "The control socket (default: $XDG_RUNTIME_DIR/refrain/socket).")
  var socket: String?

  @Flag(help: "With status: keep printing a JSON line whenever something changes.")
  var watch = false

  func run() throws {
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
    let request = watching ? "watch" : words.joined(separator: " ")
    guard !request.isEmpty else {
      throw ValidationError("name a command, e.g. `refrain ctl status`")
    }
    let path = socketPath ?? UnixSocket.defaultPath()
    let fd: Int32
    do {
      fd = try UnixSocket.connect(to: path)
    } catch {
      FileHandle.standardError.write(Data("refrain: \(error); is Refrain running?\n".utf8))
      throw ExitCode(2)
    }
    defer { close(fd) }
    guard UnixSocket.send(request + "\n", to: fd) else {
      FileHandle.standardError.write(Data("refrain: the player closed the connection\n".utf8))
      throw ExitCode(2)
    }
    while let line = UnixSocket.readLine(from: fd) {
      if line.hasPrefix("error: ") {
        FileHandle.standardError.write(Data("refrain: \(line.dropFirst(7))\n".utf8))
        throw ExitCode(1)
      }
      print(line)
      fflush(nil)
      if !watching { break }
    }
  }
}
