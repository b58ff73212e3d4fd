import Foundation
import RefrainCore

/// Editing the queue while it plays; the player's prepared successor follows along.
extension PlaybackPresenter {
  /// Adds tracks at the end of the queue (at random upcoming places while shuffled).
  func enqueue(_ tracks: [Track]) {
    queue.append(contentsOf: tracks)
    refreshPreparedNext()
  }

  /// Adds tracks to play right after the current one.
  func enqueueNext(_ tracks: [Track]) {
    queue.insertNext(contentsOf: tracks)
    refreshPreparedNext()
  }

  /// Plays the track at `index` now, as when the user picks it in the queue pane.
  ///
  /// Picking a track that failed before retries it.
  func jump(to index: Int) {
    if let track = queue.select(at: index) { start(track) }
  }

  /// Removes the track at `index`.
  ///
  /// Removing the track that plays moves on to the track a skip would reach,
  /// or stops when there is none.
  func removeFromQueue(at index: Int) {
    let wasCurrent = index == queue.currentIndex
    guard queue.remove(at: index) != nil else { return }
    guard wasCurrent else {
      refreshPreparedNext()
      return
    }
    guard state != .idle, state != .stopped else { return }
    if let track = queue.current {
      start(track)
    } else {
      halt(finished: false)
    }
  }

  /// Moves the track at `from` to `to` (its index afterwards); playback goes on.
  func moveInQueue(from: Int, to: Int) {
    guard queue.move(from: from, to: to) else { return }
    refreshPreparedNext()
  }

  /// Stops playback and empties the queue.
  func clearQueue() {
    queue.clear()
    halt(finished: false)
  }
}
