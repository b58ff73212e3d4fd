import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import NIOSSL
import RefrainCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `refrain-room link`: one member's connection to a room, for a Refrain player in another
/// process.
///
/// It relays the room's messages to stdout and the player's requests from stdin, one JSON
/// object per line, and looks after what does not need the player: `hello` on each
/// connection, answering heartbeats, estimating the room clock's offset from the
/// monotonic clock the player also reads (`CLOCK_MONOTONIC`, so the estimate holds across
/// the two processes), and reconnecting with backoff when the server goes away. What it
/// adds to the stream, besides the server's messages:
///
/// - `{"type":"link","state":"connected"|"lost"|"refused",…}` (`lost` with `reason` and
///   `retry_in`, the seconds until the next attempt);
/// - `{"type":"offset","offset_ms":…,"rtt_ms":…}` after each clock probe;
/// - `{"type":"error","code":"unreachable",…}` for each request that arrived while the room
///   could not be reached: it is dropped, never kept to be sent later.
///
/// It says hello in ``RoomProtocol/version``; a server that refuses that version is greeted
/// again, at once, in ``RoomProtocol/oldestVersion``.
public struct RoomLink: Sendable {
  /// Where and as whom to join.
  public struct Options: Sendable {
    /// `ws://HOST:PORT/rooms/NAME` or `wss://…`.
    public var url: String
    public var token: String
    public var name: String

    public init(url: String, token: String, name: String) {
      self.url = url
      self.token = token
      self.name = name
    }
  }

  private let options: Options
  private let lines: LineQueue
  private let output: LineWriter

  public init(options: Options) {
    self.options = options
    let output = LineWriter()
    self.output = output
    lines = LineQueue { line, retryAt in
      let wait = retryAt.map { max(0, ($0 - LinkSession.now() / 1000).rounded(.up)) }
      output.write(
        line: RoomEvent.error(
          code: .unreachable, message: Self.dropped(line, retryIn: wait), retryAfter: wait
        ).json)
    }
  }

  /// What a member is told of a request the link dropped: which one, and when the link
  /// tries again.
  static func dropped(_ line: String, retryIn: Double?) -> String {
    struct Kind: Decodable { let type: String }
    let kind = (try? JSONDecoder().decode(Kind.self, from: Data(line.utf8)))?.type
    let what = kind.map { "\"\(TerminalSanitizer.clean(String($0.prefix(40))))\"" } ?? "a request"
    let when = retryIn.map { "reconnecting in \(Int($0)) s" } ?? "reconnecting"
    return "the room is unreachable: \(what) was not sent (\(when))"
  }

  /// A line about the link itself.
  struct LinkStatus: Encodable {
    var type = "link"
    var state: String
    var reason: String?
    var retryIn: Double?

    init(state: State, reason: String? = nil, retryIn: Double? = nil) {
      self.state = state.rawValue
      self.reason = reason
      self.retryIn = retryIn
    }

    enum State: String { case connected, lost, refused }

    enum CodingKeys: String, CodingKey {
      case type, state, reason
      case retryIn = "retry_in"
    }
  }

  /// A line with the clock offset the probes measured.
  struct OffsetLine: Encodable {
    var type = "offset"
    var offsetMs: Double
    var rttMs: Double

    enum CodingKeys: String, CodingKey {
      case type
      case offsetMs = "offset_ms"
      case rttMs = "rtt_ms"
    }
  }

  /// Seconds between reconnection attempts: 0.5, 1, 2, 4, then 8.
  static func backoff(attempt: Int) -> Double { min(8, 0.5 * pow(2, Double(max(0, attempt - 1)))) }

  /// Runs until stdin closes or the server refuses the member; the exit status.
  public func run() async -> Int32 {
    let lines = self.lines
    Thread.detachNewThread {
      while let line = readLine(strippingNewline: true) { lines.push(line) }
      lines.close()
    }
    var failures = 0
    var version = RoomProtocol.version
    let url = Self.withToken(options.url, token: options.token)
    let tls = Self.tlsConfiguration(for: options.url)
    var logger = Logger(label: "refrain-room-link")
    logger.logLevel = .critical
    var configuration = WebSocketClientConfiguration()
    configuration.maxFrameSize = 1 << 20
    configuration.autoPing = .disabled
    while !lines.isClosed {
      let session = LinkSession(
        name: options.name, version: version, lines: lines, output: output)
      var reason = "the room server closed the connection"
      do {
        _ = try await WebSocketClient.connect(
          url: url, configuration: configuration, tlsConfiguration: tls, logger: logger
        ) { inbound, outbound, _ in
          try await session.serve(inbound: inbound, outbound: outbound)
        }
      } catch {
        if !session.connected, !lines.isClosed,
          let refusal = await Self.refusal(options.url, token: options.token)
        {
          output.write(LinkStatus(state: .refused, reason: refusal))
          return 2
        }
        reason = Self.describe(error)
      }
      if session.joined { failures = 0 }
      if lines.isClosed { return 0 }
      if session.versionRefused, version > RoomProtocol.oldestVersion {
        // An older server: hello again, at once, in the oldest version.
        version = RoomProtocol.oldestVersion
        continue
      }
      failures += 1
      let wait = Self.backoff(attempt: failures)
      output.write(LinkStatus(state: .lost, reason: reason, retryIn: wait))
      lines.refuse(retryAt: LinkSession.now() / 1000 + wait)
      try? await Task.sleep(nanoseconds: UInt64(wait * 1e9))
    }
    return 0
  }

  /// TLS for a `wss://` room: the system's CAs, or the file `SSL_CERT_FILE` names instead
  /// (the same file Refrain's HTTPS streams trust), so a room behind a proxy with a private
  /// CA can be joined; `nil` for `ws://`.
  static func tlsConfiguration(
    for url: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> TLSConfiguration? {
    guard url.lowercased().hasPrefix("wss://") else { return nil }
    var configuration = TLSConfiguration.makeClientConfiguration()
    if let file = userCAFile(environment) { configuration.trustRoots = .file(file) }
    return configuration
  }

  /// The CA file `SSL_CERT_FILE` names, if it names one.
  static func userCAFile(_ environment: [String: String]) -> String? {
    guard let file = environment["SSL_CERT_FILE"], !file.isEmpty else { return nil }
    return file
  }

  /// The room URL with the token as a query parameter.
  static func withToken(_ url: String, token: String) -> String {
    let encoded = token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token
    return url + (url.contains("?") ? "&" : "?") + "token=" + encoded
  }

  /// Why the server refused the upgrade, when it did: a wrong token (401) or a room that
  /// cannot exist (404), asked again over plain HTTP since the WebSocket client does not say.
  static func refusal(_ url: String, token: String) async -> String? {
    guard var components = URLComponents(string: url) else { return "not a room URL: \(url)" }
    components.scheme = components.scheme?.lowercased() == "wss" ? "https" : "http"
    components.queryItems = [URLQueryItem(name: "token", value: token)]
    guard let probe = components.url else { return nil }
    var request = URLRequest(url: probe, timeoutInterval: 5)
    request.httpMethod = "GET"
    guard let (_, response) = try? await URLSession.shared.data(for: request),
      let status = (response as? HTTPURLResponse)?.statusCode
    else { return nil }
    switch status {
    case 401:
      return "the room server refused the token (HTTP 401): check --token or REFRAIN_ROOM_TOKEN"
    case 404:
      return "no such room at \(url) (HTTP 404): a room name is 1 to 64 of A-Z a-z 0-9 . _ -"
    default: return nil
    }
  }

  private static func describe(_ error: any Error) -> String {
    let text = "\(error)"
    if text.contains("connectTimeout") || text.contains("connection refused")
      || text.contains("Connection refused")
    {
      return "cannot reach the room server"
    }
    if text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("unableToValidateCertificate") {
      return "the room server's TLS certificate is not trusted: set SSL_CERT_FILE to its CA file"
    }
    return TerminalSanitizer.clean(String(text.prefix(200)))
  }
}

/// One connection: hello, the relay both ways, heartbeats and clock probes.
final class LinkSession: @unchecked Sendable {
  private let name: String
  private let version: Int
  private let lines: LineQueue
  private let output: LineWriter
  private let lock = NSLock()
  private var _connected = false
  private var _joined = false
  private var _versionRefused = false
  private var estimator = ClockOffsetEstimator()

  init(name: String, version: Int, lines: LineQueue, output: LineWriter) {
    self.name = name
    self.version = version
    self.lines = lines
    self.output = output
  }

  /// Whether the upgrade succeeded.
  var connected: Bool { lock.withLock { _connected } }
  /// Whether the server welcomed the member.
  var joined: Bool { lock.withLock { _joined } }
  /// Whether the server refused the hello's version (an older server).
  var versionRefused: Bool { lock.withLock { _versionRefused } }

  /// The member's clock, ms (CLOCK_MONOTONIC, as the player's).
  static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1_000_000
  }

  func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
    lock.withLock { _connected = true }
    lines.accept()
    output.write(RoomLink.LinkStatus(state: .connected))
    try await outbound.write(.text(RoomRequest.hello(protocolVersion: version, name: name).json))
    try await withThrowingTaskGroup(of: Void.self) { group in
      // The player's requests.
      group.addTask { [lines] in
        while let line = await lines.next() {
          let trimmed = line.trimmingCharacters(in: .whitespaces)
          if trimmed.isEmpty { continue }
          do {
            try await outbound.write(.text(trimmed))
          } catch {
            lines.report(trimmed)
            throw error
          }
        }
        try await outbound.close(.normalClosure, reason: "the player left")
      }
      // Clock probes: a burst of 8 on joining, then 4 every 30 s.
      group.addTask {
        var probe = 0
        while !Task.isCancelled {
          let burst = probe == 0 ? 8 : 4
          for _ in 0..<burst {
            probe += 1
            try await outbound.write(.text(RoomRequest.time(id: probe, t0: Self.now()).json))
            try await Task.sleep(nanoseconds: 40_000_000)
          }
          try await Task.sleep(nanoseconds: 30_000_000_000)
        }
      }
      group.addTask { [self] in
        for try await message in inbound.messages(maxSize: 1 << 20) {
          guard case .text(let text) = message else { continue }
          switch RoomEvent.parse(text) {
          case .time(_, let t0, let server)?:
            let offset = lock.withLock { () -> (Double, Double)? in
              estimator.add(t0: t0, server: server, t3: Self.now())
              guard let offset = estimator.offset, let trip = estimator.roundTrip else {
                return nil
              }
              return (offset, trip)
            }
            if let (offset, trip) = offset {
              output.write(RoomLink.OffsetLine(offsetMs: offset, rttMs: trip))
            }
          case .heartbeat?:
            try await outbound.write(.text(RoomRequest.alive.json))
          case .welcome?:
            lock.withLock { _joined = true }
            output.write(line: text)
          case .error(.protocol, _, _)? where !joined && version > RoomProtocol.oldestVersion:
            // An older server: the link says hello again in the oldest version.
            lock.withLock { _versionRefused = true }
          default:
            output.write(line: text)
          }
        }
      }
      // The first task to end (the server closed, or stdin did) ends the connection.
      _ = try await group.next()
      group.cancelAll()
    }
  }
}
