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
}
