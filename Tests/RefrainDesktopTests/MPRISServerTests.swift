import Foundation
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainDesktop
@testable import RefrainSession

/// An MPRIS endpoint that records what the server published and hands it requests.
final class RecordingEndpoint: MPRISEndpoint {
  var requests: [MPRISRequest] = []
  var states: [MPRISPlayerState] = []
  var metadata: [MPRISMetadata?] = []
  var anchors: [MPRISPosition] = []
  var seeks: [Int64] = []
  var notifications: [(summary: String, body: String, icon: URL?)] = []
  var stopped = false

  let wakeFileDescriptor: Int32 = -1

  func takeRequests() -> [MPRISRequest] {
    defer { requests = [] }
    return requests
  }

  func publish(_ state: MPRISPlayerState) { states.append(state) }
  func publish(_ metadata: MPRISMetadata?) { self.metadata.append(metadata) }
  func anchor(_ position: MPRISPosition) { anchors.append(position) }
  func seeked(to microseconds: Int64) { seeks.append(microseconds) }
  func notify(summary: String, body: String, icon: URL?) {
    notifications.append((summary, body, icon))
  }
  func stop() { stopped = true }
}

/// The MPRIS front end over a real session and a fake player: requests become the session's
/// commands, and every change is published once.
final class MPRISServerTests: XCTestCase {
  private let songs = (1...3).map { number in
    Track(
      id: "song\(number)", location: URL(fileURLWithPath: "/music/song\(number).mp3"),
      title: "Song \(number)", artist: "Artist", album: "Album", duration: 30)
  }

  private var player = FakePlayer()
  private var session: Session!
  private var endpoint = RecordingEndpoint()
  private var server: MPRISServer!
  private var quits = 0
  private var logged: [String] = []

  override func setUp() {
    player = FakePlayer()
    session = Session(player: player, lyricsLoader: { _ in .notFound(reasons: []) })
    endpoint = RecordingEndpoint()
    server = MPRISServer(
      session: session, endpoint: endpoint, details: nil, log: { self.logged.append($0) },
      onQuit: { self.quits += 1 })
  }

  /// Plays the queue from its first track, as the player reports it.
  private func playQueue() {
    session.playback.playAll(songs, startAt: 0)
    startCurrent()
  }

  private func startCurrent() {
    guard let current = session.playback.queue.current else { return XCTFail("no current track") }
    player.setState(.playing)
    player.emit(.started(current, duration: 30))
    session.handlePlayerEvents(player.drainEvents())
    server.refresh()
  }

  private func send(_ requests: MPRISRequest...) {
    endpoint.requests = requests
    server.handle()
  }

  // MARK: - Publishing

  func testStartingPublishesTheSessionAsItIs() {
    XCTAssertEqual(endpoint.states.last?.playbackStatus, .stopped)
    XCTAssertEqual(endpoint.metadata.count, 1)
    XCTAssertNil(endpoint.metadata.last ?? nil, "no track: empty metadata")
  }

  func testATrackChangePublishesNewMetadataOnce() throws {
    playQueue()
    let first = try XCTUnwrap(endpoint.metadata.last ?? nil)
    XCTAssertEqual(first.title, "Song 1")
    XCTAssertEqual(first.length, 30_000_000)
    let published = endpoint.metadata.count
    server.refresh()
    server.refresh()
    XCTAssertEqual(endpoint.metadata.count, published, "nothing changed, nothing published")
    send(.next)
    startCurrent()
    let second = try XCTUnwrap(endpoint.metadata.last ?? nil)
    XCTAssertEqual(second.title, "Song 2")
    XCTAssertNotEqual(second.trackID, first.trackID)
  }

  func testThePositionAnchorAdvancesOnlyWhilePlaying() throws {
    playQueue()
    player.position = 4
    server.refresh()
    let playing = try XCTUnwrap(endpoint.anchors.last)
    XCTAssertEqual(
      playing, MPRISPosition(microseconds: 4_000_000, advancing: true, limit: 30_000_000))
    send(.pause)
    let paused = try XCTUnwrap(endpoint.anchors.last)
    XCTAssertFalse(paused.advancing)
    XCTAssertEqual(endpoint.states.last?.playbackStatus, .paused)
  }

  func testEverySeekIsAnnouncedWhateverItsSource() {
    playQueue()
    XCTAssertEqual(session.execute(.seek(.absolute(9))), .done(message: nil))  // keys or ctl
    server.refresh()
    XCTAssertEqual(endpoint.seeks, [9_000_000])
    send(.seek(offset: 2_000_000))  // MPRIS itself
    XCTAssertEqual(endpoint.seeks, [9_000_000, 11_000_000])
    XCTAssertEqual(player.lastSeek, 11)
    server.refresh()
    XCTAssertEqual(endpoint.seeks.count, 2, "one Seeked per seek")
  }

  // MARK: - Requests

  func testTransportRequestsReachThePlayer() {
    playQueue()
    send(.playPause)
    XCTAssertEqual(session.playback.state, .paused)
    send(.play)
    XCTAssertEqual(session.playback.state, .playing)
    send(.pause)
    XCTAssertEqual(session.playback.state, .paused)
    send(.stop)
    XCTAssertEqual(session.playback.state, .stopped)
    XCTAssertEqual(endpoint.states.last?.playbackStatus, .stopped)
  }

  func testSeekingPastTheEndActsAsNext() {
    playQueue()
    player.position = 25
    send(.seek(offset: 10_000_000))
    XCTAssertEqual(session.playback.queue.current?.title, "Song 2")
    XCTAssertEqual(endpoint.seeks, [], "a new track, not a seek")
  }

  func testSetPositionIgnoresAStaleTrackID() throws {
    playQueue()
    let current = try XCTUnwrap(session.playback.queue.current)
    let stale = MPRISTrackID.path(for: try XCTUnwrap(session.playback.queue.tracks.last))
    send(.setPosition(trackID: stale, position: 5_000_000))
    XCTAssertNil(player.lastSeek)
    send(.setPosition(trackID: MPRISTrackID.path(for: current), position: 31_000_000))
    XCTAssertNil(player.lastSeek, "past the end")
    send(.setPosition(trackID: MPRISTrackID.path(for: current), position: 10_000_000))
    XCTAssertEqual(player.lastSeek, 10)
    XCTAssertEqual(endpoint.seeks, [10_000_000])
  }

  func testVolumeLoopAndShuffleWritesChangeTheSession() {
    playQueue()
    send(.setVolume(0.5), .setLoop(.playlist), .setShuffle(true))
    XCTAssertEqual(player.lastVolume, 50)
    XCTAssertEqual(session.playback.queue.repeatMode, .all)
    XCTAssertTrue(session.playback.queue.isShuffled)
    let state = endpoint.states.last
    XCTAssertEqual(state?.volume ?? 0, 0.5, accuracy: 1e-12)
    XCTAssertEqual(state?.loopStatus, .playlist)
    XCTAssertEqual(state?.shuffle, true)
    send(.setShuffle(true), .setLoop(.track))
    XCTAssertTrue(session.playback.queue.isShuffled, "Shuffle true twice stays on")
    XCTAssertEqual(session.playback.queue.repeatMode, .one)
  }

  func testOpenURIQueuesTheFileAndPlaysIt() {
    playQueue()
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-openuri-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("new song.mp3")
    FileManager.default.createFile(atPath: file.path, contents: Data())
    send(.openURI(file.absoluteString))
    // The file is described by its tags off the session's thread, then queued and played.
    let deadline = Date().addingTimeInterval(5)
    while session.playback.queue.count < 4, Date() < deadline {
      usleep(5_000)
      session.drainInbox()
    }
    XCTAssertEqual(session.playback.queue.count, 4)
    XCTAssertEqual(player.played.last?.location.path, file.path)
  }

  func testQuitIsTheFrontEndsAndNoBusStopsQuietly() {
    send(.quit)
    XCTAssertEqual(quits, 1)
    send(.connected(busName: "org.mpris.MediaPlayer2.refrain"))
    XCTAssertEqual(server.ownedName, "org.mpris.MediaPlayer2.refrain")
    XCTAssertTrue(server.isRunning)
    send(.unavailable(reason: "no bus"))
    XCTAssertTrue(endpoint.stopped)
    XCTAssertFalse(server.isRunning)
    XCTAssertEqual(logged.count, 2)
    XCTAssertTrue(logged.last?.contains("no session bus") ?? false, "\(logged)")
  }

  func testDetailsArriveThroughTheInbox() throws {
    let details: TrackDetailsLookup = { _ in
      TrackDetails(albumArtist: "Band", coverFile: URL(fileURLWithPath: "/covers/x.png"))
    }
    server = MPRISServer(
      session: session, endpoint: endpoint, details: details, log: { _ in }, onQuit: {})
    playQueue()
    let deadline = Date().addingTimeInterval(5)
    while (endpoint.metadata.last ?? nil)?.artURL == nil, Date() < deadline {
      var descriptors = server.pollDescriptors
      _ = poll(&descriptors, nfds_t(descriptors.count), 50)
      server.handle(descriptors)
    }
    let metadata = try XCTUnwrap(endpoint.metadata.last ?? nil)
    XCTAssertEqual(metadata.artURL, "file:///covers/x.png")
    XCTAssertEqual(metadata.albumArtists, ["Band"])
  }

  // MARK: - Notifications

  private func waitForDetails(_ what: String, _ done: () -> Bool) {
    let deadline = Date().addingTimeInterval(5)
    while !done(), Date() < deadline {
      var descriptors = server.pollDescriptors
      _ = poll(&descriptors, nfds_t(descriptors.count), 50)
      server.handle(descriptors)
    }
    XCTAssertTrue(done(), "waited 5 s for \(what)")
  }

  func testEachTrackChangeNotifiesOnceWithItsCover() {
    let details: TrackDetailsLookup = { track in
      TrackDetails(coverFile: URL(fileURLWithPath: "/covers/\(track.id).png"))
    }
    server = MPRISServer(
      session: session, endpoint: endpoint, details: details, notifies: true, log: { _ in },
      onQuit: {})
    playQueue()
    waitForDetails("the first notification") { endpoint.notifications.count == 1 }
    XCTAssertEqual(endpoint.notifications.first?.summary, "Song 1")
    XCTAssertEqual(endpoint.notifications.first?.body, "Artist — Album")
    XCTAssertEqual(endpoint.notifications.first?.icon?.path, "/covers/song1.png")
    send(.next)
    startCurrent()
    waitForDetails("the second notification") { endpoint.notifications.count == 2 }
    XCTAssertEqual(endpoint.notifications.last?.summary, "Song 2")
    for _ in 0..<3 { server.refresh() }
    XCTAssertEqual(endpoint.notifications.count, 2, "once per track")
  }

  func testNoNotificationWithoutTheSetting() {
    let details: TrackDetailsLookup = { _ in TrackDetails() }
    server = MPRISServer(
      session: session, endpoint: endpoint, details: details, log: { _ in }, onQuit: {})
    playQueue()
    waitForDetails("the details") { server.isRunning && endpoint.metadata.count >= 2 }
    XCTAssertTrue(endpoint.notifications.isEmpty, "desktop.notify is off")

  }

  func testASessionRestoredPausedIsAnnouncedWhenItPlays() {
    let details: TrackDetailsLookup = { _ in
      TrackDetails(coverFile: URL(fileURLWithPath: "/covers/restored.png"))
    }
    server = MPRISServer(
      session: session, endpoint: endpoint, details: details, notifies: true, log: { _ in },
      onQuit: {})
    session.playback.restore(songs, startAt: 1, position: 12)
    guard let current = session.playback.queue.current else { return XCTFail("no track") }
    player.emit(.started(current, duration: 30))
    session.handlePlayerEvents(player.drainEvents())
    waitForDetails("the details") { (endpoint.metadata.last ?? nil)?.artURL != nil }
    XCTAssertEqual(session.playback.state, .paused)
    XCTAssertTrue(endpoint.notifications.isEmpty, "nothing while the restored session waits")
    session.playback.togglePlay()
    player.setState(.playing)
    server.refresh()
    XCTAssertEqual(endpoint.notifications.map(\.summary), ["Song 2"], "announced when it plays")
  }
}
