import RefrainCore
import XCTest

/// What a status line, `ctl status` or an event may show of a URL that carries a login.
final class SecretRedactionTests: XCTestCase {
  func testASubsonicStreamURLKeepsItsServerAndSongButNotItsTokenAndSalt() {
    let line =
      "skipped Beta Song: http://127.0.0.1:41741/rest/stream.view?u=ann&t=48d84223aa&s=25e8587a&v=1.16.1&c=refrain&id=42 (HTTP 404)"
    XCTAssertEqual(
      SecretRedaction.redacting(line),
      "skipped Beta Song: http://127.0.0.1:41741/rest/stream.view?u=ann&t=REDACTED&s=REDACTED&v=1.16.1&c=refrain&id=42 (HTTP 404)"
    )
  }

  func testPasswordsApiKeysTokensAndUserInfoAreRedactedInEveryURL() {
    XCTAssertEqual(
      SecretRedaction.redacting(
        "a https://ann:hunter2@host/x?P=enc:6869&apiKey=k1#f and wss://h/r?token=abc"),
      "a https://ann:REDACTED@host/x?P=REDACTED&apiKey=REDACTED#f and wss://h/r?token=REDACTED")
  }

  func testTextWithoutSecretsIsUnchangedAndRedactingTwiceChangesNothing() {
    for text in [
      "no url here", "http://127.0.0.1/a.mp3", "see file:///music/a.mp3?t=1", "http://h/?", "://x",
      "http://h/x?t=1&&s=", "https://h/x?a=1#t=2",
    ] {
      let once = SecretRedaction.redacting(text)
      XCTAssertEqual(SecretRedaction.redacting(once), once, text)
      if !text.contains("t=1") || text.hasPrefix("see") || text.contains("#t=") {
        XCTAssertEqual(once, text, text)
      }
    }
  }
}
