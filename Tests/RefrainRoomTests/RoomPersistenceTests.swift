import Foundation
import GRDB
import RefrainCore
import XCTest

@testable import RefrainRoom

/// A room's queue and playback saved in the server's SQLite file, and brought back by the
/// next run of the server as they would be had it kept running.
final class RoomPersistenceTests: XCTestCase {
  private typealias Inbox = HubFixture.Inbox
  private var fixture: HubFixture!
  private var database: URL { fixture.folder.appendingPathComponent("data/rooms.sqlite") }

  override func setUpWithError() throws { fixture = try HubFixture() }

  override func tearDownWithError() throws { fixture.remove() }

  /// A hub as a new run of the server makes it: a new store on the same file.
  private func server() throws -> RoomHub { fixture.hub(store: try RoomStore(url: database)) }

  private func entry(_ number: Int, _ path: String) -> RoomQueueEntry {
    RoomQueueEntry(
      entry: number,
      track: RoomLibraryTrack(path: path, title: path, artist: nil, album: nil, duration: 30),
      addedBy: "Mina")
  }

  /// Writes `text` as the saved state of `room`, behind the store's back.
  private func saveRaw(_ text: String, room: String) throws {
    _ = try RoomStore(url: database)
    let queue = try DatabaseQueue(path: database.path)
    try queue.write { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO room_state (room, state) VALUES (?, ?)",
        arguments: [room, text])
    }
  }

  // MARK: - The store

  func testASavedRoomReadsBackFromTheFileAfterReopening() throws {
    let saved = SavedRoom(
      queue: [entry(3, "Night/a.mp3"), entry(5, "Night/b.mp3")], nextEntry: 6, entry: 5,
      playing: false, position: 12.25, savedAt: 1_764_230_400.5)
    try RoomStore(url: database).save(saved, room: "friday")
    let reopened = try RoomStore(url: database)
    XCTAssertEqual(try reopened.load(room: "friday"), saved)
    XCTAssertNil(try reopened.load(room: "monday"))
  }

  func testACorruptSavedStateIsAnErrorThatNamesTheRoom() throws {
    try saveRaw(#"{"queue":7"#, room: "friday")
    XCTAssertThrowsError(try RoomStore(url: database).load(room: "friday")) { error in
      XCTAssertTrue("\(error)".contains("room friday"), "\(error)")
      XCTAssertTrue("\(error)".contains("starts empty"), "\(error)")
    }
  }

  func testAFileThatIsNotADatabaseIsSetAsideAndTheServerStartsEmpty() throws {
    try FileManager.default.createDirectory(
      at: database.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(String(repeating: "not sqlite at all ", count: 64).utf8).write(to: database)
    var lines: [String] = []
    let store = try RoomStore.open(url: database) { lines.append($0) }
    XCTAssertNil(try store.load(room: "friday"))
    XCTAssertEqual(lines.count, 1, "\(lines)")
    XCTAssertTrue(lines.first?.contains("set aside as rooms.sqlite.broken-") == true, "\(lines)")
    let kept = try FileManager.default.contentsOfDirectory(
      atPath: database.deletingLastPathComponent().path)
    XCTAssertTrue(kept.contains { $0.hasPrefix("rooms.sqlite.broken-") }, "\(kept)")
  }

  // MARK: - Resuming

  func testAPlayingRoomMovesOnByTheTimeItWasAwayAndPastEntriesThatEnded() {
    let saved = SavedRoom(
      queue: [entry(1, "a"), entry(2, "b")], nextEntry: 3, entry: 1, playing: true,
      position: 10, savedAt: 1000)
    let soon = saved.resumed(at: 1004)
    XCTAssertEqual(soon.entry, 1)
    XCTAssertEqual(soon.position, 14, accuracy: 1e-9)
    let later = saved.resumed(at: 1025)
    XCTAssertEqual(later.entry, 2)
    XCTAssertEqual(later.position, 5, accuracy: 1e-9)
    let done = saved.resumed(at: 1100)
    XCTAssertNil(done.entry)
    XCTAssertFalse(done.playing)
    XCTAssertEqual(done.queue.count, 2, "the queue stays when the room stops")
    XCTAssertEqual(saved.resumed(at: 900).position, 10, "a clock that went back: no time passed")
  }

  func testAPausedRoomStaysWhereItWas() {
    let saved = SavedRoom(
      queue: [entry(1, "a")], nextEntry: 2, entry: 1, playing: false, position: 10, savedAt: 1000)
    XCTAssertEqual(saved.resumed(at: 5000).position, 10)
    XCTAssertEqual(saved.resumed(at: 5000).entry, 1)
  }

  // MARK: - A restarted server

  func testARestartedServerBringsBackTheQueueTheTrackAndThePosition() async throws {
    let first = try server()
    let (id, _) = await fixture.join(
      first, room: "friday", queuing: ["Night/a.mp3", "Night/b.mp3"])
    await first.handle(.play(entry: 2), from: id)
    fixture.clocks.advance(4)
    // Killed: no one leaves. The next run starts 3 s later on a new monotonic clock.
    fixture.clocks.restart(after: 3)
    let second = try server()
    let again = Inbox()
    let next = await second.join(roomName: "friday", name: "Jun", outbox: again.continuation)
    let events = await again.drain()
    guard case .queue(let entries, let current)? = events[2], case .state(let state)? = events[3]
    else { return XCTFail("\(events)") }
    XCTAssertEqual(entries.map(\.entry), [1, 2])
    XCTAssertEqual(current, 2)
    XCTAssertEqual(state.path, "Night/b.mp3")
    XCTAssertTrue(state.playing)
    XCTAssertEqual(state.position(atRoomClock: state.at), 7, accuracy: 0.01)
    guard case .history(let track, _)? = events[4] else { return XCTFail("\(events)") }
    XCTAssertEqual(track, "Night/b.mp3")
    // Entry numbers go on from where they were.
    await second.handle(.queueAdd(path: "Night/a.mp3"), from: next)
    let added = await again.queues()
    XCTAssertEqual(added.last, [1, 2, 3])
    XCTAssertTrue(fixture.log.lines.contains { $0.contains("room friday restored") })
  }

  func testAPausedRoomComesBackPausedWhereItWas() async throws {
    let first = try server()
    let (id, _) = await fixture.join(first, room: "friday", queuing: ["Night/a.mp3"])
    await first.handle(.play(entry: nil), from: id)
    fixture.clocks.advance(2.5)
    await first.handle(.pause, from: id)
    fixture.clocks.restart(after: 60)
    let again = Inbox()
    _ = try await server().join(roomName: "friday", name: "Jun", outbox: again.continuation)
    let state = await again.states().last
    XCTAssertEqual(state?.playing, false)
    XCTAssertEqual(state?.entry, 1)
    XCTAssertEqual(state?.position ?? 0, 2.5, accuracy: 1e-6)
  }

  func testACorruptStateIsALogLineAndAnEmptyRoom() async throws {
    try saveRaw("garbage", room: "friday")
    let inbox = Inbox()
    _ = try await server().join(roomName: "friday", name: "Mina", outbox: inbox.continuation)
    let events = await inbox.drain()
    XCTAssertEqual(events[2], .queue(entries: [], current: nil))
    XCTAssertTrue(
      fixture.log.lines.contains { $0.contains("room friday") && $0.contains("starts empty") },
      "\(fixture.log.lines)")
  }

  // MARK: - Moving an entry

  func testMovingAnEntryReordersTheQueueForEveryone() async throws {
    let hub = try server()
    let (_, jun) = await fixture.join(hub, name: "Jun")
    let (id, mina) = await fixture.join(
      hub, queuing: ["Night/a.mp3", "Night/b.mp3", "Night/a.mp3"])
    _ = await jun.drain()
    await hub.handle(.queueMove(entry: 3, to: 0), from: id)
    await hub.handle(.queueMove(entry: 1, to: 99), from: id)
    await hub.handle(.queueMove(entry: 42, to: 0), from: id)
    let seen = await jun.drain()
    XCTAssertEqual(
      seen.compactMap { event -> [Int]? in
        if case .queue(let entries, _)? = event { return entries.map(\.entry) }
        return nil
      }, [[3, 1, 2], [3, 2, 1]])
    XCTAssertTrue(seen.contains(.notice("Mina moved Alpha to place 1")), "\(seen)")
    let refused = await mina.drain().compactMap { event -> RoomErrorCode? in
      if case .error(let code, _, _)? = event { return code }
      return nil
    }
    XCTAssertEqual(refused, [.notFound])
    // The new order is saved.
    XCTAssertEqual(try RoomStore(url: database).load(room: "r")?.queue.map(\.entry), [3, 2, 1])
  }

  // MARK: - Chat

  func testChatAfterARestartIsStoredWithThePlayingTrack() async throws {
    let first = try server()
    let (id, _) = await fixture.join(first, room: "friday", queuing: ["Night/b.mp3"])
    await first.handle(.play(entry: nil), from: id)
    fixture.clocks.restart(after: 2)
    let second = try server()
    let again = Inbox()
    let jun = await second.join(roomName: "friday", name: "Jun", outbox: again.continuation)
    await second.handle(.chat(text: "still here"), from: jun)
    let chat = await again.chats()
    XCTAssertEqual(chat.map(\.track), ["Night/b.mp3"])
    let stored = try RoomStore(url: database).history(room: "friday", track: "Night/b.mp3")
    XCTAssertEqual(stored.map(\.text), ["still here"])
  }

  func testChatJustAfterATrackEndedIsAboutTheNextTrack() async throws {
    let hub = try server()
    let (id, inbox) = await fixture.join(hub, queuing: ["Night/a.mp3", "Night/b.mp3"])
    await hub.handle(.play(entry: nil), from: id)
    // Past the end of the first track on the room clock, before its timer could fire.
    fixture.clocks.advance(30.5)
    await hub.handle(.chat(text: "next one"), from: id)
    let chat = await inbox.chats()
    XCTAssertEqual(chat.map(\.track), ["Night/b.mp3"])
  }
}
