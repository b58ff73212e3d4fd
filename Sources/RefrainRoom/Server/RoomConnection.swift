import Foundation
import HummingbirdWebSocket
import NIOWebSocket
import RefrainCore

/// One member's WebSocket: reads its frames into the hub and writes the hub's messages from
/// its outbox, on its own, so a slow member never holds up the room.
struct RoomConnection: Sendable {
  let room: String
  let hub: RoomHub
  let monotonic: @Sendable () -> Double

  /// Messages waiting for a member that is not reading; one more and the member is dropped.
  static let outboxLimit = 1024

  /// Serves the connection until it closes.
  func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
    let (outbox, continuation) = AsyncStream<RoomHub.Outgoing>.makeStream(
      bufferingPolicy: .bufferingNewest(Self.outboxLimit))
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for await outgoing in outbox {
          switch outgoing {
          case .text(let text):
            do { try await outbound.write(.text(text)) } catch { return }
          case .close(let code, let reason):
            try? await outbound.close(.init(codeNumber: Int(code)), reason: reason)
            return
          }
        }
      }
      // No hello within the limit: the connection is closed.
      let helloTimer = Task {
        try? await Task.sleep(nanoseconds: UInt64(RoomProtocol.helloTimeout * 1e9))
        guard !Task.isCancelled else { return }
        continuation.yield(
          .close(code: 1008, reason: "no hello within \(Int(RoomProtocol.helloTimeout)) s"))
      }
      let member = await read(inbound, continuation: continuation, helloTimer: helloTimer)
      helloTimer.cancel()
      if let member { await hub.leave(member) }
      // The writer sends what is left (a close frame, say), then ends with the outbox.
      continuation.finish()
    }
  }

  /// Reads frames until the connection ends; returns the member id once joined.
  private func read(
    _ inbound: WebSocketInboundStream, continuation: AsyncStream<RoomHub.Outgoing>.Continuation,
    helloTimer: Task<Void, Never>
  ) async -> String? {
    var member: String?
    var flood = RateWindow(limit: RoomProtocol.floodFrames, window: RoomProtocol.floodWindow)
    do {
      for try await message in inbound.messages(maxSize: RoomProtocol.maxFrameBytes) {
        if flood.admit(at: monotonic()) != nil {
          continuation.yield(
            .close(
              code: 1008,
              reason:
                "more than \(RoomProtocol.floodFrames) messages in \(Int(RoomProtocol.floodWindow)) s"
            ))
          break
        }
        guard case .text(let text) = message else {
          continuation.yield(
            .text(
              RoomEvent.error(
                code: .binary, message: "messages are JSON text frames", retryAfter: nil
              ).json))
          continue
        }
        let request: RoomRequest
        do {
          request = try RoomRequest.parse(text)
        } catch {
          if let member {
            await hub.reject(error, from: member)
          } else {
            continuation.yield(.text(Self.errorText(error)))
          }
          continue
        }
        if let member {
          await hub.handle(request, from: member)
          continue
        }
        guard case .hello(let version, let name) = request else {
          continuation.yield(
            .text(
              RoomEvent.error(code: .protocol, message: "say hello first", retryAfter: nil).json))
          continue
        }
        guard RoomProtocol.speaks(version) else {
          let spoken = "\(RoomProtocol.oldestVersion) to \(RoomProtocol.version)"
          continuation.yield(
            .text(
              RoomEvent.error(
                code: .protocol,
                message: "this server speaks protocol \(spoken), not \(version)",
                retryAfter: nil
              ).json))
          continuation.yield(.close(code: 1002, reason: "protocol \(spoken) only"))
          break
        }
        guard let cleaned = RoomProtocol.cleanName(name) else {
          continuation.yield(
            .text(
              RoomEvent.error(
                code: .malformed, message: "a name needs a visible character", retryAfter: nil
              )
              .json))
          continue
        }
        helloTimer.cancel()
        member = await hub.join(
          roomName: room, name: cleaned, protocolVersion: version, outbox: continuation)
      }
    } catch {
      // The connection failed or was closed for a protocol error (a frame too big: 1009).
    }
    return member
  }

  private static func errorText(_ error: RoomRequest.ParseError) -> String {
    switch error {
    case .malformed(let reason):
      return RoomEvent.error(code: .malformed, message: reason, retryAfter: nil).json
    case .unknownType(let reason):
      return RoomEvent.error(code: .unknownType, message: reason, retryAfter: nil).json
    }
  }
}
