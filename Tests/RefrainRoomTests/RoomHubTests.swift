import Foundation
import RefrainCore
import XCTest

@testable import RefrainRoom

/// The room server's hub without a network: what members are sent when they join, control,
/// chat and leave, on clocks the test moves.
final class RoomHubTests: XCTestCase {
  private typealias Inbox = HubFixture.Inbox
  private var fixture: HubFixture!
  private var folder: URL { fixture.folder }
  private var clocks: HubFixture.Clocks { fixture.clocks }

  override func setUpWithError() throws { fixture = try HubFixture() }

  override func tearDownWithError() throws { fixture.remove() }

  private func hub(hostOnly: Bool = false) throws -> RoomHub {
    try fixture.hub(store: RoomStore(), hostOnly: hostOnly)
  }

  func testJoiningSendsWelcomeMembersQueueStateAndHistoryInOrder() async throws {
    let hub = try hub()
    let first = Inbox()
    let id = await hub.join(roomName: "friday", name: "Mina", outbox: first.continuation)
    let events = await first.drain()
    guard events.count == 5, case .welcome(let welcome)? = events[0] else {
      return XCTFail("\(events)")
    }
    XCTAssertEqual(welcome.member, id)
    XCTAssertEqual(welcome.host, id)
    XCTAssertEqual(events[1], .members([RoomMember(id: id, name: "Mina", host: true)]))
    XCTAssertEqual(events[2], .queue(entries: [], current: nil))
    guard case .state(let state)? = events[3] else { return XCTFail("\(events)") }
    XCTAssertNil(state.entry)
    XCTAssertEqual(events[4], .history(track: nil, messages: []))
  }

  func testPlayStartsOnTheRoomClockAndPauseKeepsThePosition() async throws {
    let hub = try hub()
    let inbox = Inbox()
    let id = await hub.join(roomName: "r", name: "Mina", outbox: inbox.continuation)
    _ = await inbox.drain()
    await hub.handle(.queueAdd(path: "Night/a.mp3"), from: id)
    await hub.handle(.play(entry: nil), from: id)
    clocks.advance(2.5)
    await hub.handle(.pause, from: id)
    let states = await inbox.drain().compactMap { event -> RoomPlayback? in
      if case .state(let state)? = event { return state }
      return nil
    }
    XCTAssertEqual(states.count, 2, "\(states)")
    XCTAssertEqual(states[0].playing, true)
    XCTAssertEqual(states[0].path, "Night/a.mp3")
    XCTAssertEqual(states[0].at, 0, accuracy: 1e-6, "the room clock starts with the server")
    XCTAssertEqual(states[1].playing, false)
    XCTAssertEqual(states[1].position, 2.5, accuracy: 1e-6)
    XCTAssertEqual(states[1].at, 2_500, accuracy: 1e-6)
  }

  func testHostOnlyRoomsRefuseControlFromOthersButNotChat() async throws {
    let hub = try hub(hostOnly: true)
    let host = Inbox()
    let guest = Inbox()
    _ = await hub.join(roomName: "r", name: "Mina", outbox: host.continuation)
    let guestID = await hub.join(roomName: "r", name: "Jun", outbox: guest.continuation)
    _ = await guest.drain()
    await hub.handle(.queueAdd(path: "Night/a.mp3"), from: guestID)
    await hub.handle(.chat(text: "hi"), from: guestID)
    let events = await guest.drain()
    guard case .error(.notAllowed, let message, _)? = events.first else {
      return XCTFail("\(events)")
    }
    XCTAssertTrue(message.contains("Mina"), message)
    guard case .chat(let chat)? = events.last else { return XCTFail("\(events)") }
    XCTAssertEqual(chat.from, "Jun")
  }

  func testChatIsCleanedLimitedAndKeptPerTrack() async throws {
    let hub = try hub()
    let inbox = Inbox()
    let id = await hub.join(roomName: "r", name: "Mina", outbox: inbox.continuation)
    await hub.handle(.queueAdd(path: "Night/a.mp3"), from: id)
    await hub.handle(.play(entry: nil), from: id)
    _ = await inbox.drain()
    await hub.handle(.chat(text: "\u{1B}[2J\u{1B}]52;c;aGk=\u{07}look \u{9B}31mhere"), from: id)
    await hub.handle(.chat(text: "\u{1B}[0m"), from: id)
    await hub.handle(.chat(text: String(repeating: "x", count: 501)), from: id)
    for index in 0..<5 { await hub.handle(.chat(text: "m\(index)"), from: id) }
    var events = await inbox.drain()
    guard case .chat(let cleaned)? = events.first else { return XCTFail("\(events)") }
    XCTAssertEqual(cleaned.text, "look here")
    XCTAssertEqual(cleaned.track, "Night/a.mp3")
    XCTAssertEqual(cleaned.sentAt, 1_764_230_400)
    guard case .error(.empty, _, _)? = events[1], case .error(.tooLong, _, _)? = events[2] else {
      return XCTFail("\(events)")
    }
    // Four more were sent (five in all within the window), the fifth was refused.
    guard case .error(.rateLimited, _, let wait)? = events.last else { return XCTFail("\(events)") }
    XCTAssertEqual(wait, 5)
    // A member joining now sees the history of the track.
    let late = Inbox()
    _ = await hub.join(roomName: "r", name: "Jun", outbox: late.continuation)
    events = await late.drain()
    guard case .history(let track, let messages)? = events.last else { return XCTFail("\(events)") }
    XCTAssertEqual(track, "Night/a.mp3")
    XCTAssertEqual(messages.map(\.text), ["look here", "m0", "m1", "m2", "m3"])
  }

  func testAFileGoneFromTheLibraryIsSkippedWithANotice() async throws {
    let hub = try hub()
    let (id, inbox) = await fixture.join(hub, queuing: ["Night/a.mp3", "Night/b.mp3"])
    try FileManager.default.removeItem(at: folder.appendingPathComponent("Night/a.mp3"))
    _ = await inbox.drain()
    await hub.handle(.play(entry: nil), from: id)
    let events = await inbox.drain()
    XCTAssertTrue(events.contains(.notice("Alpha is gone from the library; skipped")), "\(events)")
    let state = events.compactMap { event -> RoomPlayback? in
      if case .state(let state)? = event { return state }
      return nil
    }.last
    XCTAssertEqual(state?.path, "Night/b.mp3")
  }

  func testTheLastMemberLeavingForgetsTheRoomButNotItsChat() async throws {
    let hub = try hub()
    let inbox = Inbox()
    let id = await hub.join(roomName: "r", name: "Mina", outbox: inbox.continuation)
    await hub.handle(.chat(text: "before anything plays"), from: id)
    await hub.leave(id)
    let again = Inbox()
    _ = await hub.join(roomName: "r", name: "Mina", outbox: again.continuation)
    let events = await again.drain()
    XCTAssertEqual(events[1], .members([RoomMember(id: "m2", name: "Mina", host: true)]))
    guard case .history(nil, let messages)? = events.last else { return XCTFail("\(events)") }
    XCTAssertEqual(messages.map(\.text), ["before anything plays"])
  }
}
