import XCTest

@testable import RefrainRoom

/// What a member's link makes of the room URL before it connects.
final class RoomLinkTests: XCTestCase {
  func testOnlyASecureRoomGetsTLS() {
    XCTAssertNil(
      RoomLink.tlsConfiguration(for: "ws://127.0.0.1:7700/rooms/friday", environment: [:]))
    XCTAssertNotNil(RoomLink.tlsConfiguration(for: "WSS://home.lan/rooms/friday", environment: [:]))
  }

  func testSSLCertFileNamesTheCAToTrustWhenSet() {
    XCTAssertEqual(RoomLink.userCAFile(["SSL_CERT_FILE": "/home/mina/ca.pem"]), "/home/mina/ca.pem")
    XCTAssertNil(RoomLink.userCAFile(["SSL_CERT_FILE": ""]))
    XCTAssertNil(RoomLink.userCAFile([:]))
  }

  func testTheTokenIsAddedAsAQueryParameter() {
    XCTAssertEqual(
      RoomLink.withToken("ws://h:1/rooms/a", token: "t+k"), "ws://h:1/rooms/a?token=t%2Bk")
    XCTAssertEqual(
      RoomLink.withToken("ws://h:1/rooms/a?x=1", token: "t"), "ws://h:1/rooms/a?x=1&token=t")
  }

  // MARK: - Requests during an outage

  /// The lines a queue dropped, with the retry time it gave.
  private final class Dropped: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var lines: [String] { lock.withLock { stored } }
    func append(_ line: String) { lock.withLock { stored.append(line) } }
  }

  func testRequestsWhileTheRoomIsUnreachableAreDroppedAndReportedNeverSentLater() async {
    let dropped = Dropped()
    let lines = LineQueue { line, _ in dropped.append(line) }
    lines.push(#"{"type":"library"}"#)
    // The connection ends with that line still waiting: it is dropped, not kept.
    lines.refuse(retryAt: nil)
    lines.push(#"{"type":"next"}"#)
    lines.push("   ")
    XCTAssertEqual(dropped.lines, [#"{"type":"library"}"#, #"{"type":"next"}"#])
    lines.accept()
    lines.push(#"{"type":"pause"}"#)
    let next = await lines.next()
    XCTAssertEqual(next, #"{"type":"pause"}"#, "only what came after the reconnection is sent")
  }

  func testADroppedRequestIsOneLineThatSaysWhatAndWhen() {
    XCTAssertEqual(
      RoomLink.dropped(#"{"type":"next"}"#, retryIn: 3),
      "the room is unreachable: \"next\" was not sent (reconnecting in 3 s)")
    XCTAssertEqual(
      RoomLink.dropped("nonsense", retryIn: nil),
      "the room is unreachable: a request was not sent (reconnecting)")
  }
}
