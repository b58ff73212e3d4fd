import Foundation
import RefrainCore
import RefrainSession

/// Listens on the control socket and applies `refrain ctl` commands to a running session,
/// whichever front end runs it: the full-screen player, `refrain play` or `refrain room join`.
///
/// The session answers its own commands (``Session/answer(_:reply:)``); a front end adds its
/// own verbs (`show PANE`, playlist edits) through ``frontEnd``, and any other is refused in
/// one line.
///
/// One line in, one line out: `ok`, `error: REASON`, or a JSON object for `status`. A client
/// that sends `watch` stays connected and gets a status line whenever something changes.
/// A playlist edit is answered once the app reports it stored, meanwhile the loop goes on;
/// a client that hung up by then gets nothing.
///
/// Every descriptor is non-blocking and joins the main loop's `poll()`: a client that says
/// nothing, sends a megabyte without a newline or never reads its watch lines costs a
/// buffer, never a wait. Requests are capped at 64 KiB, clients at 64, and a watcher whose
/// unread lines pass 256 KiB is dropped.
final class ControlServer {
  /// The longest request line; a longer one is answered with an error and closed.
  static let requestLimit = 65_536
  /// How many bytes of unread status lines a watcher may fall behind before it is dropped.
  static let watcherBacklogLimit = 262_144
  /// How many clients may be connected at once; more are told so and closed.
  static let clientLimit = 64

  private struct Client {
    /// Tells this client from a later one given the same descriptor.
    var serial: Int
    var input: [UInt8] = []
    var output: [UInt8] = []
    var watching = false
    /// Close once `output` is written (the answer to a one-shot command).
    var closing = false
    /// Its command is being carried out; its answer comes later.
    var awaiting = false
  }

  /// A front end's own verbs: carries out `command` and replies, or returns false.
  typealias FrontEndVerbs = (Command, @escaping (Session.Answer) -> Void) -> Bool

  /// The session the commands act on.
  private let session: Session
  /// The front end's verbs.
  private let frontEnd: FrontEndVerbs
  /// The status with what the front end adds (its pane).
  private let currentStatus: () -> SessionStatus
  /// What a command no one here handles is told: which front end has it.
  private let elsewhere: String
  /// The socket's path.
  let path: String
  /// The listening descriptor.
  let fileDescriptor: Int32
  private var clients: [Int32: Client] = [:]
  private var nextSerial = 0
  private var lastWatched: SessionStatus?

  /// Creates the socket (directory 0700, socket 0600) for `session`; refuses when another
  /// Refrain listens there.
  ///
  /// - Parameters:
  ///   - frontEnd: The front end's own verbs; the session's are answered first.
  ///   - status: The status as the front end reports it (with its pane).
  ///   - elsewhere: What a verb that neither handles is told, e.g. "works in the
  ///     full-screen player, not in `refrain play`".
  init(
    path: String, session: Session, frontEnd: @escaping FrontEndVerbs = { _, _ in false },
    status: (() -> SessionStatus)? = nil,
    elsewhere: String = "works only in the full-screen player"
  ) throws {
    self.path = path
    self.session = session
    self.frontEnd = frontEnd
    self.currentStatus = status ?? { session.status() }
    self.elsewhere = elsewhere
    let folder = (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    _ = chmod(folder, 0o700)
    try Self.checkFree(path)
    if FileManager.default.fileExists(atPath: path) { unlink(path) }  // a crashed run's
    var address = try UnixSocket.address(path)
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw UnixSocket.Failure(description: "cannot create a socket") }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0, listen(fd, 16) == 0 else {
      let reason = UnixSocket.errnoText
      close(fd)
      throw UnixSocket.Failure(description: "cannot listen on \(path): \(reason)")
    }
    _ = chmod(path, 0o600)
    UnixSocket.makeNonBlocking(fd)
    fileDescriptor = fd
  }

  /// Throws when a Refrain already answers on `path`: a front end checks this before it
  /// takes the terminal, so the reason is seen.
  static func checkFree(_ path: String) throws {
    guard FileManager.default.fileExists(atPath: path), let fd = try? UnixSocket.connect(to: path)
    else { return }
    close(fd)
    throw UnixSocket.Failure(
      description: "another Refrain is already running (control socket \(path)); "
        + "quit it with `refrain ctl quit`, or start this one with --socket PATH")
  }

  deinit {
    for fd in clients.keys { close(fd) }
    close(fileDescriptor)
    unlink(path)
  }

  /// What to poll: the listening socket for new clients, each client for its request (and,
  /// while it has unwritten output, for room to write). A client awaiting its answer is
  /// polled for nothing but hanging up (`POLLHUP` is always reported).
  var pollDescriptors: [pollfd] {
    var fds = [pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)]
    for (fd, client) in clients {
      var events = client.closing || client.awaiting ? 0 : Int16(POLLIN)
      if !client.output.isEmpty { events |= Int16(POLLOUT) }
      fds.append(pollfd(fd: fd, events: events, revents: 0))
    }
    return fds
  }

  /// Handles what `poll()` reported for the descriptors of ``pollDescriptors``.
  func handle(_ ready: [pollfd]) {
    for entry in ready where entry.revents != 0 {
      if entry.fd == fileDescriptor {
        acceptClients()
      } else {
        serve(entry.fd, events: entry.revents)
      }
    }
  }

  /// Queues the status for every watcher when it changed (the position counts in whole
  /// seconds), and drops watchers that stopped reading.
  func notifyWatchers() {
    guard clients.values.contains(where: \.watching) else { return }
    let status = currentStatus()
    guard status.changeKey != lastWatched else { return }
    lastWatched = status.changeKey
    let line = Array((SessionJSON.line(status) + "\n").utf8)
    for (fd, client) in clients where client.watching {
      if client.output.count + line.count > Self.watcherBacklogLimit {
        drop(fd)
      } else {
        clients[fd]?.output += line
        flush(fd)
      }
    }
  }

  // MARK: - Clients

  private func acceptClients() {
    while true {
      let fd = accept(fileDescriptor, nil, nil)
      guard fd >= 0 else { return }
      UnixSocket.makeNonBlocking(fd)
      // A small kernel buffer: what a slow reader has not taken stays in our own, counted
      // buffer, so a stalled watcher is noticed after 256 KiB rather than 256 + 200 KiB.
      var size: Int32 = 16_384
      _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
      nextSerial += 1
      var client = Client(serial: nextSerial)
      if clients.count >= Self.clientLimit {
        client.output = Array("error: too many control clients connected\n".utf8)
        client.closing = true
      }
      clients[fd] = client
      flush(fd)
    }
  }

  private func serve(_ fd: Int32, events: Int16) {
    guard clients[fd] != nil else { return }
    if events & Int16(POLLIN) != 0 { read(fd) }
    if clients[fd] != nil, events & Int16(POLLOUT) != 0 { flush(fd) }
    // An error, or a client gone for good: nothing more can reach it.
    if clients[fd] != nil, events & Int16(POLLERR | POLLNVAL | POLLHUP) != 0 { drop(fd) }
  }

  /// Reads what the client sent; answers each complete line.
  private func read(_ fd: Int32) {
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while var client = clients[fd], !client.closing, !client.awaiting {
      let count = Foundation.read(fd, &chunk, chunk.count)
      if count < 0 && errno == EINTR { continue }
      if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
      guard count > 0 else {
        // The client hung up (or failed): answer nothing more; a watcher is gone.
        if client.output.isEmpty || client.watching { return drop(fd) }
        clients[fd]?.closing = true
        return
      }
      client.input += chunk[0..<count]
      clients[fd] = client
      while let newline = clients[fd]?.input.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: clients[fd]!.input[..<newline], as: UTF8.self)
        clients[fd]?.input.removeSubrange(...newline)
        answer(line, from: fd)
        guard let client = clients[fd], !client.closing, !client.watching, !client.awaiting
        else { break }
      }
      if let pending = clients[fd]?.input.count, pending > Self.requestLimit {
        clients[fd]?.input.removeAll()
        reply("error: a command is at most \(Self.requestLimit / 1024) KiB", to: fd)
      }
    }
  }

  private func answer(_ line: String, from fd: Int32) {
    let request = line.trimmingCharacters(in: .whitespaces)
    if request == "watch" || request == "status --watch" {
      let status = currentStatus()
      lastWatched = status.changeKey
      clients[fd]?.watching = true
      clients[fd]?.output += Array((SessionJSON.line(status) + "\n").utf8)
      flush(fd)
      return
    }
    let command: Command
    do {
      command = try CommandParser.parse(request)
    } catch {
      return reply("error: \(error)", to: fd)
    }
    guard let serial = clients[fd]?.serial else { return }
    clients[fd]?.awaiting = true
    let respond: (Session.Answer) -> Void = { [weak self] answer in
      // The client may have hung up meanwhile, and its descriptor gone to a new one.
      guard let self, self.clients[fd]?.serial == serial else { return }
      self.clients[fd]?.awaiting = false
      switch answer {
      case .success(let text): self.reply(text, to: fd)
      case .failure(let failure): self.reply("error: \(failure)", to: fd)
      }
    }
    if command == .status { return respond(.success(SessionJSON.line(currentStatus()))) }
    if session.answer(command, reply: respond) || frontEnd(command, respond) { return }
    respond(.failure(CommandFailure("'\(command)' \(elsewhere)")))
  }

  /// Sends a one-shot answer and closes once it is written.
  private func reply(_ text: String, to fd: Int32) {
    clients[fd]?.output += Array((text + "\n").utf8)
    clients[fd]?.closing = true
    flush(fd)
  }

  /// Writes as much queued output as the socket takes now, without waiting.
  private func flush(_ fd: Int32) {
    guard var client = clients[fd] else { return }
    while !client.output.isEmpty {
      // MSG_NOSIGNAL: a client that hung up is dropped, never a SIGPIPE for the player.
      let written = client.output.withUnsafeBytes {
        send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if written < 0 && errno == EINTR { continue }
      if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
      guard written > 0 else { return drop(fd) }
      client.output.removeFirst(written)
    }
    clients[fd] = client
    if client.output.isEmpty && client.closing { drop(fd) }
  }

  private func drop(_ fd: Int32) {
    guard clients.removeValue(forKey: fd) != nil else { return }
    close(fd)
  }
}
