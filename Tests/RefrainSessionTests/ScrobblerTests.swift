import Foundation
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainSession

/// An outbox that records what the scrobbler handed it.
final class RecordingOutbox: ScrobbleOutbox, @unchecked Sendable {
  private let lock = NSLock()
  private var announced: [NowPlaying] = []
  private var queued = 0

  var nowPlaying: [NowPlaying] { lock.withLock { announced } }
  var queuedCount: Int { lock.withLock { queued } }

  func announce(_ nowPlaying: NowPlaying) { lock.withLock { announced.append(nowPlaying) } }
  func listensQueued() { lock.withLock { queued += 1 } }
}

/// The scrobbler as a front end of the session: events and position samples in, listens
/// queued in the library off the loop's thread.
final class ScrobblerTests: XCTestCase {
  private let wallClock = Date(timeIntervalSince1970: 1_700_000_000)

  private func track(provider: String? = "local", artist: String? = "Artist") -> Track {
    Track(
      id: "t", location: URL(fileURLWithPath: "/music/t.mp3"), title: "Title", artist: artist,
      album: "Album", duration: 60, provider: provider)
  }

  typealias Rig = (Session, FakePlayer, Scrobbler, MemoryLibrary, RecordingOutbox)

  /// A session over a fake player, with a scrobbler whose clock reads `wallClock`.
  private func rig(describe: @escaping @Sendable (Track) -> Track = { $0 }) -> Rig {
    let player = FakePlayer()
    let library = MemoryLibrary()
    let outbox = RecordingOutbox()
    let session = Session(
      player: player, library: library, lyricsLoader: { _ in .notFound(reasons: []) })
    let clock = wallClock
    let scrobbler = Scrobbler(
      session: session, services: [.listenBrainz], library: library, outbox: outbox,
      now: { clock }, describe: describe)
    return (session, player, scrobbler, library, outbox)
  }

  /// A session playing `track` (the player says it lasts `duration`), with a scrobbler.
  private func playing(
    _ track: Track, duration: Double = 60,
    describe: @escaping @Sendable (Track) -> Track = { $0 }
  ) -> Rig {
    let (session, player, scrobbler, library, outbox) = rig(describe: describe)
    session.playback.playSingle(track)
    player.setState(.playing)
    player.emit(.started(track, duration: duration))
    session.handlePlayerEvents(player.drainEvents())
    return (session, player, scrobbler, library, outbox)
  }

  /// Plays from `from` to `to` in one-second samples.
  private func play(_ player: FakePlayer, _ scrobbler: Scrobbler, from: Int, to: Int) {
    for second in from...to {
      player.position = Double(second)
      scrobbler.sample()
    }
  }

  func testStartIsAnnouncedAndTheListenQueuedAtHalfWithTheStartTime() {
    let (_, player, scrobbler, library, outbox) = playing(track())
    XCTAssertTrue(scrobbler.waitForHandOffs(seconds: 5))
    XCTAssertEqual(outbox.nowPlaying.map(\.startedAt), [wallClock])
    play(player, scrobbler, from: 0, to: 29)
    XCTAssertTrue(scrobbler.waitForHandOffs(seconds: 5))
    XCTAssertTrue(library.queuedListens.isEmpty, "29 s of 60 is not a listen")
    play(player, scrobbler, from: 30, to: 40)
    XCTAssertTrue(scrobbler.waitForHandOffs(seconds: 5))
    XCTAssertEqual(library.queuedListens.map(\.listenedAt), [wallClock])
    XCTAssertEqual(outbox.queuedCount, 1)
  }

  func testATrackStartedPausedIsAnnouncedWhenItPlays() {
    let (session, player, scrobbler, _, outbox) = rig()
    let song = track()
    session.playback.restore([song], startAt: 0, position: 0)
    player.emit(.started(song, duration: 60))
    session.handlePlayerEvents(player.drainEvents())
    scrobbler.sample()
    XCTAssertTrue(scrobbler.waitForHandOffs(seconds: 5))
    XCTAssertTrue(outbox.nowPlaying.isEmpty, "restored paused: not playing yet")
    _ = session.execute(.play)
    scrobbler.sample()
    scrobbler.sample()
    XCTAssertTrue(scrobbler.waitForHandOffs(seconds: 5))
    XCTAssertEqual(outbox.nowPlaying.count, 1, "announced once it plays, and once")
  }

  func testPausedTimeAndSeeksDoNotCount() {
    let (session, player, scrobbler, library, _) = playing(track())
    play(player, scrobbler, from: 0, to: 20)
    _ = session.execute(.pause)
    play(player, scrobbler, from: 20, to: 20)
    _ = session.execute(.seek(.absolute(55)))
    _ = session.execute(.play)
    play(player, scrobbler, from: 55, to: 60)
    XCTAssertTrue(scrobbler.waitForHandOffs(seconds: 5))
    XCTAssertTrue(library.queuedListens.isEmpty, "25 s heard of 60")
  }

  func testDeezerPreviewIsNeverAnnouncedNorQueued() {
    let (_, player, scrobbler, library, outbox) = playing(
      track(provider: "deezer"), duration: 30)
    play(player, scrobbler, from: 0, to: 30)
    XCTAssertTrue(scrobbler.waitForHandOffs(seconds: 5))
    XCTAssertTrue(outbox.nowPlaying.isEmpty)
    XCTAssertTrue(library.queuedListens.isEmpty)
  }

  func testDemoTrackIsNeverQueued() {
    let (_, player, scrobbler, library, outbox) = playing(track(provider: "demo"))
    play(player, scrobbler, from: 0, to: 60)
    XCTAssertTrue(scrobbler.waitForHandOffs(seconds: 5))
    XCTAssertTrue(outbox.nowPlaying.isEmpty)
    XCTAssertTrue(library.queuedListens.isEmpty)
  }

  func testTrackWithoutArtistIsDescribedFromItsTagsFirst() {
    let (_, player, scrobbler, library, outbox) = playing(
      track(artist: nil),
      describe: { track in
        var tagged = track
        tagged.artist = "From Tags"
        return tagged
      })
    play(player, scrobbler, from: 0, to: 31)
    XCTAssertTrue(scrobbler.waitForHandOffs(seconds: 5))
    XCTAssertEqual(outbox.nowPlaying.map(\.track.artist), ["From Tags"])
    XCTAssertEqual(library.queuedListens.map(\.track.artist), ["From Tags"])
  }

  func testTrackWithoutArtistIsNotQueued() {
    let (_, player, scrobbler, library, outbox) = playing(track(artist: nil))
    play(player, scrobbler, from: 0, to: 60)
    XCTAssertTrue(scrobbler.waitForHandOffs(seconds: 5))
    XCTAssertTrue(outbox.nowPlaying.isEmpty)
    XCTAssertTrue(library.queuedListens.isEmpty)
  }
}
