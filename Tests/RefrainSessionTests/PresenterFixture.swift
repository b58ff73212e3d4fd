import Foundation
import RefrainCore
import RefrainTestSupport

@testable import RefrainSession

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
