import Foundation
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainSession

/// A live stream in the session: its titles in the status, its reconnections, no lyrics
/// looked up, and news of a track the listener moved away from ignored.
final class SessionRadioTests: XCTestCase {
  private let station = Track(argument: "http://127.0.0.1:8000/radio.mp3")
  private let other = Track(
    id: "/music/a.mp3", location: URL(fileURLWithPath: "/music/a.mp3"), title: "a", artist: nil,
    album: nil, duration: 10)

  private final class Lookups: @unchecked Sendable {
    let lock = NSLock()
    var count = 0
  }

  /// A session over a fake player whose lyrics look-ups are counted in `lookups`.
  private func counting(_ lookups: Lookups) -> (Session, FakePlayer) {
    let player = FakePlayer()
    let session = Session(
      player: player,
      lyricsLoader: { _ in
        lookups.lock.withLock { lookups.count += 1 }
        return .notFound(reasons: ["none"])
      })
    return (session, player)
  }

  /// A session playing `station`, which the player says is live, with a title on air.
  private func listening(lookups: Lookups = Lookups()) -> (Session, FakePlayer) {
    let (session, player) = counting(lookups)
    session.playback.playSingle(station)
    player.setState(.playing)
    let playing = session.playback.queue.current ?? station
    player.emit(
      .stream(playing, .live), .stream(playing, .title(StreamTitle(raw: "Ada - Engine Song"))),
      .started(playing, duration: nil))
    session.handlePlayerEvents(player.drainEvents())
    return (session, player)
  }

  private func json(_ status: SessionStatus) throws -> [String: Any] {
    let data = Data(SessionJSON.line(status).utf8)
    return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  func testTheTitleOnAirIsInTheStatusAndShownAsTheTrack() throws {
    let (session, _) = listening()
    let status = try json(session.status())
    XCTAssertEqual(status["stream_title"] as? String, "Ada - Engine Song")
    let shown = try XCTUnwrap(session.playback.snapshot.shownTrack)
    XCTAssertEqual(shown.title, "Engine Song")
    XCTAssertEqual(shown.artist, "Ada")
    XCTAssertEqual(shown.album, station.title)
  }

  func testAStreamBeforeItsFirstTitleHasANullStreamTitleAndOtherTracksHaveNone() throws {
    let player = FakePlayer()
    let session = Session(player: player, lyricsLoader: { _ in .notFound(reasons: []) })
    session.playback.playSingle(station)
    let playing = session.playback.queue.current ?? station
    player.emit(.stream(playing, .live), .started(playing, duration: nil))
    session.handlePlayerEvents(player.drainEvents())
    let status = try json(session.status())
    XCTAssertTrue(status.keys.contains("stream_title"))
    XCTAssertTrue(status["stream_title"] is NSNull)

    session.playback.playSingle(other)
    let file = session.playback.queue.current ?? other
    player.emit(.started(file, duration: 10))
    session.handlePlayerEvents(player.drainEvents())
    XCTAssertFalse(try json(session.status()).keys.contains("stream_title"))
  }

  func testNoLyricsAreLookedUpForRadio() {
    let lookups = Lookups()
    let (session, _) = listening(lookups: lookups)
    Thread.sleep(forTimeInterval: 0.2)
    session.drainInbox()
    XCTAssertEqual(lookups.lock.withLock { lookups.count }, 0)
    XCTAssertEqual(session.lyricsNotice, "no lyrics for radio")
  }

  func testAReconnectionIsInTheStatusUntilTheStreamIsBack() throws {
    let (session, player) = listening()
    let playing = session.playback.queue.current ?? station
    player.emit(.stream(playing, .reconnecting(reason: "connection refused", retryIn: 2)))
    session.handlePlayerEvents(player.drainEvents())
    XCTAssertEqual(
      try json(session.status())["stream_notice"] as? String,
      "stream lost (connection refused): reconnecting in 2.0 s")
    XCTAssertEqual(session.status().state, .playing)
    player.emit(.stream(playing, .reconnected))
    session.handlePlayerEvents(player.drainEvents())
    XCTAssertNil(try json(session.status())["stream_notice"])
  }

  func testAStationQueuedAfterAFileKeepsWhatItSaidWhilePreparedForWhenItStarts() throws {
    let lookups = Lookups()
    let (session, player) = counting(lookups)
    session.playback.playAll([other, station], startAt: 0)
    player.setState(.playing)
    let file = try XCTUnwrap(session.playback.queue.current)
    player.emit(.started(file, duration: 10))
    session.handlePlayerEvents(player.drainEvents())
    let prepared = try XCTUnwrap(player.prepared.last ?? nil)
    XCTAssertEqual(prepared.location, station.location)
    // The player opens the prepared stream ahead of the hand-over: its news comes early.
    player.emit(
      .stream(prepared, .live), .stream(prepared, .title(StreamTitle(raw: "Cy - Third"))))
    session.handlePlayerEvents(player.drainEvents())
    XCTAssertNil(session.playback.snapshot.streamTitle, "the file still plays")
    player.emit(.trackEnded(file), .started(prepared, duration: nil))
    session.handlePlayerEvents(player.drainEvents())
    XCTAssertEqual(session.playback.snapshot.streamTitle?.raw, "Cy - Third")
    XCTAssertTrue(session.playback.snapshot.isLive)
    Thread.sleep(forTimeInterval: 0.2)
    session.drainInbox()
    XCTAssertEqual(session.lyricsNotice, "no lyrics for radio")
    XCTAssertEqual(lookups.lock.withLock { lookups.count }, 1, "only the file's lyrics")
  }

  func testNewsOfATrackLeftBehindIsIgnored() {
    let (session, player) = listening()
    let old = session.playback.queue.current ?? station
    session.playback.playSingle(other)
    player.emit(.stream(old, .title(StreamTitle(raw: "Late - Title"))))
    session.handlePlayerEvents(player.drainEvents())
    XCTAssertNil(session.playback.snapshot.streamTitle)
    XCTAssertFalse(session.playback.snapshot.isLive)
  }
}
