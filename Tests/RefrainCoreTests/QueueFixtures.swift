import Foundation
import RefrainCore
import RefrainTestSupport

// MARK: - Fixtures

/// Test tracks and queues for Refrain's queue and presenter tests.
enum QueueFixture {
  /// A three-minute track whose id, file name and title derive from `id`.
  static func track(_ id: String, duration: Double? = 180) -> Track {
    Track(
      id: id, location: URL(fileURLWithPath: "/music/\(id).mp3"), title: "Track \(id)",
      artist: "Refrain Test Band", album: "Fixtures", duration: duration)
  }

  /// Tracks for each id, in order.
  static func tracks(_ ids: String...) -> [Track] {
    ids.map { track($0) }
  }

  /// Tracks named "t0", "t1", … for larger queues.
  static func numbered(_ count: Int) -> [Track] {
    (0..<count).map { track("t\($0)") }
  }

  /// A queue of `ids` with a fixed shuffle seed.
  static func queue(
    _ ids: String..., startAt: Int? = 0, repeatMode: RepeatMode = .off, seed: UInt64 = 42
  ) -> PlayQueue {
    PlayQueue(
      ids.map { track($0) }, startAt: startAt, repeatMode: repeatMode,
      random: SeededRandom(seed: seed))
  }
}

/// Presenters over a fake player, for Refrain's presenter tests.
enum PresenterFixture {
  /// A presenter that has started the track at `startAt` of `ids`, with the call log cleared.
  ///
  /// The player has reported `.started` with a duration of 180 seconds, so the
  /// presenter is playing and has prepared the successor.
  static func playing(
    _ ids: String..., startAt: Int = 0, repeatMode: RepeatMode = .off
  ) -> (PlaybackPresenter, FakePlayer) {
    let player = FakePlayer()
    let tracks = ids.map { QueueFixture.track($0) }
    let queue = PlayQueue(repeatMode: repeatMode, random: SeededRandom(seed: 42))
    let presenter = PlaybackPresenter(player: player, queue: queue)
    presenter.playAll(tracks, startAt: startAt)
    presenter.handle(.started(tracks[startAt], duration: 180))
    player.resetCalls()
    return (presenter, player)
  }
}
