import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import RefrainCore

/// `refrain room serve`: the rooms (WebSocket, `/rooms/NAME`) and the shared library (HTTP
/// range requests, `/library/PATH`) on one port, every request checked against the token.
public struct RoomServer: Sendable {
  /// What the server is started with.
  public struct Options: Sendable {
    public var host: String
    public var port: Int
    public var hub: RoomHub.Options
    /// How many connections it holds, and how long one may stay silent.
    public var limits: ConnectionLimits

    public init(
      host: String, port: Int, hub: RoomHub.Options, limits: ConnectionLimits = ConnectionLimits()
    ) {
      self.host = host
      self.port = port
      self.hub = hub
      self.limits = limits
    }
  }

  private let options: Options
  private let hub: RoomHub
  private let library: SharedLibrary
  private let token: String
  private let monotonic: @Sendable () -> Double

  public init(
    options: Options, library: SharedLibrary, store: RoomStore, token: String,
    monotonic: @escaping @Sendable () -> Double, wallClock: @escaping @Sendable () -> Double,
    log: @escaping @Sendable (String) -> Void
  ) {
    self.options = options
    self.library = library
    self.token = token
    self.monotonic = monotonic
    hub = RoomHub(
      library: library, store: store, options: options.hub, monotonic: monotonic,
      wallClock: wallClock, log: log)
  }

  /// Serves until SIGTERM or SIGINT; `listening` is called once with the bound port.
  public func run(listening: @escaping @Sendable (Int) -> Void) async throws {
    let router = Router(context: BasicRequestContext.self)
    router.add(middleware: TokenCheck(token: token))
    let library = self.library
    let hub = self.hub
    router.get("/library") { _, _ in
      Response(
        status: .ok, headers: [.contentType: "application/json"],
        body: .init(byteBuffer: ByteBuffer(string: hub.libraryMessage)))
    }
    router.get("/library/**") { request, context in
      try await Self.serveFile(request, context: context, library: library)
    }
    let monotonic = self.monotonic
    let token = self.token
    var logger = Logger(label: "refrain-room")
    logger.logLevel = .error
    // A first request with the token goes on: an upgrade to a room that can exist becomes
    // a member, plain HTTP goes to the router. The gate refuses the others (401, 404).
    let decide: UpgradeGate.Decision = { head in
      if head.isUpgrade, Self.roomName(head.path) == nil {
        return (404, "no room there: rooms are /rooms/NAME, 1 to 64 of A-Z a-z 0-9 . _ -")
      }
      let query = URLComponents(string: head.path)?.queryItems?.first { $0.name == "token" }?
        .value
      let given = query ?? TokenCheck<BasicRequestContext>.bearer(head.authorization)
      guard RoomToken.matches(given, token) else {
        return (
          401,
          given == nil
            ? "this room server needs its token: ?token=… or Authorization: Bearer …"
            : "wrong token for this room server"
        )
      }
      return nil
    }
    let limits = options.limits
    let budget = ConnectionBudget(limits: limits)
    let wsConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
      http1: .init(idleTimeout: .nanoseconds(Int64(limits.idleTimeout * 1e9))),
      ws: .init(maxFrameSize: RoomProtocol.maxFrameBytes, autoPing: .disabled))
    let app = Application(
      router: router,
      server: HTTPServerBuilder { responder in
        GatedUpgradeChannel(
          inner: HTTP1WebSocketUpgradeChannel(
            responder: responder, configuration: wsConfiguration,
            shouldUpgrade: { request, _, _ in
              guard let room = Self.roomName(request.path ?? "") else { return .dontUpgrade }
              return .upgrade([:]) { inbound, outbound, _ in
                await RoomConnection(room: room, hub: hub, monotonic: monotonic).run(
                  inbound: inbound, outbound: outbound)
              }
            }),
          decide: decide, budget: budget)
      },
      configuration: .init(address: .hostname(options.host, port: options.port)),
      onServerRunning: { channel in listening(channel.localAddress?.port ?? 0) },
      logger: logger)
    try await app.runService()
  }

  /// The room a request path names (`/rooms/NAME`, any query), when it can exist.
  static func roomName(_ path: String) -> String? {
    let bare = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
    guard bare.hasPrefix("/rooms/") else { return nil }
    let name = String(bare.dropFirst("/rooms/".count))
    return RoomProtocol.isValidRoomName(name) ? name : nil
  }

  /// A library file, whole or the range asked for.
  private static func serveFile(
    _ request: Request, context: BasicRequestContext, library: SharedLibrary
  ) async throws -> Response {
    let raw = String(request.uri.path.dropFirst("/library/".count))
    guard let path = raw.removingPercentEncoding, let item = library.item(path) else {
      throw HTTPError(.notFound, message: "no such track in the library")
    }
    let attributes = try? FileManager.default.attributesOfItem(atPath: item.file)
    guard let size = (attributes?[.size] as? NSNumber)?.intValue else {
      throw HTTPError(.notFound, message: "the track is gone from the library")
    }
    var headers: HTTPFields = [.contentType: item.mediaType, .acceptRanges: "bytes"]
    let io = FileIO()
    switch ByteRange.parse(request.headers[.range], size: size) {
    case .whole:
      headers[.contentLength] = String(size)
      let body =
        size == 0 ? ResponseBody() : try await io.loadFile(path: item.file, context: context)
      return Response(status: .ok, headers: headers, body: body)
    case .part(let range):
      headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
      headers[.contentLength] = String(range.count)
      let body = try await io.loadFile(path: item.file, range: range, context: context)
      return Response(status: .partialContent, headers: headers, body: body)
    case .unsatisfiable:
      throw HTTPError(
        .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(size)"],
        message: "the range is past the end of the file")
    }
  }
}

/// Refuses every request without the server's token (query `token` or `Authorization:
/// Bearer`), with 401 and a one-line reason.
struct TokenCheck<Context: RequestContext>: RouterMiddleware {
  let token: String

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let given =
      request.uri.queryParameters["token"].map(String.init)
      ?? Self.bearer(request.headers[.authorization])
    guard RoomToken.matches(given, token) else {
      throw HTTPError(
        .unauthorized,
        message: given == nil
          ? "this room server needs its token: ?token=… or Authorization: Bearer …"
          : "wrong token for this room server")
    }
    return try await next(request, context)
  }

  /// The token of an `Authorization: Bearer …` header.
  static func bearer(_ header: String?) -> String? {
    guard let header else { return nil }
    let parts = header.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return parts[1].trimmingCharacters(in: .whitespaces)
  }
}
