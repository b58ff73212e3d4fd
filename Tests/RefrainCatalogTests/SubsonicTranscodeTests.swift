import Foundation
import RefrainCore
import XCTest

@testable import RefrainCatalog
@testable import RefrainSubsonic

/// `stream.view` for a thin link: the format and bit rate asked for, and what seeks do.
final class SubsonicTranscodeTests: XCTestCase {
  private let server = URL(string: "http://127.0.0.1:9/music") ?? URL(fileURLWithPath: "/")
  private lazy var api = SubsonicAPI(
    server: server, user: "ann", auth: .token(token: "t", salt: "s"))

  private func query(_ url: URL) -> [(String, String)] {
    (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map {
      ($0.name, $0.value ?? "")
    }
  }

  func testRawIsTheStoredFileExactlyAsBefore() throws {
    let raw = try api.streamURL(songID: "song-7", transcode: .raw)
    XCTAssertEqual(raw, try api.streamURL(songID: "song-7"))
    XCTAssertEqual(
      query(raw).map(\.0), ["u", "t", "s", "c", "v", "id"], "no format, no maxBitRate, no f")
    // A bit rate without a format is not sent: it would make the server transcode.
    let limited = try api.streamURL(songID: "song-7", transcode: .init(format: nil, maxBitRate: 96))
    XCTAssertEqual(limited, raw)
  }

  func testATranscodeSendsItsFormatAndItsBitRate() throws {
    let url = try api.streamURL(songID: "song-7", transcode: .init(format: "opus", maxBitRate: 96))
    XCTAssertEqual(url.path, "/music/rest/stream.view")
    XCTAssertEqual(
      query(url).suffix(3).map { "\($0.0)=\($0.1)" }, ["id=song-7", "format=opus", "maxBitRate=96"])
    XCTAssertFalse(query(url).contains { $0.0 == "f" })
  }

  func testNoLimitSendsNoBitRate() throws {
    let url = try api.streamURL(songID: "9", transcode: .init(format: "mp3"))
    XCTAssertEqual(query(url).suffix(2).map { "\($0.0)=\($0.1)" }, ["id=9", "format=mp3"])
  }

  func testSeeksFollowTheServersExtensions() {
    XCTAssertNil(SubsonicTranscode.raw.seeking(extensions: ["transcodeOffset"]))
    let opus = SubsonicTranscode(format: "opus", maxBitRate: 64)
    XCTAssertEqual(
      opus.seeking(extensions: ["songLyrics", "transcodeOffset"]),
      .reRequest(parameter: "timeOffset"))
    XCTAssertEqual(
      opus.seeking(extensions: ["songLyrics"]),
      .refused(
        reason: "seeking is not available: the server transcodes this track to opus "
          + "and does not offer timeOffset (transcodeOffset)"))
  }

  func testTheProviderTellsTheSessionHowItsTracksSeek() {
    let account = SubsonicAccount(
      server: server, user: "ann", auth: .token(token: "t", salt: "s"), apiVersion: "1.16.1",
      extensions: ["transcodeOffset"])
    let song = CatalogTrack(id: "1", provider: "subsonic", title: "Song")
    XCTAssertNil(SubsonicCatalogProvider(account: account).seeking(for: song))
    let thin = SubsonicCatalogProvider(account: account, transcode: .init(format: "opus"))
    XCTAssertEqual(thin.seeking(for: song), .reRequest(parameter: "timeOffset"))
    let station = CatalogTrack(
      id: "r1", provider: SubsonicCatalogProvider.stationProvider, title: "R")
    XCTAssertNil(thin.seeking(for: station), "a radio station is not transcoded")
  }
}
