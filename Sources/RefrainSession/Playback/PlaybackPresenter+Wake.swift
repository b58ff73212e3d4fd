import Foundation
import RefrainCore

extension PlaybackPresenter {
  /// Seconds until the session changes what a front end shows, or `nil` for never.
  ///
  /// While playing: the next whole second of the audible position (a progress bar), and the
  /// next lyric line change (or word change with `includeWords`); soon, while the audible
  /// clock has not started yet; every 0.25 s while a track loads. Paused or stopped: never.
  ///
  /// `drawnAt` is the position the front end last drew from. The changes are counted from
  /// it (or from now, when now is earlier, as after a seek back), never from a later
  /// reading: a second or a line that began between drawing and asking is then due at
  /// once, where counting from now would skip it and leave the screen a whole second
  /// behind what is heard.
  func nextWake(includeWords: Bool = false, drawnAt: Double? = nil) -> Double? {
    switch player.state {
    case .playing:
      let position = min(drawnAt ?? .infinity, player.position)
      // Playing, but the audible clock has not started yet (no audio written since the
      // start, a seek or a resume; PulseAudio can take a second): look again soon, or the
      // position shown would freeze until the next input.
      var wake = player.delay(untilPosition: position.rounded(.down) + 1) ?? 0.05
      if let change = lyrics?.timeline.nextChange(
        after: position, includeWords: includeWords),
        let delay = player.delay(untilPosition: change)
      {
        wake = min(wake, delay)
      }
      return wake
    case .loading:
      return 0.25
    case .idle, .paused, .stopped:
      return nil
    }
  }
}
