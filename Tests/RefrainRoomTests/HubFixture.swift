import Foundation
import RefrainCore

@testable import RefrainRoom

/// A library of two tracks (`Night/a.mp3` "Alpha", `Night/b.mp3` "Beta", 30 s each) in a
/// temporary folder, clocks the test moves, and hubs over them.
final class HubFixture {
  /// Clocks the test moves: monotonic seconds and Unix seconds, moved together.
  final class Clocks: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds = 50.0
    private var wall = 1_764_230_400.0
    var monotonic: Double { lock.withLock { seconds } }
    var wallClock: Double { lock.withLock { wall } }
    func advance(_ delta: Double) {
      lock.withLock {
        seconds += delta
        wall += delta
      }
    }
    /// A restart: the next process's monotonic clock has nothing to do with this one's.
    func restart(after delta: Double) {
      lock.withLock {
        seconds = 7
        wall += delta
      }
    }
  }

  /// What one member was sent.
  final class Inbox: @unchecked Sendable {
    let stream: AsyncStream<RoomHub.Outgoing>
    let continuation: AsyncStream<RoomHub.Outgoing>.Continuation
    private var iterator: AsyncStream<RoomHub.Outgoing>.Iterator

    init() {
      (stream, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
      iterator = stream.makeAsyncIterator()
    }

    /// Everything sent so far, as events (a close as nil).
    func drain() async -> [RoomEvent?] {
      continuation.yield(.text("{\"type\":\"__end\"}"))
      var events: [RoomEvent?] = []
      while let next = await iterator.next() {
        if case .text(let text) = next {
          if text == "{\"type\":\"__end\"}" { break }
          events.append(RoomEvent.parse(text))
        } else {
          events.append(nil)
        }
      }
      return events
    }

    /// The `state` messages sent so far.
    func states() async -> [RoomPlayback] {
      await drain().compactMap { event in
        if case .state(let state)? = event { return state }
        return nil
      }
    }

    /// The entry numbers of each `queue` message sent so far, in queue order.
    func queues() async -> [[Int]] {
      await drain().compactMap { event in
        if case .queue(let entries, _)? = event { return entries.map(\.entry) }
        return nil
      }
    }

    /// The `chat` messages sent so far.
    func chats() async -> [RoomChat] {
      await drain().compactMap { event in
        if case .chat(let message)? = event { return message }
        return nil
      }
    }
  }

  /// The log lines hubs wrote.
  final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var lines: [String] { lock.withLock { stored } }
    func append(_ line: String) { lock.withLock { stored.append(line) } }
  }

  let folder: URL
  let clocks = Clocks()
  let log = Log()

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "refrain-hub-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("Night"), withIntermediateDirectories: true)
    for name in ["Night/a.mp3", "Night/b.mp3"] {
      try Data([0xFF, 0xFB]).write(to: folder.appendingPathComponent(name))
    }
  }

  func remove() { try? FileManager.default.removeItem(at: folder) }

  /// Joins `name` to `room` of `hub` and queues `paths` as that member; its id and inbox.
  func join(
    _ hub: RoomHub, room: String = "r", name: String = "Mina", queuing paths: [String] = []
  ) async -> (id: String, inbox: Inbox) {
    let inbox = Inbox()
    let id = await hub.join(roomName: room, name: name, outbox: inbox.continuation)
    for path in paths { await hub.handle(.queueAdd(path: path), from: id) }
    return (id, inbox)
  }

  /// A hub over the library and `store`, on the fixture's clocks.
  func hub(store: RoomStore, hostOnly: Bool = false) -> RoomHub {
    let library = SharedLibrary(folders: [folder]) { path in
      ((path as NSString).lastPathComponent.hasPrefix("a") ? "Alpha" : "Beta", "Mina", nil, 30)
    }
    let clocks = self.clocks
    let log = self.log
    return RoomHub(
      library: library, store: store, options: .init(hostOnly: hostOnly, heartbeat: 60),
      monotonic: { clocks.monotonic }, wallClock: { clocks.wallClock }, log: { log.append($0) })
  }
}
