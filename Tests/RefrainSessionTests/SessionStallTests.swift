import Foundation
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainSession

/// A stream whose server stops sending: the status says `stalled` with the reason, a seek is
/// refused while it lasts, and both end when bytes flow again.
final class SessionStallTests: XCTestCase {
  private let song = Track(argument: "http://127.0.0.1:4040/rest/stream?id=7")

  private func playing() -> (Session, FakePlayer, Track) {
    let player = FakePlayer()
    let session = Session(player: player, lyricsLoader: { _ in .notFound(reasons: []) })
    session.playback.playSingle(song)
    player.setState(.playing)
    let current = session.playback.queue.current ?? song
    player.emit(.started(current, duration: 200))
    session.handlePlayerEvents(player.drainEvents())
    return (session, player, current)
  }

  private func json(_ status: SessionStatus) throws -> [String: Any] {
    let data = Data(SessionJSON.line(status).utf8)
    return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  func testAStalledStreamIsStalledInTheStatusWithItsReason() throws {
    let (session, player, current) = playing()
    XCTAssertEqual(try json(session.status())["state"] as? String, "playing")
    player.emit(.stream(current, .stalled(reason: "connection refused")))
    session.handlePlayerEvents(player.drainEvents())
    let status = try json(session.status())
    XCTAssertEqual(status["state"] as? String, "stalled")
    XCTAssertEqual(status["stall_reason"] as? String, "connection refused")

    player.emit(.stream(current, .flowing))
    session.handlePlayerEvents(player.drainEvents())
    let back = try json(session.status())
    XCTAssertEqual(back["state"] as? String, "playing")
    XCTAssertNil(back["stall_reason"])
  }

  func testASeekWhileStalledIsRefusedWithTheReasonAndReachesNoPlayer() throws {
    let (session, player, current) = playing()
    player.emit(.stream(current, .stalled(reason: "the server has sent nothing for 1 s")))
    session.handlePlayerEvents(player.drainEvents())
    player.resetCalls()
    guard case .failed(let reason) = session.execute(.seek(.absolute(30))) else {
      return XCTFail("a seek while stalled was accepted")
    }
    XCTAssertTrue(reason.contains("stalled"), reason)
    XCTAssertTrue(reason.contains("the server has sent nothing for 1 s"), reason)
    XCTAssertTrue(player.calls.isEmpty, "\(player.calls)")

    player.emit(.stream(current, .flowing))
    session.handlePlayerEvents(player.drainEvents())
    guard case .done = session.execute(.seek(.absolute(30))) else {
      return XCTFail("a seek after the stall ended was refused")
    }
  }

  func testAStallOfAnotherTrackIsIgnoredAndANewTrackStartsUnstalled() throws {
    let (session, player, current) = playing()
    player.emit(.stream(Track(argument: "http://127.0.0.1:4040/other.mp3"), .stalled(reason: "x")))
    session.handlePlayerEvents(player.drainEvents())
    XCTAssertEqual(try json(session.status())["state"] as? String, "playing")
    player.emit(.stream(current, .stalled(reason: "x")))
    session.handlePlayerEvents(player.drainEvents())
    session.playback.playSingle(Track(argument: "http://127.0.0.1:4040/next.mp3"))
    XCTAssertNil(session.playback.snapshot.stall)
  }
}
