import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// Refuses a WebSocket upgrade without the token (401) or to a room that cannot exist
/// (404), with a one-line reason, before Hummingbird sees it.
///
/// Hummingbird answers every refused upgrade with a bare 400; members need to tell a wrong
/// token from a wrong address. The gate reads the first request's head (request line and
/// headers, up to 16 KiB), answers refused upgrades itself and closes the connection, and
/// passes everything else on unchanged before leaving the pipeline.
final class UpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer

  /// What to answer an upgrade of `path` with `authorization`: a status and a reason, or
  /// `nil` to let it through.
  typealias Decision =
    @Sendable (_ path: String, _ authorization: String?) -> (
      status: Int, reason: String
    )?

  private let decide: Decision
  private var buffered: ByteBuffer?
  private static let headLimit = 16_384

  init(decide: @escaping Decision) { self.decide = decide }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    var incoming = unwrapInboundIn(data)
    if buffered == nil {
      buffered = incoming
    } else {
      buffered!.writeBuffer(&incoming)
    }
    let bytes = Array(buffered!.readableBytesView)
    guard let end = Self.headEnd(bytes) else {
      if bytes.count > Self.headLimit { pass(context: context) }
      return
    }
    let head = String(decoding: bytes[..<end], as: UTF8.self)
    if let (path, authorization) = Self.upgrade(head), let refusal = decide(path, authorization) {
      refuse(context: context, status: refusal.status, reason: refusal.reason)
      return
    }
    pass(context: context)
  }

  /// Hands what was read to the HTTP handlers and leaves.
  private func pass(context: ChannelHandlerContext) {
    if let buffered { context.fireChannelRead(wrapInboundOut(buffered)) }
    buffered = nil
    context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
  }

  private func refuse(context: ChannelHandlerContext, status: Int, reason: String) {
    buffered = nil
    let phrase = status == 401 ? "Unauthorized" : "Not Found"
    let body = reason + "\n"
    let response =
      "HTTP/1.1 \(status) \(phrase)\r\nContent-Type: text/plain; charset=utf-8\r\n"
      + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
    let buffer = context.channel.allocator.buffer(string: response)
    context.writeAndFlush(NIOAny(buffer)).whenComplete { _ in context.close(promise: nil) }
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

  /// The path and `Authorization` header of a WebSocket upgrade request; `nil` for any
  /// other request.
  private static func upgrade(_ head: String) -> (String, String?)? {
    let lines = head.split(separator: "\r\n", omittingEmptySubsequences: true)
    guard let requestLine = lines.first else { return nil }
    let parts = requestLine.split(separator: " ")
    guard parts.count >= 2 else { return nil }
    var isUpgrade = false
    var authorization: String?
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      if name == "upgrade", value.lowercased() == "websocket" { isUpgrade = true }
      if name == "authorization" { authorization = value }
    }
    return isUpgrade ? (String(parts[1]), authorization) : nil
  }
}

/// Hummingbird's HTTP/1 + WebSocket child channel with an ``UpgradeGate`` in front.
struct GatedUpgradeChannel: ServerChildChannel {
  typealias Value = HTTP1WebSocketUpgradeChannel.Value

  let inner: HTTP1WebSocketUpgradeChannel
  let decide: UpgradeGate.Decision

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    do {
      try channel.pipeline.syncOperations.addHandler(UpgradeGate(decide: decide))
    } catch {
      return channel.eventLoop.makeFailedFuture(error)
    }
    return inner.setup(channel: channel, logger: logger)
  }

  func handle(value: Value, logger: Logger) async {
    await inner.handle(value: value, logger: logger)
  }
}
