import Foundation
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainSession

/// In a listening room the room decides what plays, from every front end: transport becomes
/// a request to the room, a track the room can play is queued there and played for everyone,
/// and any other track is refused with the reason while the member keeps hearing the room.
final class SessionRoomPolicyTests: XCTestCase {
  /// A room link that records what the session asked of it.
  private final class FakeRoom: RoomChannel {
    let name = "den"
    let follower: RoomFollower
    var sent: [RoomRequest] = []
    var lines: [String] = []
    var stopped = false

    init(session: Session) {
      follower = RoomFollower(
        session: session,
        trackURL: { URL(string: "http://127.0.0.1:7700/library/\($0)?token=t") },
        now: { 100 })
    }

    var wakeFileDescriptor: Int32 { -1 }
    func readLines() -> [String] {
      defer { lines = [] }
      return lines
    }
    func send(_ request: RoomRequest) { sent.append(request) }
    func stop() { stopped = true }
  }

  private var player: FakePlayer!
  private var session: Session!
  private var room: FakeRoom!

  private let tide = RoomLibraryTrack(
    path: "Sea/tide.mp3", title: "Tide", artist: "Mina", album: nil, duration: 30)

  override func setUp() {
    player = FakePlayer()
    session = Session(player: player, lyricsLoader: { _ in .notFound(reasons: ["none"]) })
    room = FakeRoom(session: session)
    session.room = room
    _ = room.follower.receive(line: #"{"type":"link","state":"connected"}"#)
  }

  /// What the member's own player was told to do (play, pause, seek, stop, resume).
  private var moves: [FakePlayer.Call] {
    player.calls.filter {
      switch $0 {
      case .setVolume, .prepareNext: return false
      default: return true
      }
    }
  }

  /// The room's news arrives as the link would write it.
  private func arrive(_ events: RoomEvent...) {
    room.lines = events.map(\.json)
    _ = session.readRoom()
  }

  func testTransportFromAnyCommandGoesToTheRoomNotThePlayer() {
    let cafe = RoomLibraryTrack(
      path: "cafe.mp3", title: "Cafe", artist: nil, album: nil, duration: 20)
    arrive(
      .queue(
        entries: [
          RoomQueueEntry(entry: 1, track: tide, addedBy: "Mina"),
          RoomQueueEntry(entry: 2, track: cafe, addedBy: "Jun"),
        ], current: 1))
    for command: Command in [.togglePlay, .pause, .next, .seek(.absolute(12)), .play] {
      XCTAssertEqual(session.execute(command), .done(message: nil), "\(command)")
    }
    XCTAssertEqual(
      room.sent, [.play(entry: nil), .pause, .next, .seek(position: 12), .play(entry: nil)])
    XCTAssertTrue(moves.isEmpty, "the member's player was driven directly: \(moves)")
  }

  func testJoiningAsksForTheLibraryAndAQueuedEntryIsPlayedForEveryone() {
    arrive(
      .welcome(
        RoomWelcome(
          room: "den", member: "m1", hostOnly: false, host: nil, heartbeatSeconds: 15,
          clock: 0)))
    XCTAssertEqual(room.sent, [.library])
    arrive(.library([tide]))

    // A local file whose path ends with the room's path: queued in the room, then played.
    let file = Track(argument: "/home/mina/Music/Sea/tide.mp3")
    guard case .done(let message?) = session.execute(.playTracks(Command.TrackList([file]))) else {
      return XCTFail("the room's track was refused")
    }
    XCTAssertTrue(message.contains("room's queue"), message)
    XCTAssertEqual(room.sent.last, .queueAdd(path: "Sea/tide.mp3"))
    let entry = RoomQueueEntry(entry: 7, track: tide, addedBy: "Mina")
    arrive(.queue(entries: [entry], current: nil))
    XCTAssertEqual(room.sent.last, .play(entry: 7))
    XCTAssertTrue(moves.isEmpty, "played locally: \(moves)")
  }

  func testATrackTheRoomCannotPlayIsRefusedWithTheWayOut() {
    arrive(.library([tide]))
    var demo = Track(argument: "/opt/refrain/demo/song.mp3")
    demo.provider = "demo"
    guard case .failed(let reason) = session.execute(.playTracks(Command.TrackList([demo]))) else {
      return XCTFail("a demo track was played in a room")
    }
    XCTAssertTrue(reason.contains("demo track"), reason)
    XCTAssertTrue(reason.contains(":room leave"), reason)
    XCTAssertTrue(room.sent.filter { $0 != .library }.isEmpty, "\(room.sent)")
    XCTAssertTrue(moves.isEmpty, "played locally: \(moves)")
  }

  func testLeavingEndsTheLinkAndGivesThePlayerBack() {
    XCTAssertEqual(session.execute(.room(.leave)), .done(message: "left room den"))
    XCTAssertTrue(room.stopped)
    XCTAssertNil(session.room)
    XCTAssertEqual(session.execute(.room(.leave)), .failed("not in a listening room"))
    _ = session.execute(.togglePlay)
    XCTAssertTrue(room.sent.isEmpty, "a command reached the room after leaving: \(room.sent)")
  }

  // MARK: - The room's queue is the queue

  private func twoEntries(current: Int?) {
    let cafe = RoomLibraryTrack(
      path: "cafe.mp3", title: "Cafe", artist: nil, album: nil, duration: 20)
    arrive(
      .queue(
        entries: [
          RoomQueueEntry(entry: 4, track: tide, addedBy: "Mina"),
          RoomQueueEntry(entry: 9, track: cafe, addedBy: "Jun"),
        ], current: current))
  }

  func testTheQueueEveryFrontEndShowsIsTheRooms() {
    twoEntries(current: 4)
    let queue = session.queue
    XCTAssertEqual(queue.room, "den")
    XCTAssertEqual(queue.entries.map(\.track.title), ["Tide", "Cafe"])
    XCTAssertEqual(queue.entries.map(\.roomEntry), [4, 9])
    XCTAssertEqual(queue.currentIndex, 0)
    XCTAssertTrue(queue.hasNext, "MPRIS CanGoNext comes from here")
    XCTAssertEqual(
      queue.entries[1].track.location.absoluteString,
      "http://127.0.0.1:7700/library/cafe.mp3?token=t")
    twoEntries(current: 9)
    XCTAssertFalse(session.queue.hasNext)
  }

  func testQueueEditsByPositionAreTheRoomsForEveryone() {
    twoEntries(current: 4)
    XCTAssertEqual(
      session.execute(.queueRemove(2)), .done(message: "removed Cafe from the room's queue"))
    XCTAssertEqual(session.execute(.queueMove(from: 2, to: 1)), .done(message: nil))
    XCTAssertEqual(session.execute(.queuePlay(2)), .done(message: nil))
    XCTAssertEqual(
      session.execute(.queueRemove(3)), .failed("no entry 3 in the room's queue (it has 2)"))
    XCTAssertEqual(
      room.sent, [.queueRemove(entry: 9), .queueMove(entry: 9, to: 0), .play(entry: 9)])
    XCTAssertTrue(moves.isEmpty, "the member's own queue was edited: \(moves)")
  }

  func testNextOnTheRoomsLastEntryIsRefusedAndNothingIsSent() {
    twoEntries(current: 9)
    XCTAssertEqual(session.execute(.next), .failed("this is the last entry in the room's queue"))
    XCTAssertTrue(room.sent.isEmpty, "\(room.sent)")
  }

  func testWhileTheRoomIsUnreachableNothingIsSentOrKeptForLater() {
    twoEntries(current: 4)
    _ = room.follower.receive(
      line: #"{"type":"link","state":"lost","reason":"connection refused"}"#)
    for command: Command in [.seek(.relative(10)), .next, .chat("still there?"), .queueRemove(1)] {
      guard case .failed(let reason) = session.execute(command) else {
        return XCTFail("\(command) answered as if the room had it")
      }
      XCTAssertTrue(reason.hasPrefix("the room is unreachable"), reason)
    }
    _ = room.follower.receive(line: #"{"type":"link","state":"connected"}"#)
    XCTAssertTrue(room.sent.isEmpty, "a command was kept and sent later: \(room.sent)")
    XCTAssertEqual(session.execute(.pause), .done(message: nil))
    XCTAssertEqual(room.sent, [.pause])
  }

  func testJoiningFromARunningPlayerAndAgainAfterLeaving() {
    XCTAssertEqual(session.execute(.room(.leave)), .done(message: "left room den"))
    XCTAssertEqual(
      session.execute(.room(.join(url: "ws://127.0.0.1:7700/rooms/den"))),
      .failed("joining a room works in the full-screen player and `refrain room join`"))
    var asked: [String] = []
    session.roomJoiner = { [unowned self] url in
      asked.append(url)
      return FakeRoom(session: session)
    }
    XCTAssertEqual(
      session.execute(.room(.join(url: "ws://127.0.0.1:7700/rooms/den"))),
      .done(message: "joining room den…"))
    XCTAssertEqual(asked, ["ws://127.0.0.1:7700/rooms/den"])
    XCTAssertNotNil(session.room)
    XCTAssertEqual(
      session.execute(.room(.join(url: "ws://127.0.0.1:7700/rooms/den"))),
      .failed("already in room den: room leave first"))
  }

  func testChatNeedsARoom() {
    XCTAssertEqual(session.execute(.chat("hello")), .done(message: nil))
    XCTAssertEqual(room.sent, [.chat(text: "hello")])
    _ = session.execute(.room(.leave))
    XCTAssertEqual(session.execute(.chat("hello")), .failed("not in a listening room"))
  }

  func testStatusCarriesTheRoomAndNoSyncFigureWhileNotFollowing() {
    let status = session.status()
    XCTAssertEqual(status.room?.name, "den")
    XCTAssertNil(status.room?.syncErrorMs)
  }
}

/// A track queued by its path is described by its tags before it is queued, off the
/// session's thread, and adds keep their order.
final class SessionTrackDescriptionTests: XCTestCase {
  func testAFileQueuedByPathCarriesItsTagsInTheOrderAdded() {
    let player = FakePlayer()
    let session = Session(player: player, lyricsLoader: { _ in .notFound(reasons: ["none"]) })
    session.describe = { track in
      var described = track
      described.title = "Title of " + track.location.lastPathComponent
      described.artist = "The Tagged"
      return described
    }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-describe-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for name in ["a.mp3", "b.mp3"] {
      FileManager.default.createFile(
        atPath: folder.appendingPathComponent(name).path, contents: Data())
    }
    let added = expectation(description: "both added")
    added.expectedFulfillmentCount = 2
    session.queueCommands.add(folder.appendingPathComponent("a.mp3").path, playing: false) { _ in
      added.fulfill()
    }
    session.queueCommands.add(folder.appendingPathComponent("b.mp3").path, playing: false) { _ in
      added.fulfill()
    }
    let deadline = Date().addingTimeInterval(5)
    while session.playback.queue.count < 2, Date() < deadline {
      RunLoop.current.run(until: Date().addingTimeInterval(0.01))
      session.drainInbox()
    }
    wait(for: [added], timeout: 1)
    XCTAssertEqual(
      session.playback.queue.tracks.map(\.title), ["Title of a.mp3", "Title of b.mp3"])
    XCTAssertEqual(session.playback.queue.tracks.map(\.artist), ["The Tagged", "The Tagged"])
  }
}
