import Foundation

/// Publishing snapshots when, and only when, something a pane shows changed.
extension PlaybackPresenter {
  /// What a pane can see, minus the ever-moving position.
  struct ChangeKey: Equatable {
    var snapshot: PlaybackSnapshot
    var queue: PlayQueue
    var seekCount: Int
    var skippedCount: Int
  }

  /// Runs `body`, then bumps ``version`` and calls ``onChange`` if anything visible changed.
  func publishingChanges(_ body: () -> Void) {
    let before = changeKey
    body()
    guard changeKey != before else { return }
    version += 1
    onChange?(snapshot)
  }

  /// The current change key.
  var changeKey: ChangeKey {
    ChangeKey(
      snapshot: makeSnapshot(position: 0), queue: queue, seekCount: seekCount,
      skippedCount: skipped.count)
  }

  /// Builds a snapshot with the given position.
  func makeSnapshot(position: Double) -> PlaybackSnapshot {
    PlaybackSnapshot(
      state: state, track: queue.current, index: queue.currentIndex, queueCount: queue.count,
      position: position, duration: duration, volume: volume, isShuffled: queue.isShuffled,
      repeatMode: queue.repeatMode, lastError: lastError, warning: warning,
      isFinished: isFinished)
  }
}
