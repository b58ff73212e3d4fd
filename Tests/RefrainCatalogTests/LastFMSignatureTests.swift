import XCTest

@testable import RefrainCatalog
@testable import RefrainScrobble

/// Last.fm's `api_sig`, checked against digests computed outside Refrain with `md5sum`.
final class LastFMSignatureTests: XCTestCase {
  /// A two-listen `track.scrobble` batch with non-ASCII names, plus `format` (not signed).
  private let batch = [
    "method": "track.scrobble", "api_key": "b25b959554ed76058ac220b7b2e0a026",
    "sk": "0123456789abcdef0123456789abcdef", "format": "json",
    "artist[0]": "아이유", "track[0]": "밤편지", "timestamp[0]": "1700000000",
    "album[0]": "Moonlight",
    "artist[1]": "Björk", "track[1]": "Jóga", "timestamp[1]": "1700000300",
  ]

  func testTheSignatureBaseIsSortedNameValuePairsThenTheSecret() {
    XCTAssertEqual(
      LastFMSignature.signatureBase(batch, secret: "shared-secret-42"),
      "album[0]Moonlightapi_keyb25b959554ed76058ac220b7b2e0a026artist[0]아이유artist[1]Björk"
        + "methodtrack.scrobblesk0123456789abcdef0123456789abcdeftimestamp[0]1700000000"
        + "timestamp[1]1700000300track[0]밤편지track[1]Jógashared-secret-42")
  }

  func testTheSignatureMatchesAnIndependentMD5() {
    // printf '%s' 'album[0]Moonlightapi_keyb25b959554ed76058ac220b7b2e0a026artist[0]아이유\
    // artist[1]Björkmethodtrack.scrobblesk0123456789abcdef0123456789abcdeftimestamp[0]\
    // 1700000000timestamp[1]1700000300track[0]밤편지track[1]Jógashared-secret-42' | md5sum
    // (one line, without the backslashes and line breaks; UTF-8)
    XCTAssertEqual(
      LastFMSignature.sign(batch, secret: "shared-secret-42"), "543ac1fb5d6adea9bc8b87a5c5ac0752")
  }

  func testAnAuthGetSessionRequest() {
    // An auth.getSession request (callback is not signed): printf '%s'
    // 'api_keyxxxxxxxxmethodauth.getSessiontokenyyyyyyilovecher' | md5sum
    let parameters = [
      "api_key": "xxxxxxxx", "method": "auth.getSession", "token": "yyyyyy", "callback": "cb",
    ]
    XCTAssertEqual(
      LastFMSignature.sign(parameters, secret: "ilovecher"), "1333ebf6f7dec747486b6ce965cca66b")
  }

  func testFormatCallbackAndAnOldSignatureAreNotSigned() {
    let plain = LastFMSignature.sign(["method": "track.love"], secret: "s")
    let extra = LastFMSignature.sign(
      ["method": "track.love", "format": "json", "callback": "f", "api_sig": "old"], secret: "s")
    XCTAssertEqual(plain, extra)
  }

  func testMD5OfNothing() {
    XCTAssertEqual(LastFMSignature.md5Hex(""), "d41d8cd98f00b204e9800998ecf8427e")
  }
}
