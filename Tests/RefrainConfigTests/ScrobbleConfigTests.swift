import Foundation
import XCTest

@testable import RefrainConfig

/// Where the scrobbling clients send listens, and how the ListenBrainz token is found.
final class ScrobbleConfigTests: XCTestCase {
  private struct Missing: Error {}

  // MARK: - Addresses

  func testThePublicServicesByDefault() {
    let configuration = RefrainConfiguration()
    XCTAssertEqual(
      configuration.listenBrainzURL(environment: [:]).absoluteString,
      "https://api.listenbrainz.org")
    XCTAssertEqual(
      configuration.lastFMURL(environment: [:]).absoluteString,
      "https://ws.audioscrobbler.com/2.0/")
  }

  func testTheEnvironmentPointsTheClientsAtATestServer() {
    let environment = [
      "REFRAIN_LISTENBRAINZ_URL": "http://127.0.0.1:7001",
      "REFRAIN_LASTFM_URL": " http://127.0.0.1:7002/2.0/ ",
    ]
    let configuration = RefrainConfiguration()
    XCTAssertEqual(configuration.listenBrainzURL(environment: environment).port, 7001)
    XCTAssertEqual(
      configuration.lastFMURL(environment: environment).absoluteString,
      "http://127.0.0.1:7002/2.0/")
  }

  func testAnEmptyOrInvalidVariableIsUnset() {
    let configuration = RefrainConfiguration()
    for value in ["", "ftp://127.0.0.1", "not a url", "http://"] {
      let environment = ["REFRAIN_LISTENBRAINZ_URL": value, "REFRAIN_LASTFM_URL": value]
      XCTAssertEqual(
        configuration.listenBrainzURL(environment: environment).host, "api.listenbrainz.org",
        value)
      XCTAssertEqual(
        configuration.lastFMURL(environment: environment).host, "ws.audioscrobbler.com", value)
    }
  }

  // MARK: - The ListenBrainz token

  func testTheTokenKeyWinsOverTheFile() throws {
    var configuration = RefrainConfiguration()
    configuration.listenBrainzToken = SecretText("inline")
    configuration.listenBrainzTokenFile = "/secret/token"
    let token = try configuration.listenBrainzToken(reading: { _ in throw Missing() })
    XCTAssertEqual(token?.revealed, "inline")
  }

  func testTheTokenFilesFirstLineIsTheToken() throws {
    var configuration = RefrainConfiguration()
    configuration.listenBrainzTokenFile = "/secret/token"
    let token = try configuration.listenBrainzToken(reading: { path in
      XCTAssertEqual(path, "/secret/token")
      return "  5c6d-77aa \n# a note\n"
    })
    XCTAssertEqual(token?.revealed, "5c6d-77aa")
  }

  func testNoTokenAndNoFileIsOff() throws {
    XCTAssertNil(try RefrainConfiguration().listenBrainzToken(reading: { _ in throw Missing() }))
  }

  func testTokenFileErrorsNameTheFileButNeverItsContent() {
    var configuration = RefrainConfiguration()
    configuration.listenBrainzTokenFile = "/secret/token"
    let cases: [(content: String?, error: ScrobbleCredentialError)] = [
      (nil, .unreadableTokenFile(path: "/secret/token")),
      ("\n\n", .emptyTokenFile(path: "/secret/token")),
      ("two words-here", .malformedTokenFile(path: "/secret/token")),
    ]
    for (content, expected) in cases {
      XCTAssertThrowsError(
        try configuration.listenBrainzToken(reading: { _ in
          guard let content else { throw Missing() }
          return content
        })
      ) { error in
        XCTAssertEqual(error as? ScrobbleCredentialError, expected)
        let message = "\(error)"
        XCTAssertTrue(message.contains("/secret/token"), message)
        XCTAssertFalse(message.contains("words-here"), message)
      }
    }
  }

  func testATokenFileOnDiskIsRead() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-token-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("listenbrainz")
    try "abc-123\n".write(to: file, atomically: true, encoding: .utf8)
    var configuration = RefrainConfiguration()
    configuration.listenBrainzTokenFile = file.path
    XCTAssertEqual(try configuration.listenBrainzToken()?.revealed, "abc-123")
    configuration.listenBrainzTokenFile = folder.appendingPathComponent("missing").path
    XCTAssertThrowsError(try configuration.listenBrainzToken())
  }
}
