import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// The first request of every connection, checked before Hummingbird sees it: within the
/// server's ``ConnectionLimits``, in time, with the token, to a room that can exist.
///
/// A connection is admitted only within the pending caps (else it is answered 503 and
/// closed at once). It then has ``ConnectionLimits/headerTimeout`` to send its first request
/// head (request line and headers, up to 16 KiB), else it is answered 408 and closed. A head
/// without the token is answered 401, an upgrade to a room that cannot exist 404, a head too
/// long 431, each with a one-line reason and closed. A head with the token signs the
/// connection in: what was read passes on unchanged, and the gate leaves the pipeline.
/// Hummingbird answers every refused upgrade with a bare 400; members need to tell a wrong
/// token from a wrong address.
final class UpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer

  /// A first request head: its path, its `Authorization` header, and whether it asks for
  /// a WebSocket.
  struct Head: Equatable {
    var path: String
    var authorization: String?
    var isUpgrade: Bool
  }

  /// What to answer a head with: a status and a reason, or `nil` to sign it in.
  typealias Decision = @Sendable (Head) -> (status: Int, reason: String)?

  /// Whether the connection still waits to sign in; read when it closes. Touched only on the
  /// connection's event loop.
  private final class Ticket: @unchecked Sendable {
    var pending = true
  }

  private let decide: Decision
  private let budget: ConnectionBudget
  private var buffered: ByteBuffer?
  private var timer: Scheduled<Void>?
  private let ticket = Ticket()
  private var address = "unknown"
  private var done = false
  private static let headLimit = 16_384

  init(decide: @escaping Decision, budget: ConnectionBudget) {
    self.decide = decide
    self.budget = budget
  }

  func channelActive(context: ChannelHandlerContext) {
    address = context.channel.remoteAddress?.ipAddress ?? "unknown"
    if let refusal = budget.admit(from: address) {
      done = true
      return answer(context: context, status: 503, reason: refusal)
    }
    let budget = budget
    let ticket = ticket
    let address = address
    context.channel.closeFuture.whenComplete { _ in
      budget.closed(from: address, pending: ticket.pending)
    }
    let seconds = budget.limits.headerTimeout
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    timer = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(seconds * 1e9))) {
      let (gate, context) = loopBound.value
      guard !gate.done else { return }
      gate.done = true
      gate.answer(
        context: context, status: 408,
        reason: "no request within \(Int(seconds)) s: this room server closes silent connections")
    }
    context.fireChannelActive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !done else { return }
    var incoming = unwrapInboundIn(data)
    if buffered == nil {
      buffered = incoming
    } else {
      buffered!.writeBuffer(&incoming)
    }
    let bytes = Array(buffered!.readableBytesView)
    guard let end = Self.headEnd(bytes) else {
      if bytes.count > Self.headLimit {
        done = true
        answer(context: context, status: 431, reason: "the request head is over 16 KiB")
      }
      return
    }
    done = true
    timer?.cancel()
    guard let head = Self.head(String(decoding: bytes[..<end], as: UTF8.self)) else {
      return answer(context: context, status: 400, reason: "that is not an HTTP request")
    }
    if let refusal = decide(head) {
      return answer(context: context, status: refusal.status, reason: refusal.reason)
    }
    ticket.pending = false
    budget.signedIn(from: address)
    if let buffered { context.fireChannelRead(wrapInboundOut(buffered)) }
    buffered = nil
    context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    timer?.cancel()
  }

  /// Answers with `status` and a one-line reason, then closes the connection.
  private func answer(context: ChannelHandlerContext, status: Int, reason: String) {
    buffered = nil
    timer?.cancel()
    let phrases = [
      400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 408: "Request Timeout",
      431: "Request Header Fields Too Large", 503: "Service Unavailable",
    ]
    let body = reason + "\n"
    let response =
      "HTTP/1.1 \(status) \(phrases[status] ?? "Error")\r\n"
      + "Content-Type: text/plain; charset=utf-8\r\n"
      + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
    let buffer = context.channel.allocator.buffer(string: response)
    let channel = context.channel
    context.writeAndFlush(NIOAny(buffer)).whenComplete { _ in channel.close(promise: nil) }
  }

  /// The index just past the blank line that ends the head, if it arrived.
  private static func headEnd(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 4 else { return nil }
    for index in 0...(bytes.count - 4)
    where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13
      && bytes[index + 3] == 10
    {
      return index + 4
    }
    return nil
  }

  /// The path, `Authorization` header and upgrade wish of a request head; `nil` when it
  /// has no request line.
  static func head(_ text: String) -> Head? {
    let lines = text.split(separator: "\r\n", omittingEmptySubsequences: true)
    guard let requestLine = lines.first else { return nil }
    let parts = requestLine.split(separator: " ")
    guard parts.count >= 2 else { return nil }
    var head = Head(path: String(parts[1]), authorization: nil, isUpgrade: false)
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      if name == "upgrade", value.lowercased() == "websocket" { head.isUpgrade = true }
      if name == "authorization" { head.authorization = value }
    }
    return head
  }
}

/// Hummingbird's HTTP/1 + WebSocket child channel with an ``UpgradeGate`` in front.
struct GatedUpgradeChannel: ServerChildChannel {
  typealias Value = HTTP1WebSocketUpgradeChannel.Value

  let inner: HTTP1WebSocketUpgradeChannel
  let decide: UpgradeGate.Decision
  let budget: ConnectionBudget

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    do {
      try channel.pipeline.syncOperations.addHandler(UpgradeGate(decide: decide, budget: budget))
    } catch {
      return channel.eventLoop.makeFailedFuture(error)
    }
    return inner.setup(channel: channel, logger: logger)
  }

  func handle(value: Value, logger: Logger) async {
    await inner.handle(value: value, logger: logger)
  }
}
