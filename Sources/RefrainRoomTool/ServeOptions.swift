import ArgumentParser
import Foundation
import RefrainCore
import RefrainRoom

/// The options of `refrain-room serve`, declared here once: `refrain room serve` hands its
/// arguments to `refrain-room serve` as they were typed, so both read them from this one
/// declaration (and `refrain room serve --help` prints this help).
struct ServeOptions: ParsableArguments {
  @Option(name: .long, help: "HOST:PORT to listen on (port 0: any free port).")
  var listen = "127.0.0.1:7700"

  @Option(
    name: .long, help: "A folder of music to share (repeatable): every format the scan indexes.")
  var library: [String] = []

  @Flag(name: .long, help: "Only the first member (the host) controls playback and the queue.")
  var hostOnly = false

  @Option(name: .long, help: "Seconds between heartbeats; a member silent for two is dropped.")
  var heartbeat = RoomProtocol.defaultHeartbeat

  @Option(
    name: .long,
    help: "Seconds a new connection has to send its first request, token included.")
  var headerTimeout = ConnectionLimits().headerTimeout

  @Option(name: .long, help: "Connections waiting to send their token, from every address.")
  var maxPending = ConnectionLimits().maxPending

  @Option(name: .long, help: "Connections waiting to send their token, from one address.")
  var maxPendingPerAddress = ConnectionLimits().maxPendingPerAddress

  @Option(name: .long, help: "Seconds an HTTP connection may sit idle between requests.")
  var idleTimeout = ConnectionLimits().idleTimeout

  /// The connection limits the options ask for, before they are fitted to the process's
  /// descriptor limit.
  var limits: ConnectionLimits {
    var limits = ConnectionLimits()
    limits.headerTimeout = headerTimeout
    limits.maxPending = maxPending
    limits.maxPendingPerAddress = maxPendingPerAddress
    limits.idleTimeout = idleTimeout
    return limits
  }

  /// The host and port of `--listen` (validated).
  var address: (host: String, port: Int) {
    Self.address(listen) ?? ("127.0.0.1", 7700)
  }

  func validate() throws {
    guard headerTimeout >= 0.1, headerTimeout <= 600 else {
      throw ValidationError("--header-timeout is between 0.1 and 600 seconds, not \(headerTimeout)")
    }
    guard idleTimeout >= 0.1, idleTimeout <= 3600 else {
      throw ValidationError("--idle-timeout is between 0.1 and 3600 seconds, not \(idleTimeout)")
    }
    guard maxPending >= 1, maxPendingPerAddress >= 1 else {
      throw ValidationError("--max-pending and --max-pending-per-address are at least 1")
    }
    guard heartbeat >= 0.1, heartbeat <= 300 else {
      throw ValidationError("--heartbeat is between 0.1 and 300 seconds, not \(heartbeat)")
    }
    guard Self.address(listen) != nil else {
      throw ValidationError("--listen is HOST:PORT (for example 127.0.0.1:7700), not '\(listen)'")
    }
    for folder in library {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder),
        isFolder.boolValue
      else { throw ValidationError("--library \(folder): no such folder") }
    }
  }

  /// `HOST:PORT` (`[V6]:PORT` too) split; `nil` when it is not one.
  static func address(_ text: String) -> (host: String, port: Int)? {
    guard let colon = text.lastIndex(of: ":") else { return nil }
    var host = String(text[..<colon])
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard !host.isEmpty, let port = Int(text[text.index(after: colon)...]),
      (0...65535).contains(port)
    else { return nil }
    return (host, port)
  }
}
