import XCTest

@testable import RefrainConfig

/// Secrets never reach the log.
final class LogRedactionTests: XCTestCase {
  private func redact(_ text: String) -> String { RefrainLogging.redact(text) }

  // MARK: - URLs

  func testSignedPreviewURLsLoseTheirQuery() {
    let url =
      "https://cdn.example.invalid/stream/c/a/b/preview.mp3?hdnea=exp=1763764200~acl=/api/*~data=hdntl~hmac=4f2d9c0e7b1a"
    XCTAssertEqual(
      redact("opening \(url) for track 42"),
      "opening https://cdn.example.invalid/stream/c/a/b/preview.mp3?<redacted> for track 42")
  }

  func testQueriesFragmentsAndPasswordsAreRemovedButPathsKept() {
    XCTAssertEqual(
      redact("GET http://127.0.0.1:8080/api/get?track_name=Hello&artist_name=Adele"),
      "GET http://127.0.0.1:8080/api/get?<redacted>")
    XCTAssertEqual(
      redact("url=http://user:secret@127.0.0.1/x#access_token=abc"),
      "url=http://<redacted>@127.0.0.1/x#<redacted>")
    XCTAssertEqual(redact("http://127.0.0.1:9/plain/path"), "http://127.0.0.1:9/plain/path")
    XCTAssertEqual(redact("http://127.0.0.1/a?"), "http://127.0.0.1/a")
  }

  // MARK: - Tokens outside URLs

  func testSecretFieldsAreRemoved() {
    let cases = [
      ("hdnea=exp=1763764200~acl=/*~hmac=deadbeef", "hdnea=<redacted>"),
      ("cookie exp=1763764200 ok", "cookie exp=<redacted> ok"),
      ("hmac=0a1b2c3d&x=1", "hmac=<redacted>&x=1"),
      ("token=abc.def", "token=<redacted>"),
      ("sig=Zm9vYmFy", "sig=<redacted>"),
      ("Signature=XYZ; Key-Pair-Id=APKA", "Signature=<redacted>; Key-Pair-Id=<redacted>"),
      ("access_token = abc123", "access_token = <redacted>"),
      (#"{"token":"abc","id":3}"#, #"{"token":"<redacted>","id":3}"#),
      ("api_sig=0123abcd&sk=x", "api_sig=<redacted>&sk=x"),
      ("listenbrainz_token = \"abc\"", "listenbrainz_token = \"<redacted>\""),
      (
        "lastfm_secret=abc lastfm_api_key=def", "lastfm_secret=<redacted> lastfm_api_key=<redacted>"
      ),
      ("session_key=abc", "session_key=<redacted>"),
    ]
    for (input, expected) in cases {
      XCTAssertEqual(redact(input), expected, input)
    }
  }

  func testBearerTokensAndAuthorizationHeadersAreRemoved() {
    XCTAssertEqual(
      redact("Authorization: Bearer abc.DEF-123_xyz"), "Authorization: Bearer <redacted>")
    XCTAssertEqual(redact("sent bearer abc123 to server"), "sent bearer <redacted> to server")
    XCTAssertEqual(redact("authorization=Basic dXNlcjpwYXNz"), "authorization=Basic <redacted>")
  }

  func testJWTsAndLongRandomTokensAreRemoved() {
    XCTAssertEqual(
      redact("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl done"),
      "jwt <redacted> done")
    XCTAssertEqual(
      redact("key A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6 end"), "key <redacted> end")
  }

  // MARK: - What stays

  func testOrdinaryTextIsKept() {
    let kept = [
      "key=j command=down",
      "expected a number",
      "tokens remaining 3",
      "cache file 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.json",
      "비 오는 날 — Refrain is playing",
      "/home/ada/Music/Some Album/01 Track.mp3",
      "",
    ]
    for text in kept {
      XCTAssertEqual(redact(text), text)
    }
  }
}
