import Foundation
import RefrainCore
import RefrainTUI

/// Listens on the control socket and applies `refrain ctl` commands to the running player.
///
/// One line in, one line out: `ok`, `error: REASON`, or a JSON object for `status`. A client
/// that sends `watch` stays connected and gets a status line whenever something changes.
final class ControlServer {
  /// The socket's path.
  let path: String
  /// The listening descriptor, for the main loop's `poll()`.
  let fileDescriptor: Int32
  private var watchers: [Int32] = []
  private var lastWatched = ""

  /// Creates the socket (directory 0700, socket 0600); refuses when another Refrain listens.
  init(path: String) throws {
    self.path = path
    let folder = (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    _ = chmod(folder, 0o700)
    if FileManager.default.fileExists(atPath: path) {
      if let fd = try? UnixSocket.connect(to: path) {
        close(fd)
        throw UnixSocket.Failure(
          description: "another Refrain is already running (control socket \(path)); "
            + "quit it with `refrain ctl quit`, or start this one with --socket PATH")
      }
      unlink(path)  // a stale socket from a crashed run
    }
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
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    fileDescriptor = fd
  }

  deinit {
    for watcher in watchers { close(watcher) }
    close(fileDescriptor)
    unlink(path)
  }

  /// Accepts waiting clients and answers each one's command.
  func acceptClients(app: App) {
    while true {
      let client = accept(fileDescriptor, nil, nil)
      guard client >= 0 else { return }
      var timeout = timeval(tv_sec: 0, tv_usec: 500_000)
      _ = setsockopt(
        client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      _ = setsockopt(
        client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      guard let line = UnixSocket.readLine(from: client) else {
        close(client)
        continue
      }
      let request = line.trimmingCharacters(in: .whitespaces)
      if request == "watch" || request == "status --watch" {
        let status = app.statusJSON()
        _ = UnixSocket.send(status + "\n", to: client)
        lastWatched = Self.changeKey(status)
        watchers.append(client)
        continue
      }
      _ = UnixSocket.send(answer(request, app: app) + "\n", to: client)
      close(client)
    }
  }

  /// Sends the status to every watcher when it changed (the position counts in whole seconds).
  func notifyWatchers(app: App) {
    guard !watchers.isEmpty else { return }
    let status = app.statusJSON()
    let key = Self.changeKey(status)
    guard key != lastWatched else { return }
    lastWatched = key
    watchers.removeAll { fd in
      if UnixSocket.send(status + "\n", to: fd) { return false }
      close(fd)
      return true
    }
  }

  /// The status with the position cut to whole seconds: what counts as a change.
  private static func changeKey(_ status: String) -> String {
    status.replacingOccurrences(
      of: #""position":([0-9]+)(\.[0-9]+)?"#, with: "\"position\":$1", options: .regularExpression)
  }

  private func answer(_ request: String, app: App) -> String {
    do {
      let command = try CommandParser.parse(request)
      return try app.answer(remote: command)
    } catch {
      return "error: \(error)"
    }
  }
}
