import Foundation
import RefrainCore

// The event protocol between Refrain's presenter and its player.
//
// 1. `play(track)` replaces whatever plays. The presenter also drops the
//    prepared successor (`prepareNext(nil)`) first, so a stale one cannot
//    take over. It then waits in `.loading` for `.started(track)`.
// 2. On `.started(track)` for the current track, the presenter records the
//    duration and calls `prepareNext(queue.peekNext())`: the track to play
//    when this one ends naturally (itself under repeat one; `nil` at the end).
//    Whenever the queue or a mode changes what follows, it calls
//    `prepareNext` again with the new successor.
// 3. A player that holds a prepared successor when the current track ends must
//    report `.trackEnded(current)`, then begin the successor by itself
//    without a gap and report `.started(successor)` (or `.failed(successor)`).
//    On `.trackEnded` the presenter advances the queue; when the queue's new
//    current track is the prepared one, it does not call `play`, and waits in
//    `.loading` for that `.started`. Otherwise (nothing prepared, or the
//    queue disagrees) it calls `play` itself, or stops when the queue is done.
// 4. On `.failed(track)` for the current track, the presenter marks it
//    unplayable, records why, and plays the next playable track (an explicit
//    skip, so repeat one does not retry it). A failure of the prepared
//    successor, reported while the current track still plays, marks that
//    track and prepares the one after it.
// 5. Events for tracks the presenter has moved away from (the user skipped
//    before they arrived) are stale and ignored: `.started` counts only while
//    loading or playing the same track, `.trackEnded` only while playing it.
//    "The same" means the same queue slot: tracks taken from the queue carry
//    their entry (`Track.queueEntry`), the player echoes the track it was given,
//    so the same song queued twice is told apart.

/// Consuming the player's events.
extension PlaybackPresenter {
  /// Drains the player's pending events and handles each, in order.
  ///
  /// Call this when the player's wake-up file descriptor becomes readable.
  func handlePendingEvents() {
    for event in player.drainEvents() {
      handle(event)
    }
  }

  /// Applies one player event to the queue and the state.
  func handle(_ event: PlayerEvent) {
    switch event {
    case .started(let track, let duration):
      trackStarted(track, duration: duration)
    case .trackEnded(let track):
      trackEnded(track)
    case .failed(let track, let message):
      trackFailed(track, message: message)
    case .warning(let message):
      warning = message
    case .stream(let track, let news):
      streamNews(news, for: track)
    }
  }

  /// Follows what a live stream says: its title and its reconnections. What the prepared
  /// successor says is kept for when it starts; news of a track the presenter moved away
  /// from is stale and ignored.
  func streamNews(_ news: StreamNews, for track: Track) {
    if let prepared = preparedTrack, track.isSameEntry(as: prepared),
      !track.isSameEntry(as: queue.current)
    {
      var stream =
        preparedStream.flatMap { $0.track.isSameEntry(as: track) ? $0 : nil }
        ?? (track: track, isLive: false, title: nil)
      switch news {
      case .live: stream.isLive = true
      case .title(let title): stream.title = title
      case .reconnecting, .reconnected, .stalled, .flowing, .notice: break
      }
      preparedStream = stream
      return
    }
    guard track.isSameEntry(as: queue.current), state != .idle, state != .stopped else { return }
    switch news {
    case .live: isLive = true
    case .title(let title): streamTitle = title
    case .reconnecting(let reason, let delay):
      streamNotice = "stream lost (\(reason)): reconnecting in \(String(format: "%.1f", delay)) s"
    case .reconnected: streamNotice = nil
    case .stalled(let reason): stall = reason
    case .flowing: stall = nil
    case .notice(let text): warning = text
    }
  }

  /// Forgets the last track's stream news (a new track is asked for).
  func clearStream() {
    streamTitle = nil
    isLive = false
    streamNotice = nil
    stall = nil
  }

  // MARK: - Internals

  /// Records the duration and prepares the successor for a gapless hand-over.
  func trackStarted(_ track: Track, duration: Double?) {
    guard state == .loading || state == .playing, track.isSameEntry(as: queue.current) else {
      return
    }
    self.duration = duration ?? track.duration
    state = startPaused ? .paused : .playing
    startPaused = false
    let upcoming = queue.peekNext()
    player.prepareNext(queue.forPlayback(upcoming))
    preparedTrack = upcoming
  }

  /// Advances after a natural end, letting the player hand over to the prepared track.
  func trackEnded(_ track: Track) {
    guard state == .playing, track.isSameEntry(as: queue.current) else { return }
    let handedOver = preparedTrack
    preparedTrack = nil
    guard let upcoming = queue.nextAfterTrackEnd() else {
      halt(finished: true)
      return
    }
    if let handedOver, handedOver.isSameEntry(as: upcoming) {
      state = .loading
      duration = upcoming.duration
      clearStream()
      if let stream = preparedStream, stream.track.isSameEntry(as: upcoming) {
        isLive = stream.isLive
        streamTitle = stream.title
      }
      preparedStream = nil
    } else {
      start(upcoming)
    }
  }

  /// Marks a failed track unplayable and moves on to the next playable one.
  func trackFailed(_ track: Track, message: String) {
    if track.isSameEntry(as: queue.current), let index = queue.currentIndex, state != .idle,
      state != .stopped
    {
      recordFailure(of: track, at: index, message: message)
      if let upcoming = queue.next() {
        start(upcoming)
      } else {
        halt(finished: true)
      }
    } else if let prepared = preparedTrack, track.isSameEntry(as: prepared),
      let index = queue.peekNextIndex(), track.isSameEntry(as: queue.track(at: index))
    {
      recordFailure(of: track, at: index, message: message)
      let upcoming = queue.peekNext()
      player.prepareNext(queue.forPlayback(upcoming))
      preparedTrack = upcoming
    }
  }

  /// Marks the track at `index` unplayable and remembers why.
  private func recordFailure(of track: Track, at index: Int, message: String) {
    queue.markUnplayable(at: index, reason: message)
    skipped.append(SkippedTrack(track: track, reason: message))
    lastError = "Skipped \(track.title): \(message)"
  }
}
