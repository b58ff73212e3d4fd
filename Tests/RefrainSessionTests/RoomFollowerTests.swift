import Foundation
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainSession

/// A room member's session follows the room: it plays the room's track at the room's
/// position, pauses and seeks with it, and corrects what it hears with a step or a seek.
final class RoomFollowerTests: XCTestCase {
  /// A monotonic clock the test moves (seconds).
  private final class Clock: @unchecked Sendable {
    var now = 100.0
  }

  private var player: FakePlayer!
  private var session: Session!
  private var clock: Clock!
  private var follower: RoomFollower!

  override func setUp() {
    player = FakePlayer()
    session = Session(player: player, lyricsLoader: { _ in .notFound(reasons: ["none"]) })
    clock = Clock()
    let clock = self.clock!
    follower = RoomFollower(
      session: session,
      trackURL: { URL(string: "http://127.0.0.1:7700/library/\($0)?token=t") },
      now: { clock.now })
  }

  private func receive(_ event: RoomEvent) -> [RoomFollower.Update] {
    follower.receive(line: event.json)
  }

  /// The room clock reads 5,000 ms when this process's clock reads 100 s.
  private func knowOffset() {
    _ = follower.receive(line: #"{"offset_ms":-95000,"rtt_ms":0.2,"type":"offset"}"#)
  }

  /// The room started entry 1 at room time 5,000 ms, which is now, and the member hears it.
  private func startPlayingTheRoomsTrack() {
    knowOffset()
    _ = receive(.queue(entries: [entry], current: 1))
    _ = receive(.state(playing(at: 0, roomTime: 5_000)))
    session.handlePlayerEvents([.started(session.playback.queue.current!, duration: 60)])
    player.setState(.playing)
  }

  private let entry = RoomQueueEntry(
    entry: 1,
    track: RoomLibraryTrack(path: "a.mp3", title: "A", artist: "B", album: nil, duration: 60),
    addedBy: "Mina")

  private func playing(at position: Double, roomTime: Double) -> RoomPlayback {
    RoomPlayback(
      entry: 1, path: "a.mp3", duration: 60, playing: true, position: position, at: roomTime)
  }

  func testNothingPlaysUntilTheOffsetIsKnownThenItStartsWhereTheRoomIs() {
    _ = receive(.queue(entries: [entry], current: 1))
    // The state says the track started at room time 2,000; the room clock is now 5,000.
    _ = receive(.state(playing(at: 0, roomTime: 2_000)))
    XCTAssertTrue(
      player.played.isEmpty, "without the offset the member cannot know where the room is")
    knowOffset()
    let plays = player.calls.compactMap { call -> (Track, Double)? in
      if case .play(let track, let start) = call { return (track, start) }
      return nil
    }
    guard let (track, start) = plays.first, plays.count == 1 else {
      return XCTFail("nothing played: \(player.calls)")
    }
    XCTAssertEqual(
      start, 3.0 + follower.startLead, accuracy: 1e-9,
      "joining mid-track starts at the right second, ahead by the time the start takes to be heard")
    XCTAssertEqual(track.location.absoluteString, "http://127.0.0.1:7700/library/a.mp3?token=t")
    XCTAssertEqual(track.title, "A")
  }

  func testASmallErrorIsSteppedALargeOneSeekedATinyOneLeft() {
    startPlayingTheRoomsTrack()
    // Past the settling time: the room is at 2.0 s.
    clock.now += 2.0
    player.position = 2.004
    XCTAssertEqual(follower.check(), [], "4 ms is within tolerance")
    player.position = 2.080
    let lead = follower.seekLead
    let stepped = follower.check()
    XCTAssertEqual(
      player.lastSeek ?? -1, 2.0 + lead, accuracy: 1e-9, "aimed where the room is when heard")
    guard case .corrected(let error, .step)? = stepped.first else { return XCTFail("\(stepped)") }
    XCTAssertEqual(error, 0.080, accuracy: 1e-9)
    // Within the settling time, nothing more is done.
    player.position = 9
    XCTAssertEqual(follower.check(), [])
    clock.now += RoomFollower.settleTime
    let seeked = follower.check()
    guard case .corrected(_, .seek(let target))? = seeked.first else { return XCTFail("\(seeked)") }
    XCTAssertEqual(target, 2.0 + RoomFollower.settleTime, accuracy: 1e-9)
  }

  func testTheSeekLeadLearnsHowLateASeekIsHeard() {
    startPlayingTheRoomsTrack()
    clock.now += 2.0
    player.position = 2.1
    _ = follower.check()
    let lead = follower.seekLead
    // The seek was heard 20 ms later than aimed: after settling, the member is 20 ms behind.
    clock.now += RoomFollower.settleTime
    player.position = 2.0 + RoomFollower.settleTime - 0.020
    let after = follower.check()
    XCTAssertEqual(follower.seekLead, lead + 0.020, accuracy: 1e-9)
    guard case .corrected(_, .step)? = after.first else { return XCTFail("\(after)") }
    XCTAssertEqual(
      player.lastSeek ?? -1, 2.0 + RoomFollower.settleTime + lead + 0.020, accuracy: 1e-9)
  }

  func testARoomSeekIsFollowedWithoutACorrectionReport() {
    startPlayingTheRoomsTrack()
    clock.now += 2.0
    player.position = 2.0
    let updates = receive(.state(playing(at: 40, roomTime: 7_000)))
    XCTAssertEqual(updates.count, 1, "only the state: \(updates)")
    XCTAssertEqual(player.lastSeek ?? -1, 40 + follower.seekLead, accuracy: 1e-9)
  }

  func testPauseAndSeekFromTheRoomReachThePlayer() {
    startPlayingTheRoomsTrack()
    clock.now += 1
    _ = receive(
      .state(
        RoomPlayback(entry: 1, path: "a.mp3", duration: 60, playing: false, position: 1, at: 6_000))
    )
    XCTAssertEqual(
      Array(player.calls.suffix(2)), [.pause, .seek(1)], "paused where the room paused")
    _ = receive(
      .state(
        RoomPlayback(entry: 1, path: "a.mp3", duration: 60, playing: false, position: 30, at: 6_500)
      ))
    XCTAssertEqual(player.lastSeek, 30)
    _ = receive(.state(.stopped(at: 7_000)))
    XCTAssertEqual(player.calls.last, .stop)
  }

  func testChatHistoryAndMembersAreKeptForTheCurrentTrack() {
    knowOffset()
    _ = receive(.state(playing(at: 0, roomTime: 5_000)))
    let old = RoomChat(id: 1, track: "a.mp3", from: "Mina", member: "m1", text: "first", sentAt: 0)
    _ = receive(.history(track: "a.mp3", messages: [old]))
    let new = RoomChat(id: 2, track: "a.mp3", from: "Jun", member: "m2", text: "second", sentAt: 0)
    let elsewhere = RoomChat(
      id: 3, track: "b.mp3", from: "Jun", member: "m2", text: "other", sentAt: 0)
    XCTAssertEqual(receive(.chat(new)), [.chat(new)])
    _ = receive(.chat(elsewhere))
    XCTAssertEqual(follower.chat.map(\.text), ["first", "second"])
    let members = [RoomMember(id: "m1", name: "Mina", host: true)]
    XCTAssertEqual(receive(.members(members)), [.members(members)])
  }

  func testLosingTheLinkKeepsPlayingAndForgetsTheOffset() {
    knowOffset()
    _ = receive(.queue(entries: [entry], current: 1))
    _ = receive(.state(playing(at: 0, roomTime: 5_000)))
    player.setState(.playing)
    let updates = follower.receive(
      line:
        #"{"reason":"room lost: cannot reach the room server","retry_in":0.5,"state":"lost","type":"link"}"#
    )
    XCTAssertEqual(
      updates, [.link(state: .lost, reason: "room lost: cannot reach the room server")])
    XCTAssertNil(follower.offset)
    XCTAssertEqual(player.state, .playing, "the member plays on")
    XCTAssertFalse(player.calls.contains(.stop))
  }

  func testWhileTheRoomIsLostTheFollowerKnowsWhenTheLinkTriesAgain() {
    XCTAssertNil(follower.reconnectIn)
    _ = follower.receive(
      line: #"{"reason":"cannot reach the room server","retry_in":4,"state":"lost","type":"link"}"#)
    XCTAssertFalse(follower.connected)
    clock.now += 1
    XCTAssertEqual(follower.reconnectIn ?? -1, 3, accuracy: 1e-9)
    clock.now += 10
    XCTAssertEqual(follower.reconnectIn, 0)
    _ = follower.receive(line: #"{"state":"connected","type":"link"}"#)
    XCTAssertTrue(follower.connected)
    XCTAssertNil(follower.reconnectIn)
  }

  func testARequestDroppedDuringAnOutageIsOneErrorLine() {
    let updates = receive(
      .error(
        code: .unreachable,
        message: "the room is unreachable: \"next\" was not sent (reconnecting in 3 s)",
        retryAfter: 3))
    XCTAssertEqual(updates.count, 1)
    XCTAssertEqual(updates.first?.statusLine?.isError, true)
    XCTAssertEqual(
      updates.first?.statusLine?.text,
      "the room is unreachable: \"next\" was not sent (reconnecting in 3 s)")
  }

  func testARequestAnOlderServerDoesNotKnowIsRefusedInOneLine() {
    let updates = receive(
      .error(code: .unknownType, message: "no message of type \"queue_move\"", retryAfter: nil))
    guard case .error(.unknownType, let message)? = updates.first else {
      return XCTFail("\(updates)")
    }
    XCTAssertFalse(message.contains("\n"))
    XCTAssertEqual(
      message,
      "the room server does not know that request (an older server?): no message of type \"queue_move\""
    )
  }
}
