import Foundation
import RefrainCore
import XCTest

/// Issue 16's listen rule: what counts as a listen, and when it is reported.
final class ListenCounterTests: XCTestCase {
  private let start = Date(timeIntervalSince1970: 1_700_000_000)

  private func track(
    _ id: String = "song", duration: Double = 200, provider: String? = "local",
    entry: Int? = 0
  ) -> Track {
    var track = Track(
      id: id, location: URL(fileURLWithPath: "/music/\(id).mp3"), title: id, artist: "Artist",
      duration: duration, provider: provider)
    track.queueEntry = entry
    return track
  }

  /// Samples `track` at each position in `positions` while playing; returns the positions
  /// at which a listen was reported, and the listens.
  private func play(
    _ counter: inout ListenCounter, _ track: Track, positions: some Sequence<Double>,
    playing: Bool = true
  ) -> [(position: Double, listen: Listen)] {
    var reported: [(Double, Listen)] = []
    for position in positions {
      if let listen = counter.sample(track: track, position: position, isPlaying: playing) {
        reported.append((position, listen))
      }
    }
    return reported
  }

  private func seconds(_ range: ClosedRange<Int>) -> [Double] { range.map(Double.init) }

  // MARK: - Straight play

  func testStraightPlayCountsAtHalfTheTrack() {
    let song = track(duration: 200)
    var counter = ListenCounter()
    let now = counter.handle(.started(song, duration: 200), at: start)
    XCTAssertEqual(now, NowPlaying(track: song, duration: 200, startedAt: start))
    let reported = play(&counter, song, positions: seconds(0...200))
    XCTAssertEqual(reported.map(\.position), [100])
    XCTAssertEqual(
      reported.first?.listen,
      Listen(track: song, listenedAt: start, duration: 200, playedSeconds: 100))
  }

  func testDurationFromStartedEventWinsOverCatalog() {
    let song = track(duration: 400)
    var counter = ListenCounter()
    _ = counter.handle(.started(song, duration: 60), at: start)
    XCTAssertEqual(play(&counter, song, positions: seconds(0...60)).map(\.position), [30])
  }

  func testTenMinuteTrackCountsAtFourMinutes() {
    let song = track(duration: 600)
    var counter = ListenCounter()
    _ = counter.handle(.started(song, duration: 600), at: start)
    XCTAssertEqual(play(&counter, song, positions: seconds(0...600)).map(\.position), [240])
  }

  func testSubSecondSamplesAddUp() {
    let song = track(duration: 60)
    var counter = ListenCounter()
    _ = counter.handle(.started(song, duration: 60), at: start)
    let positions = (0...240).map { Double($0) * 0.25 }
    XCTAssertEqual(play(&counter, song, positions: positions).map(\.position), [30])
  }

  // MARK: - Pauses and seeks

  func testPauseAddsNothing() {
    let song = track(duration: 200)
    var counter = ListenCounter()
    _ = counter.handle(.started(song, duration: 200), at: start)
    XCTAssertTrue(play(&counter, song, positions: seconds(0...50)).isEmpty)
    // Paused at 50 s for a long time: samples keep arriving, the position does not move.
    XCTAssertTrue(
      play(&counter, song, positions: Array(repeating: 50, count: 500), playing: false).isEmpty)
    XCTAssertEqual(counter.playedSeconds, 50)
    XCTAssertEqual(play(&counter, song, positions: seconds(51...120)).map(\.position), [100])
  }

  func testSeekDuringPauseAddsNothing() {
    let song = track(duration: 200)
    var counter = ListenCounter()
    _ = counter.handle(.started(song, duration: 200), at: start)
    _ = play(&counter, song, positions: seconds(0...10))
    _ = play(&counter, song, positions: [10, 150], playing: false)
    XCTAssertTrue(play(&counter, song, positions: seconds(150...200)).isEmpty)
    XCTAssertEqual(counter.playedSeconds, 60)
  }

  func testSeekForwardPastThresholdDoesNotCount() {
    let song = track(duration: 200)
    var counter = ListenCounter()
    _ = counter.handle(.started(song, duration: 200), at: start)
    XCTAssertTrue(play(&counter, song, positions: seconds(0...10) + seconds(150...200)).isEmpty)
    XCTAssertEqual(counter.playedSeconds, 60)
  }

  func testSmallSeekForwardIsNotCountedEither() {
    let song = track(duration: 200)
    var counter = ListenCounter()
    _ = counter.handle(.started(song, duration: 200), at: start)
    _ = play(&counter, song, positions: [0, 1, 2, 5, 6])
    XCTAssertEqual(counter.playedSeconds, 3)
  }

  func testSeekBackCountsOnlyRealTime() {
    let song = track(duration: 200)
    var counter = ListenCounter()
    _ = counter.handle(.started(song, duration: 200), at: start)
    // 0→60 (60 s), back to 0 and 0→40 again (40 s): 100 s heard, at the second 40.
    let reported = play(&counter, song, positions: seconds(0...60) + seconds(0...60))
    XCTAssertEqual(reported.map(\.position), [40])
    XCTAssertEqual(reported.first?.listen.playedSeconds, 100)
  }

  // MARK: - Skips and short tracks

  func testSkippedAtFortyNinePercentNeverCounts() {
    let song = track(duration: 200)
    let next = track("next", duration: 200, entry: 1)
    var counter = ListenCounter()
    _ = counter.handle(.started(song, duration: 200), at: start)
    XCTAssertTrue(play(&counter, song, positions: seconds(0...98)).isEmpty)
    _ = counter.handle(.started(next, duration: 200), at: start.addingTimeInterval(100))
    // Stale samples of the skipped track change nothing.
    XCTAssertTrue(play(&counter, song, positions: seconds(98...120)).isEmpty)
    XCTAssertEqual(counter.playedSeconds, 0)
  }

  func testTwentyNineSecondTrackNeverCounts() {
    let song = track(duration: 29)
    var counter = ListenCounter()
    XCTAssertNil(counter.handle(.started(song, duration: 29), at: start))
    XCTAssertTrue(play(&counter, song, positions: seconds(0...29)).isEmpty)
  }

  func testThirtySecondTrackCountsAtFifteen() {
    let song = track(duration: 30)
    var counter = ListenCounter()
    _ = counter.handle(.started(song, duration: 30), at: start)
    XCTAssertEqual(play(&counter, song, positions: seconds(0...30)).map(\.position), [15])
  }

  func testUnknownLengthNeverCounts() {
    let song = track(duration: 0, provider: nil)
    var stream = song
    stream.duration = nil
    var counter = ListenCounter()
    XCTAssertNil(counter.handle(.started(stream, duration: nil), at: start))
    XCTAssertTrue(play(&counter, stream, positions: seconds(0...600)).isEmpty)
  }

  func testEndedTrackStopsCounting() {
    let song = track(duration: 200)
    var counter = ListenCounter()
    _ = counter.handle(.started(song, duration: 200), at: start)
    _ = play(&counter, song, positions: seconds(0...50))
    _ = counter.handle(.failed(song, message: "gone"), at: start)
    XCTAssertTrue(play(&counter, song, positions: seconds(50...200)).isEmpty)
  }

  // MARK: - Repeats

  func testRepeatOneCountsEachFullPlay() {
    let song = track(duration: 100)
    var counter = ListenCounter()
    var listens: [Listen] = []
    for round in 0..<2 {
      let at = start.addingTimeInterval(Double(round) * 100)
      XCTAssertNotNil(counter.handle(.started(song, duration: 100), at: at))
      listens += play(&counter, song, positions: seconds(0...100)).map(\.listen)
      XCTAssertNil(counter.handle(.trackEnded(song), at: at.addingTimeInterval(100)))
    }
    XCTAssertEqual(listens.map(\.listenedAt), [start, start.addingTimeInterval(100)])
  }

  func testSameTrackQueuedTwiceCountsTwice() {
    let first = track(duration: 100, entry: 0)
    let second = track(duration: 100, entry: 1)
    var counter = ListenCounter()
    _ = counter.handle(.started(first, duration: 100), at: start)
    XCTAssertEqual(play(&counter, first, positions: seconds(0...100)).count, 1)
    _ = counter.handle(.trackEnded(first), at: start)
    _ = counter.handle(.started(second, duration: 100), at: start)
    XCTAssertEqual(play(&counter, second, positions: seconds(0...100)).count, 1)
  }

  func testPlayingOnPastThresholdReportsOnce() {
    let song = track(duration: 100)
    var counter = ListenCounter()
    _ = counter.handle(.started(song, duration: 100), at: start)
    XCTAssertEqual(play(&counter, song, positions: seconds(0...100) + seconds(0...100)).count, 1)
  }

  // MARK: - What never counts

  func testDeezerPreviewNeverCounts() {
    // The catalog gives the full song's length; the stream is the 30-second preview.
    let preview = track(duration: 215, provider: "deezer")
    var counter = ListenCounter()
    XCTAssertNil(counter.handle(.started(preview, duration: 30.04), at: start))
    XCTAssertTrue(play(&counter, preview, positions: seconds(0...30)).isEmpty)
    XCTAssertFalse(Listen.counts(track: preview, duration: nil))
  }

  func testFullLengthDeezerStreamCounts() {
    let full = track(duration: 215, provider: "deezer")
    XCTAssertTrue(Listen.counts(track: full, duration: 215))
  }

  func testDemoCatalogNeverCounts() {
    let demo = track(duration: 200, provider: "demo")
    var counter = ListenCounter()
    XCTAssertNil(counter.handle(.started(demo, duration: 200), at: start))
    XCTAssertTrue(play(&counter, demo, positions: seconds(0...200)).isEmpty)
  }

  func testLocalAndCommandLineFilesCount() {
    XCTAssertTrue(Listen.counts(track: track(provider: "local"), duration: 200))
    XCTAssertTrue(Listen.counts(track: Track(argument: "/tmp/song.mp3"), duration: 200))
  }

  func testThresholdIsHalfOrFourMinutes() {
    XCTAssertEqual(Listen.threshold(duration: 30), 15)
    XCTAssertEqual(Listen.threshold(duration: 479), 239.5)
    XCTAssertEqual(Listen.threshold(duration: 480), 240)
    XCTAssertEqual(Listen.threshold(duration: 3600), 240)
  }
}
