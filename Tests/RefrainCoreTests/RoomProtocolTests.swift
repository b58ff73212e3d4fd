import Foundation
import RefrainCore
import XCTest

/// The listening-room protocol's pure parts: what a member may send, what the server
/// answers, the room clock's arithmetic, the NTP-style offset, sync corrections, the chat and
/// flood windows, and HTTP ranges for the shared library.
final class RoomProtocolTests: XCTestCase {
  // MARK: - Requests

  func testEveryRequestReadsBackFromItsOwnJSON() throws {
    let requests: [RoomRequest] = [
      .hello(protocolVersion: 1, name: "Mina"), .time(id: 7, t0: 81234.5), .alive, .library,
      .queueAdd(path: "Night Walks/01 Umbrella.mp3"), .queueRemove(entry: 4),
      .queueMove(entry: 4, to: 0), .play(entry: nil),
      .play(entry: 3), .pause, .seek(position: 10.25), .next, .chat(text: "this bridge!"),
    ]
    for request in requests {
      XCTAssertEqual(try RoomRequest.parse(request.json), request, request.json)
    }
  }

  func testMalformedFramesSayWhatIsWrong() {
    func reason(_ text: String) -> RoomRequest.ParseError? {
      do {
        _ = try RoomRequest.parse(text)
        return nil
      } catch {
        return error
      }
    }
    XCTAssertEqual(
      reason("not json"), .malformed("a message is a JSON object with a \"type\" string"))
    XCTAssertEqual(reason("[1,2]"), .malformed("a message is a JSON object with a \"type\" string"))
    XCTAssertEqual(reason(#"{"type":"seek"}"#), .malformed("\"seek\" needs \"position\""))
    XCTAssertEqual(
      reason(#"{"type":"seek","position":"ten"}"#),
      .malformed("\"seek\": \"position\" has the wrong type"))
    XCTAssertEqual(reason(#"{"type":"queue_remove","entry":1.5}"#)?.isMalformed, true)
    XCTAssertEqual(reason(#"{"type":"dance"}"#), .unknownType("no message of type \"dance\""))
    // A hostile type name comes back cleaned.
    XCTAssertEqual(
      reason("{\"type\":\"\\u001b]0;x\\u0007go\"}"), .unknownType("no message of type \"go\""))
  }

  func testOnlyPlaybackAndQueueRequestsAreControl() {
    XCTAssertTrue(RoomRequest.seek(position: 1).isControl)
    XCTAssertTrue(RoomRequest.queueAdd(path: "a.mp3").isControl)
    XCTAssertFalse(RoomRequest.chat(text: "hi").isControl)
    XCTAssertFalse(RoomRequest.time(id: 1, t0: 0).isControl)
  }

  func testRoomURLsThatCanAndCannotBeJoined() {
    XCTAssertNil(RoomProtocol.problem(withRoomURL: "ws://127.0.0.1:7700/rooms/friday"))
    XCTAssertNil(RoomProtocol.problem(withRoomURL: "wss://home.example/rooms/friday"))
    XCTAssertNil(RoomProtocol.problem(withRoomURL: "WSS://localhost:8443/rooms/friday"))
    XCTAssertNil(RoomProtocol.problem(withRoomURL: "wss://1st.example:443/rooms/friday"))
    XCTAssertNotNil(RoomProtocol.problem(withRoomURL: "http://home.example/rooms/friday"))
    XCTAssertNotNil(RoomProtocol.problem(withRoomURL: "ws://home.example/friday"))
    let address = RoomProtocol.problem(withRoomURL: "wss://192.168.1.4:8443/rooms/friday")
    XCTAssertEqual(
      address,
      "wss:// needs the room server's host name (the name on its certificate), "
        + "not the address '192.168.1.4'")
    XCTAssertNotNil(RoomProtocol.problem(withRoomURL: "wss://[::1]:8443/rooms/friday"))
  }

  func testRoomNamesAndDisplayNames() {
    XCTAssertTrue(RoomProtocol.isValidRoomName("friday-night_1.0"))
    XCTAssertFalse(RoomProtocol.isValidRoomName(""))
    XCTAssertFalse(RoomProtocol.isValidRoomName(String(repeating: "a", count: 65)))
    XCTAssertFalse(RoomProtocol.isValidRoomName("a/b"))
    XCTAssertFalse(RoomProtocol.isValidRoomName("밤"))
    XCTAssertEqual(RoomProtocol.cleanName("  \u{1B}[31mMina\u{1B}[0m "), "Mina")
    XCTAssertNil(RoomProtocol.cleanName("\u{1B}]0;title\u{07}"))
    XCTAssertEqual(RoomProtocol.cleanName(String(repeating: "가", count: 40))?.count, 32)
  }

  // MARK: - Events

  func testEventsReadBackFromTheirJSON() {
    let chat = RoomChat(
      id: 118, track: "a.mp3", from: "Jun", member: "m3", text: "hi", sentAt: 1_764_230_400)
    let track = RoomLibraryTrack(
      path: "a.mp3", title: "A", artist: "B", album: nil, duration: 212.4)
    let gained = RoomLibraryTrack(
      path: "b.flac", title: "B", artist: nil, album: "C", duration: 30,
      replayGain: ReplayGain(trackGain: -6.5, trackPeak: 0.9, albumGain: -5))
    let events: [RoomEvent] = [
      .library([track, gained]),
      .queue(entries: [RoomQueueEntry(entry: 5, track: gained, addedBy: "Jun")], current: 5),
      .welcome(
        RoomWelcome(
          room: "friday", member: "m3", hostOnly: false, host: "m1", heartbeatSeconds: 5,
          clock: 1523.25)),
      .members([RoomMember(id: "m1", name: "Mina", host: true)]),
      .queue(entries: [RoomQueueEntry(entry: 4, track: track, addedBy: "Mina")], current: 4),
      .queue(entries: [], current: nil),
      .state(
        RoomPlayback(
          entry: 4, path: "a.mp3", duration: 212.4, playing: true, position: 12.5, at: 1523.25)),
      .state(.stopped(at: 9)),
      .history(track: "a.mp3", messages: [chat]), .history(track: nil, messages: []),
      .chat(chat), .notice("Jun skipped to A"),
      .error(code: .rateLimited, message: "wait", retryAfter: 3),
      .error(code: .notFound, message: "no", retryAfter: nil),
      .library([track]), .time(id: 7, t0: 81234.5, server: 1523.25), .heartbeat(clock: 6523.25),
    ]
    for event in events {
      XCTAssertEqual(RoomEvent.parse(event.json), event, event.json)
    }
  }

  func testTheWireFormIsFlatWithNullsWhereTheProtocolSaysSo() throws {
    let state = try object(RoomEvent.state(.stopped(at: 9)).json)
    XCTAssertEqual(state["type"] as? String, "state")
    XCTAssertTrue(state["entry"] is NSNull, "\(state)")
    XCTAssertTrue(state["path"] is NSNull, "\(state)")
    XCTAssertEqual(state["playing"] as? Bool, false)
    let welcome = try object(
      RoomEvent.welcome(
        RoomWelcome(
          room: "r", member: "m1", hostOnly: true, host: "m1", heartbeatSeconds: 5, clock: 0)
      ).json)
    XCTAssertEqual(welcome["protocol"] as? Int, RoomProtocol.version)
    XCTAssertEqual(welcome["host_only"] as? Bool, true)
    XCTAssertEqual(welcome["heartbeat_s"] as? Double, 5)
    let chat = try object(
      RoomEvent.chat(RoomChat(id: 1, track: nil, from: "a", member: "m1", text: "t", sentAt: 5))
        .json)
    XCTAssertTrue(chat["track"] is NSNull)
    XCTAssertEqual(chat["sent_at"] as? Int, 5)
    XCTAssertNil(RoomEvent.parse(#"{"type":"from_the_future","x":1}"#))
  }

  private func object(_ json: String) throws -> [String: Any] {
    try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
  }

  // MARK: - The room clock

  func testPlaybackAdvancesOnlyWhilePlayingAndStopsAtTheEnd() {
    let playing = RoomPlayback(
      entry: 1, path: "a", duration: 30, playing: true, position: 10, at: 5_000)
    XCTAssertEqual(playing.position(atRoomClock: 7_500), 12.5, accuracy: 1e-9)
    XCTAssertEqual(playing.position(atRoomClock: 100_000), 30)
    XCTAssertEqual(playing.endsAt, 25_000)
    let paused = RoomPlayback(
      entry: 1, path: "a", duration: 30, playing: false, position: 10, at: 5_000)
    XCTAssertEqual(paused.position(atRoomClock: 60_000), 10)
    XCTAssertNil(paused.endsAt)
  }

  func testTheOffsetTrustsTheShortestRoundTrips() {
    var estimator = ClockOffsetEstimator(capacity: 16, best: 3)
    XCTAssertNil(estimator.offset)
    // The true offset is 1000 ms; symmetric trips give it exactly, a slow return leg skews.
    estimator.add(t0: 0, server: 1_001, t3: 2)  // 2 ms round trip: offset 1000
    estimator.add(t0: 10, server: 1_011.5, t3: 13)  // 3 ms: 1000
    estimator.add(t0: 20, server: 1_021, t3: 22)  // 2 ms: 1000
    estimator.add(t0: 30, server: 1_031, t3: 130)  // 100 ms, asymmetric: 950
    estimator.add(t0: 40, server: 1_090, t3: 60)  // 20 ms: 1040
    XCTAssertEqual(estimator.offset, 1_000)
    XCTAssertEqual(estimator.roundTrip, 2)
    XCTAssertEqual(estimator.roomTime(atLocal: 500), 1_500)
    // An answer that came back before it left is not a sample.
    estimator.add(t0: 50, server: 0, t3: 40)
    XCTAssertEqual(estimator.samples.count, 5)
  }

  func testOnlyTheRecentProbesAreKept() {
    var estimator = ClockOffsetEstimator(capacity: 4, best: 1)
    estimator.add(t0: 0, server: 500, t3: 0)  // a perfect old probe: offset 500
    for index in 1...4 {
      let t0 = Double(index * 100)
      estimator.add(t0: t0, server: t0 + 2_005, t3: t0 + 10)
    }
    XCTAssertEqual(estimator.offset, 2_000, "the old probe fell out of the window")
  }

  // MARK: - Sync

  func testSmallErrorsAreLeftMiddlingOnesSteppedLargeOnesSeeked() {
    let sync = RoomSync(tolerance: 0.010, stepLimit: 0.250)
    XCTAssertEqual(sync.correction(audible: 10.005, expected: 10), .none)
    guard case .step(let back) = sync.correction(audible: 10.1, expected: 10) else {
      return XCTFail("a 100 ms lead is a step")
    }
    XCTAssertEqual(back, -0.1, accuracy: 1e-9)
    guard case .step(let forward) = sync.correction(audible: 9.96, expected: 10) else {
      return XCTFail("a 40 ms lag is a step")
    }
    XCTAssertEqual(forward, 0.04, accuracy: 1e-9)
    XCTAssertEqual(sync.correction(audible: 3, expected: 10), .seek(10))
  }

  func testTheChatWindowAdmitsFiveInFiveSecondsAndSaysHowLongToWait() {
    var window = RateWindow(limit: 5, window: 5)
    for second in 0..<5 { XCTAssertNil(window.admit(at: Double(second) * 0.5)) }
    XCTAssertEqual(try XCTUnwrap(window.admit(at: 2.5)), 2.5, accuracy: 1e-9)
    XCTAssertNil(window.admit(at: 5.0), "the first message has left the window")
    XCTAssertNotNil(window.admit(at: 5.1))
  }

  // MARK: - Ranges

  func testByteRanges() {
    XCTAssertEqual(ByteRange.parse(nil, size: 1_000), .whole)
    XCTAssertEqual(ByteRange.parse("bytes=100-199", size: 1_000), .part(100...199))
    XCTAssertEqual(ByteRange.parse("bytes=900-", size: 1_000), .part(900...999))
    XCTAssertEqual(ByteRange.parse("bytes=900-5000", size: 1_000), .part(900...999))
    XCTAssertEqual(ByteRange.parse("bytes=-100", size: 1_000), .part(900...999))
    XCTAssertEqual(ByteRange.parse("bytes=1000-", size: 1_000), .unsatisfiable)
    XCTAssertEqual(ByteRange.parse("bytes=5-1", size: 1_000), .whole)
    XCTAssertEqual(ByteRange.parse("bytes=0-1,5-6", size: 1_000), .whole)
    XCTAssertEqual(ByteRange.parse("items=0-1", size: 1_000), .whole)
  }
}

extension RoomRequest.ParseError {
  fileprivate var isMalformed: Bool {
    if case .malformed = self { return true }
    return false
  }
}
