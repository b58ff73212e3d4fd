import Foundation
import RefrainCore
import XCTest

@testable import RefrainRoom

/// Every message of the room protocol, and every line the link adds, written with `Codable`
/// and read back as it was.
final class RoomMessageCodingTests: XCTestCase {
  private let track = RoomLibraryTrack(
    path: "Night Walks/01 Umbrella.mp3", title: "Umbrella", artist: "Mina", album: "Night Walks",
    duration: 212.4,
    replayGain: ReplayGain(trackGain: -6.2, trackPeak: 0.98, albumGain: nil, albumPeak: nil))

  func testEveryRequestReadsBackFromItsJSON() throws {
    let requests: [RoomRequest] = [
      .hello(protocolVersion: 2, name: "Mina"), .time(id: 7, t0: 81234.5), .alive, .library,
      .queueAdd(path: "Night Walks/01 Umbrella.mp3"), .queueRemove(entry: 4),
      .queueMove(entry: 4, to: 0), .play(entry: nil), .play(entry: 3), .pause,
      .seek(position: 10.25), .next, .chat(text: "this \"bridge\"!\n"),
    ]
    for request in requests {
      XCTAssertEqual(try RoomRequest.parse(request.json), request, request.json)
    }
  }

  func testRequestsKeepTheirWireShape() {
    XCTAssertEqual(
      RoomRequest.queueMove(entry: 4, to: 1).json, #"{"entry":4,"to":1,"type":"queue_move"}"#)
    XCTAssertEqual(RoomRequest.play(entry: nil).json, #"{"type":"play"}"#)
    XCTAssertEqual(
      RoomRequest.hello(protocolVersion: 1, name: "Mina").json,
      #"{"name":"Mina","protocol":1,"type":"hello"}"#)
    XCTAssertEqual(
      RoomRequest.queueAdd(path: "a/b.mp3").json, #"{"path":"a/b.mp3","type":"queue_add"}"#)
  }

  func testAMoveWithoutATargetOrWithANegativeOneIsMalformed() {
    for text in [#"{"type":"queue_move","entry":4}"#, #"{"type":"queue_move","entry":4,"to":-1}"#] {
      XCTAssertThrowsError(try RoomRequest.parse(text)) { error in
        guard case .malformed = error as? RoomRequest.ParseError else {
          return XCTFail("\(error)")
        }
      }
    }
  }

  func testEveryEventReadsBackFromItsJSON() {
    let entry = RoomQueueEntry(entry: 4, track: track, addedBy: "Jun")
    let chat = RoomChat(
      id: 118, track: track.path, from: "Jun", member: "m3", text: "this bridge!",
      sentAt: 1_764_230_400)
    let events: [RoomEvent] = [
      .welcome(
        RoomWelcome(
          room: "friday", member: "m3", hostOnly: false, host: "m1", heartbeatSeconds: 5,
          clock: 1523.25, protocolVersion: 1)),
      .members([RoomMember(id: "m1", name: "Mina", host: true)]),
      .queue(entries: [entry], current: 4), .queue(entries: [], current: nil),
      .state(
        RoomPlayback(
          entry: 4, path: track.path, duration: 212.4, playing: true, position: 12.5, at: 1523.25)),
      .state(.stopped(at: 3)), .history(track: track.path, messages: [chat]),
      .history(track: nil, messages: []), .chat(chat), .notice("Jun skipped to Umbrella"),
      .error(code: .rateLimited, message: "wait 3 s", retryAfter: 3),
      .error(code: .unreachable, message: "the room is unreachable", retryAfter: nil),
      .library([track]), .time(id: 7, t0: 81234.5, server: 1523.25), .heartbeat(clock: 6523.25),
    ]
    for event in events {
      XCTAssertEqual(RoomEvent.parse(event.json), event, event.json)
    }
  }

  func testTheLinksOwnLinesAreFlatJSON() throws {
    let lost = RoomLink.LinkStatus(state: .lost, reason: "cannot reach the room server", retryIn: 2)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    XCTAssertEqual(
      String(decoding: try encoder.encode(lost), as: UTF8.self),
      #"{"reason":"cannot reach the room server","retry_in":2,"state":"lost","type":"link"}"#)
    XCTAssertEqual(
      String(decoding: try encoder.encode(RoomLink.LinkStatus(state: .connected)), as: UTF8.self),
      #"{"state":"connected","type":"link"}"#)
    XCTAssertEqual(
      String(
        decoding: try encoder.encode(RoomLink.OffsetLine(offsetMs: -5, rttMs: 0.5)), as: UTF8.self),
      #"{"offset_ms":-5,"rtt_ms":0.5,"type":"offset"}"#)
  }

  func testASavedRoomReadsBackFromItsJSON() throws {
    let saved = SavedRoom(
      queue: [RoomQueueEntry(entry: 2, track: track, addedBy: "Mina")], nextEntry: 3, entry: 2,
      playing: true, position: 1.5, savedAt: 1_764_230_400.25)
    let data = try SavedRoom.encoder.encode(saved)
    XCTAssertEqual(try JSONDecoder().decode(SavedRoom.self, from: data), saved)
  }
}
