import Foundation
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainSession

/// A library port in memory, recording what the session saved.
final class MemoryLibrary: LibraryPort, @unchecked Sendable {
  private let lock = NSLock()
  private var offsets: [String: Int] = [:]

  init(offsets: [String: Int] = [:]) { self.offsets = offsets }

  func lyricOffset(for trackKey: String) throws -> Int { lock.withLock { offsets[trackKey] ?? 0 } }

  func setLyricOffset(_ offsetMs: Int, for trackKey: String) throws -> Int {
    lock.withLock { offsets[trackKey] = offsetMs }
    return offsetMs
  }

  func enqueueListen(_ listen: Listen, services: [ScrobbleService]) throws -> Int {
    lock.withLock { listens.append(listen) }
    return services.count
  }

  /// The listens the session queued, in order.
  var queuedListens: [Listen] { lock.withLock { listens } }
  private var listens: [Listen] = []
}

/// The session every front end shares: commands in, outcomes and a status out.
final class SessionTests: XCTestCase {
  private let song = Track(
    id: "demo:umbrella", location: URL(fileURLWithPath: "/music/umbrella.mp3"),
    title: "우산 하나에 두 사람", artist: "달빛 우체국", album: nil, duration: 32.7)
  private let lyrics = LRCParser.parse(
    """
    [00:02.00]첫 줄
    [00:04.00]둘째 줄
    [00:06.00]셋째 줄
    """)

  /// A session over a fake player, playing `song` with `lyrics` found by the loader.
  private func playing(library: MemoryLibrary? = nil) -> (Session, FakePlayer) {
    let player = FakePlayer()
    let document = lyrics
    let session = Session(
      player: player, library: library,
      lyricsLoader: { _ in .found(document, source: .sidecar) })
    session.playback.playSingle(song)
    player.setState(.playing)
    player.emit(.started(song, duration: 32.7))
    session.handlePlayerEvents(player.drainEvents())
    waitForLyrics(session)
    return (session, player)
  }

  private func waitForLyrics(_ session: Session, file: StaticString = #filePath, line: UInt = #line)
  {
    let deadline = Date().addingTimeInterval(5)
    while session.playback.lyrics == nil, Date() < deadline {
      var fd = pollfd(fd: session.wakeFileDescriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&fd, 1, 50)
      session.drainInbox()
    }
    XCTAssertNotNil(session.playback.lyrics, "the lyrics arrived", file: file, line: line)
  }

  func testTransportCommandsReachThePlayer() {
    let (session, player) = playing()
    XCTAssertEqual(session.execute(.pause), .done(message: nil))
    XCTAssertEqual(session.status().state, .paused)
    XCTAssertEqual(session.execute(.togglePlay), .done(message: nil))
    XCTAssertEqual(session.status().state, .playing)
    XCTAssertEqual(session.execute(.seek(.absolute(12))), .done(message: nil))
    XCTAssertEqual(player.lastSeek, 12)
    XCTAssertEqual(session.execute(.volume(.relative(-30))), .done(message: "volume 70%"))
    XCTAssertEqual(player.lastVolume, 70)
  }

  func testALyricLineSeeksToItsTimeAndAMissingLineIsAnError() {
    let (session, player) = playing()
    XCTAssertEqual(session.execute(.lyricLine(2)), .done(message: nil))
    XCTAssertEqual(player.lastSeek ?? -1, 6, accuracy: 0.001)
    XCTAssertEqual(session.status().lineIndex, 2)
    XCTAssertEqual(session.status().line, "셋째 줄")
    XCTAssertEqual(session.execute(.lyricLine(9)), .failed("line 9 is past the last line (2)"))
  }

  func testANudgeIsSavedForTheTrack() throws {
    let library = MemoryLibrary()
    let (session, _) = playing(library: library)
    XCTAssertEqual(session.execute(.nudge(250)), .done(message: "lyrics offset +250 ms"))
    let deadline = Date().addingTimeInterval(5)
    while try library.lyricOffset(for: song.id) != 250, Date() < deadline { usleep(10_000) }
    XCTAssertEqual(try library.lyricOffset(for: song.id), 250)
  }

  func testASavedOffsetComesWithTheLyrics() {
    let (session, _) = playing(library: MemoryLibrary(offsets: [song.id: -500]))
    XCTAssertEqual(session.playback.lyricOffsetMs, -500)
  }

  func testPaneCommandsAreNotTheSessions() {
    let (session, _) = playing()
    for command in [Command.open, .back, .move(.down), .show(.queue), .quit, .help] {
      XCTAssertEqual(session.execute(command), .notForSession, "\(command)")
    }
  }

  func testTheStatusEncodesAsTheCtlContract() throws {
    let (session, player) = playing()
    player.position = 4.5
    let json = SessionJSON.line(session.status(pane: "player"))
    let object = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    XCTAssertEqual(object["state"] as? String, "playing")
    XCTAssertEqual(object["track"] as? String, "우산 하나에 두 사람")
    XCTAssertEqual(object["position"] as? Double, 4.5)
    XCTAssertEqual(object["line_index"] as? Int, 1)
    XCTAssertEqual(object["pane"] as? String, "player")
    XCTAssertTrue(object["album"] is NSNull, "an unknown album is null, not absent")
    XCTAssertFalse(json.contains("\n"), "one line")
  }

  func testTheChangeKeyIgnoresTheFractionOfASecond() {
    let (session, player) = playing()
    player.position = 7.1
    let first = session.status().changeKey
    player.position = 7.9
    XCTAssertEqual(session.status().changeKey, first)
    player.position = 8.0
    XCTAssertNotEqual(session.status().changeKey, first)
  }

  func testObserversHearPlayerEvents() {
    let (session, player) = playing()
    var heard: [SessionEvent] = []
    session.subscribe { heard.append($0) }
    player.emit(.warning("audio server lost"))
    session.handlePlayerEvents(player.drainEvents())
    XCTAssertEqual(heard, [.player(.warning("audio server lost"))])
  }
}

/// Tap-to-sync on the session: stamps at the player's position, and saving a streamed
/// track's timing to the lyrics cache the loader reads next.
final class SessionLyricsSyncTests: XCTestCase {
  private let stream = Track(
    id: "deezer:3135556", location: URL(string: "http://127.0.0.1:9/preview.mp3")!,
    title: "Harder", artist: "Daft Punk", album: nil, duration: 30)

  func testAStreamedTracksTimingIsSavedToTheLyricsCacheAndReloaded() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-sync-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let cache = LyricsCache(directory: folder)
    let plain = LRCParser.parse("work it\nmake it")
    let player = FakePlayer()
    let session = Session(
      player: player,
      lyricsLoader: { track in
        if case .hit(.lyrics(let document)) = cache.lookup(LyricsQuery(track: track)) {
          return .found(document, source: .cache)
        }
        return .found(plain, source: .sidecar)
      })
    session.lyricsCache = cache
    session.playback.playSingle(stream)
    player.setState(.playing)
    player.emit(.started(stream, duration: 30))
    session.handlePlayerEvents(player.drainEvents())
    drain(session) { session.playback.lyrics != nil }
    XCTAssertEqual(session.execute(.lyricsSync(.here)).isDone, true)
    player.position = 1.25
    XCTAssertEqual(session.execute(.lyricsSync(.stamp)), .done(message: "line 1 at [00:01.25]"))
    player.position = 2.5
    _ = session.execute(.lyricsSync(.stamp))
    var saved: Result<String, SyncSaveFailure>?
    session.saveSync { saved = $0 }
    drain(session) { saved != nil && session.playback.lyrics?.document.isSynced == true }
    XCTAssertEqual(saved, .success("the lyrics cache"))
    XCTAssertNil(session.sync)
    XCTAssertEqual(session.playback.lyrics?.document.lines.map(\.ms), [1_250, 2_500])
  }

  private func drain(_ session: Session, until done: () -> Bool) {
    let deadline = Date().addingTimeInterval(5)
    while !done(), Date() < deadline {
      var fd = pollfd(fd: session.wakeFileDescriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&fd, 1, 50)
      session.drainInbox()
    }
  }
}

extension Outcome {
  fileprivate var isDone: Bool {
    if case .done = self { return true }
    return false
  }
}

/// Answers that are true: `ok` only when the command took effect.
final class SessionHonestAnswerTests: XCTestCase {
  private func session(playing ids: String...) -> (Session, FakePlayer) {
    let player = FakePlayer()
    let session = Session(player: player, lyricsLoader: { _ in .notFound(reasons: ["none"]) })
    let tracks = ids.map { QueueFixture.track($0) }
    _ = session.execute(.playTracks(Command.TrackList(tracks)))
    session.handlePlayerEvents([.started(tracks[0], duration: 180)])
    return (session, player)
  }

  func testNextOnTheLastTrackIsRefusedAndPlaysOn() {
    let (session, player) = session(playing: "a", "b")
    XCTAssertEqual(session.execute(.next), .done(message: nil))
    player.resetCalls()
    XCTAssertEqual(session.execute(.next), .failed("this is the last track in the queue"))
    XCTAssertTrue(player.played.isEmpty)
    XCTAssertEqual(session.snapshot.track?.id, "b")
    XCTAssertFalse(session.queue.hasNext)
  }

  func testQueueEditsByPositionCountFromOneAndSayWhatIsOutside() {
    let (session, _) = session(playing: "a", "b", "c")
    XCTAssertEqual(session.execute(.queueMove(from: 3, to: 1)), .done(message: nil))
    XCTAssertEqual(session.queue.entries.map(\.track.id), ["c", "a", "b"])
    XCTAssertEqual(session.execute(.queueRemove(3)), .done(message: "removed Track b"))
    XCTAssertEqual(session.execute(.queueRemove(5)), .failed("no entry 5 in the queue (it has 2)"))
    XCTAssertEqual(
      session.execute(.queueMove(from: 2, to: 3)), .failed("Track a is already last in the queue"))
    XCTAssertEqual(
      session.execute(.queueMove(from: 1, to: 0)), .failed("Track c is already first in the queue"))
    XCTAssertEqual(session.execute(.queuePlay(1)), .done(message: nil))
    XCTAssertEqual(session.snapshot.track?.id, "c")
    XCTAssertEqual(session.execute(.queueList), .done(message: "2 in the queue"))
    var answer: Session.Answer?
    XCTAssertTrue(session.answer(.queueList) { answer = $0 })
    guard case .success(let list)? = answer else {
      return XCTFail("no list: \(String(describing: answer))")
    }
    XCTAssertTrue(list.hasPrefix(#"[{"artist":"Refrain Test Band","current":true"#), list)
  }

  func testAddingAFileThatIsNotThereIsRefusedWhenAdded() {
    let (session, _) = session(playing: "a")
    let answered = expectation(description: "answered")
    var outcome: Outcome?
    session.queueCommands.add("/nowhere/missing.mp3", playing: false) {
      outcome = $0
      answered.fulfill()
    }
    let deadline = Date().addingTimeInterval(5)
    while outcome == nil, Date() < deadline {
      RunLoop.current.run(until: Date().addingTimeInterval(0.01))
      session.drainInbox()
    }
    wait(for: [answered], timeout: 1)
    XCTAssertEqual(outcome, .failed("no such file: /nowhere/missing.mp3"))
    XCTAssertEqual(session.queue.count, 1, "nothing was queued")
  }
}
