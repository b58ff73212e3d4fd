import Foundation
import RefrainCore
import XCTest

@testable import RefrainDesktop

/// The pure mapping from Refrain's playback to MPRIS's properties and metadata.
final class MPRISMappingTests: XCTestCase {
  private func track(entry: Int? = 7, artist: String? = "달빛 우체국", album: String? = "밤의 노래")
    -> Track
  {
    var track = Track(
      id: "demo:umbrella", location: URL(fileURLWithPath: "/music/umbrella.mp3"),
      title: "우산 하나에 두 사람", artist: artist, album: album, duration: 32.7)
    track.queueEntry = entry
    return track
  }

  private func snapshot(
    _ state: PlayerState, track: Track?, duration: Double? = 32.7, volume: Int = 70,
    shuffled: Bool = false, repeatMode: RepeatMode = .off, queueCount: Int = 1
  ) -> PlaybackSnapshot {
    PlaybackSnapshot(
      state: state, track: track, index: track == nil ? nil : 0, queueCount: queueCount,
      position: 12.5, duration: duration, volume: volume, isShuffled: shuffled,
      repeatMode: repeatMode, lastError: nil, warning: nil, isFinished: false)
  }

  // MARK: - Player properties

  func testPlaybackStatusFollowsThePlayerState() {
    let expected: [PlayerState: MPRISPlayerState.PlaybackStatus] = [
      .playing: .playing, .loading: .playing, .paused: .paused, .stopped: .stopped,
      .idle: .stopped,
    ]
    for (state, status) in expected {
      XCTAssertEqual(MPRISPlayerState.PlaybackStatus(state), status, "\(state)")
    }
    XCTAssertEqual(
      MPRISPlayerState.PlaybackStatus.allCases.map(\.rawValue), ["Playing", "Paused", "Stopped"])
  }

  func testLoopStatusIsTheRepeatModeBothWays() {
    let pairs: [(RepeatMode, String)] = [(.off, "None"), (.one, "Track"), (.all, "Playlist")]
    for (mode, name) in pairs {
      let loop = MPRISPlayerState.LoopStatus(mode)
      XCTAssertEqual(loop.rawValue, name)
      XCTAssertEqual(loop.repeatMode, mode)
    }
  }

  func testVolumeIsAFractionOfTheVolumePercentage() {
    XCTAssertEqual(MPRISPlayerState.volume(percent: 70), 0.7, accuracy: 1e-12)
    XCTAssertEqual(MPRISPlayerState.percent(volume: 0.5), 50)
    XCTAssertEqual(MPRISPlayerState.percent(volume: 0.333), 33)
    XCTAssertEqual(MPRISPlayerState.percent(volume: 1.7), 100, "clamped above")
    XCTAssertEqual(MPRISPlayerState.percent(volume: -0.2), 0, "clamped below")
    XCTAssertNil(MPRISPlayerState.percent(volume: .nan))
  }

  func testPropertiesOfAPlayingTrack() {
    let state = MPRISPlayerState(
      snapshot: snapshot(.playing, track: track(), shuffled: true, repeatMode: .all),
      hasNext: true)
    XCTAssertEqual(state.playbackStatus, .playing)
    XCTAssertEqual(state.loopStatus, .playlist)
    XCTAssertTrue(state.shuffle)
    XCTAssertEqual(state.volume, 0.7, accuracy: 1e-12)
    XCTAssertTrue(state.canGoNext && state.canGoPrevious && state.canPlay && state.canPause)
    XCTAssertTrue(state.canSeek)
  }

  func testNothingLoadedCanNeitherPauseNorSeek() {
    let state = MPRISPlayerState(
      snapshot: snapshot(.idle, track: nil, queueCount: 0), hasNext: false)
    XCTAssertEqual(state.playbackStatus, .stopped)
    XCTAssertFalse(state.canGoNext || state.canGoPrevious || state.canPlay || state.canPause)
    XCTAssertFalse(state.canSeek)
  }

  func testAStreamOfUnknownLengthCannotSeek() {
    let state = MPRISPlayerState(
      snapshot: snapshot(.playing, track: track(), duration: nil), hasNext: false)
    XCTAssertFalse(state.canSeek)
    XCTAssertFalse(state.canGoNext)
  }

  func testATrackThatRefusesSeeksCannotSeekAndOneThatAsksAgainCan() {
    var refusing = track()
    refusing.seeking = .refused(reason: "seeking is not available")
    XCTAssertFalse(
      MPRISPlayerState(snapshot: snapshot(.playing, track: refusing), hasNext: false).canSeek)
    var asking = track()
    asking.seeking = .reRequest(parameter: "timeOffset")
    XCTAssertTrue(
      MPRISPlayerState(snapshot: snapshot(.playing, track: asking), hasNext: false).canSeek)
  }

  // MARK: - Track ids

  func testTrackIDsNameTheQueueEntry() {
    XCTAssertEqual(MPRISTrackID.path(for: track(entry: 7)), "/org/refrain/track/7")
    XCTAssertEqual(MPRISTrackID.path(for: track(entry: 0)), "/org/refrain/track/0")
    XCTAssertEqual(MPRISTrackID.path(for: track(entry: nil)), "/org/refrain/track/unqueued")
  }

  func testTheSameSongQueuedTwiceHasTwoIDs() {
    var queue = PlayQueue()
    queue.replaceAll(with: [track(entry: nil), track(entry: nil)], startAt: 0)
    let ids = queue.tracks.map(MPRISTrackID.path(for:))
    XCTAssertEqual(Set(ids).count, 2, "\(ids)")
    XCTAssertTrue(ids.allSatisfy { $0.hasPrefix(MPRISTrackID.prefix) })
  }

  // MARK: - Metadata

  func testMetadataOfACatalogTrack() {
    let lyrics = LRCParser.parse(
      """
      [00:02.00]첫 줄
      [00:04.00]둘째 줄
      """)
    let metadata = MPRISMetadata(
      track: track(), duration: 32.75,
      details: TrackDetails(
        albumArtist: "여러 가수", coverFile: URL(fileURLWithPath: "/cache/refrain/covers/ab.png")),
      lyrics: lyrics)
    XCTAssertEqual(metadata.trackID, "/org/refrain/track/7")
    XCTAssertEqual(metadata.length, 32_750_000)
    XCTAssertEqual(metadata.title, "우산 하나에 두 사람")
    XCTAssertEqual(metadata.artists, ["달빛 우체국"])
    XCTAssertEqual(metadata.album, "밤의 노래")
    XCTAssertEqual(metadata.albumArtists, ["여러 가수"])
    XCTAssertEqual(metadata.url, "file:///music/umbrella.mp3")
    XCTAssertEqual(metadata.artURL, "file:///cache/refrain/covers/ab.png")
    XCTAssertEqual(metadata.lyrics, "첫 줄\n둘째 줄")
  }

  func testAFileFromTheCommandLineTakesItsTags() {
    let file = Track(argument: "/music/Some Song.mp3")
    let metadata = MPRISMetadata(
      track: file, duration: nil,
      details: TrackDetails(title: "Tagged Title", artist: "Tagged Artist", album: "Tagged Album"))
    XCTAssertEqual(metadata.title, "Tagged Title")
    XCTAssertEqual(metadata.artists, ["Tagged Artist"])
    XCTAssertEqual(metadata.album, "Tagged Album")
    XCTAssertNil(metadata.length, "no length before the decoder reports one")
    XCTAssertNil(metadata.artURL)
    XCTAssertNil(metadata.lyrics)
  }

  func testTheQueuesFieldsWinOverTheTags() {
    let metadata = MPRISMetadata(
      track: track(), duration: nil,
      details: TrackDetails(title: "Other", artist: "Other", album: "Other"))
    XCTAssertEqual(metadata.title, "우산 하나에 두 사람")
    XCTAssertEqual(metadata.artists, ["달빛 우체국"])
    XCTAssertEqual(metadata.album, "밤의 노래")
    XCTAssertEqual(metadata.length, 32_700_000, "the queue's duration until the decoder's")
  }

  func testUnknownArtistAndAlbumAreLeftOut() {
    let metadata = MPRISMetadata(track: track(artist: nil, album: ""), duration: 3)
    XCTAssertEqual(metadata.artists, [])
    XCTAssertNil(metadata.album)
  }

  func testBlankLyricsAreNoText() {
    XCTAssertNil(MPRISMetadata.plainText(LRCParser.parse("[00:01.00]\n[00:02.00] ")))
  }

  func testOpenURIQueuesPathsAndStreams() {
    XCTAssertEqual(MPRISServer.queueItem(uri: "file:///music/a%20b.mp3"), "/music/a b.mp3")
    XCTAssertEqual(
      MPRISServer.queueItem(uri: "https://example.org/a.mp3"), "https://example.org/a.mp3")
    XCTAssertNil(MPRISServer.queueItem(uri: "ftp://example.org/a.mp3"))
    XCTAssertNil(MPRISServer.queueItem(uri: "not a uri"))
  }

  func testTheInstanceNameCarriesThePID() {
    XCTAssertEqual(
      MPRISServer.instanceName(pid: 4242), "org.mpris.MediaPlayer2.refrain.instance4242")
  }

  func testABusIsLookedForOnlyWhereItIsAnnounced() throws {
    XCTAssertFalse(MPRISServer.sessionBusMayExist(environment: [:]))
    XCTAssertFalse(MPRISServer.sessionBusMayExist(environment: ["DBUS_SESSION_BUS_ADDRESS": ""]))
    XCTAssertTrue(
      MPRISServer.sessionBusMayExist(environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"]))
    let runtime = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-bus-\(getpid())")
    try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: runtime) }
    XCTAssertFalse(MPRISServer.sessionBusMayExist(environment: ["XDG_RUNTIME_DIR": runtime.path]))
    FileManager.default.createFile(
      atPath: runtime.appendingPathComponent("bus").path, contents: nil)
    XCTAssertTrue(MPRISServer.sessionBusMayExist(environment: ["XDG_RUNTIME_DIR": runtime.path]))
  }
}
