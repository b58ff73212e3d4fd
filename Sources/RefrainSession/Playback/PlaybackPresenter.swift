import Foundation
import RefrainCore

/// Drives playback for Refrain: applies the user's commands to the player and
/// the queue, consumes the player's events and publishes snapshots.
///
/// The presenter holds either a single track (``playSingle(_:)``, a queue of
/// one) or a queue (``playAll(_:startAt:)``). It keeps its own view of the
/// state, because the player works on its own thread and reports back later
/// through ``handle(_:)``; see `PlaybackPresenter+Events.swift` for the event
/// protocol, including the gapless hand-over.
///
/// Thread confinement: a presenter is not thread-safe and deliberately not
/// `Sendable`. Create it, call it, feed it events and read its snapshots on
/// one thread, the main loop's. The player may live on any thread; only its
/// events cross over, through ``handlePendingEvents()``.
final class PlaybackPresenter {
  /// How far into a track ``previous()`` restarts it instead of going back.
  static let restartThreshold: Double = 3

  /// The queue: album order, current track, shuffle, repeat, unplayable marks.
  internal(set) var queue: PlayQueue
  /// The presenter's view of the player's state.
  internal(set) var state: PlayerState = .idle
  /// The current track's duration in seconds, when known.
  internal(set) var duration: Double?
  /// The volume, 0...100 percent.
  internal(set) var volume: Int
  /// Whether the queue played to its end and playback stopped on its own.
  internal(set) var isFinished = false
  /// The current track's lyrics, followed along the audible position.
  internal(set) var lyrics: LyricFollower?
  /// The user's lyric offset for the current track, in ms (positive shows lines earlier).
  internal(set) var lyricOffsetMs = 0
  /// Why the last track was skipped, for the status bar.
  internal(set) var lastError: String?
  /// The player's last non-fatal warning.
  internal(set) var warning: String?
  /// What the live stream playing now says is on air; `nil` for other tracks.
  internal(set) var streamTitle: StreamTitle?
  /// Whether the current track is a live stream (internet radio).
  internal(set) var isLive = false
  /// Why the live stream playing now is reconnecting, while it is; `nil` otherwise.
  internal(set) var streamNotice: String?
  /// Why the stream playing now has stalled, while it has; `nil` otherwise.
  internal(set) var stall: String?
  /// Every track skipped since the queue was last replaced, oldest first.
  internal(set) var skipped: [SkippedTrack] = []
  /// How many seeks were asked of the player so far, from any source (keys, a lyric line,
  /// `ctl`, MPRIS, `previous` restarting a track): front ends compare it to announce seeks.
  internal(set) var seekCount = 0

  /// The player this presenter owns.
  let player: any AudioPlayer
  /// The track last handed to `player.prepareNext`, which the player will start
  /// by itself when the current track ends; `nil` when nothing is prepared.
  var preparedTrack: Track?
  /// What the prepared successor, a live stream, said before it started: applied when the
  /// player hands over to it.
  var preparedStream: (track: Track, isLive: Bool, title: StreamTitle?)?
  /// Whether the track being loaded should start paused (a restored session).
  var startPaused = false

  /// Creates a presenter that owns `player`.
  ///
  /// - Parameters:
  ///   - player: The audio player; the presenter is its only caller.
  ///   - queue: The starting queue; pass one with a seeded generator in tests.
  ///   - volume: The starting volume, clamped to 0...100 and sent to the player.
  init(player: any AudioPlayer, queue: PlayQueue = PlayQueue(), volume: Int = 100) {
    self.player = player
    self.queue = queue
    self.volume = min(max(volume, 0), 100)
    player.setVolume(self.volume)
  }

  /// The current picture of playback, with the player's audible position.
  var snapshot: PlaybackSnapshot {
    PlaybackSnapshot(
      state: state, track: queue.current, index: queue.currentIndex, queueCount: queue.count,
      position: isTrackLoaded ? player.position : 0, duration: duration, volume: volume,
      isShuffled: queue.isShuffled, repeatMode: queue.repeatMode, lastError: lastError,
      warning: warning, isFinished: isFinished,
      replayGain: isTrackLoaded ? player.appliedGain : nil, streamTitle: streamTitle,
      isLive: isLive, streamNotice: streamNotice, stall: stall)
  }

  // MARK: - Starting

  /// Plays one track on its own, replacing the queue.
  func playSingle(_ track: Track) {
    playAll([track], startAt: 0)
  }

  /// Replaces the queue with `tracks` and plays from `index`, `position` seconds in.
  ///
  /// Shuffle and repeat stay as they are. A `nil` or invalid index starts at
  /// the top of the play order, which is random while shuffled. An empty list
  /// stops playback.
  func playAll(_ tracks: [Track], startAt index: Int? = 0, position: Double = 0) {
    lastError = nil
    skipped = []
    queue.replaceAll(with: tracks, startAt: index)
    if let track = queue.current ?? queue.next() {
      start(track, at: max(0, position))
    } else {
      halt(finished: false)
    }
  }

  /// Restores a queue paused at `position` in track `index`: nothing is heard until resume.
  func restore(_ tracks: [Track], startAt index: Int, position: Double) {
    playAll(tracks, startAt: index, position: position)
    guard state == .loading else { return }
    player.pause()
    startPaused = true
  }

  // MARK: - Transport

  /// Pauses while playing, resumes while paused, and starts when stopped.
  ///
  /// After the queue has finished, this starts it again from the top.
  func togglePlay() {
    switch state {
    case .playing:
      pauseNow()
    case .paused:
      resumeNow()
    case .loading:
      break
    case .idle, .stopped:
      startFromStop()
    }
  }

  /// Pauses playback; does nothing unless a track is playing.
  func pause() {
    pauseNow()
  }

  /// Resumes playback; does nothing unless paused.
  func resume() {
    resumeNow()
  }

  /// Stops playback and forgets the prepared successor; the queue stays.
  func stop() {
    halt(finished: false)
  }

  /// Skips to the next playable track; at the end with repeat off, nothing happens and the
  /// answer is false.
  @discardableResult
  func next() -> Bool {
    guard let track = queue.next() else { return false }
    start(track)
    return true
  }

  /// Restarts the current track past ``restartThreshold`` seconds, else goes back one.
  ///
  /// At the start of the queue (with repeat off) the current track restarts.
  func previous() {
    if isTrackLoaded && player.position > Self.restartThreshold {
      seekNow(to: 0)
    } else if let track = queue.previous() {
      start(track)
    } else if isTrackLoaded {
      seekNow(to: 0)
    }
  }

  /// Seeks to `seconds`, clamped to the track; does nothing unless a track is loaded.
  func seek(to seconds: Double) {
    seekNow(to: seconds)
  }

  /// Seeks by `delta` seconds from the audible position, clamped to the track.
  func seek(by delta: Double) {
    seekNow(to: player.position + delta)
  }

  /// Sets the volume, clamped to 0...100 percent.
  func setVolume(_ percent: Int) {
    volume = min(max(percent, 0), 100)
    player.setVolume(volume)
  }

  /// Changes the volume by `delta` percentage points, clamped to 0...100.
  func adjustVolume(by delta: Int) {
    setVolume(volume + delta)
  }

  // MARK: - Modes

  /// Turns shuffle on or off; the current track keeps playing.
  func toggleShuffle() {
    queue.toggleShuffle()
    refreshPreparedNext()
  }

  /// Steps the repeat mode: off → all → one → off.
  func cycleRepeat() {
    queue.cycleRepeat()
    refreshPreparedNext()
  }

  /// Sets the repeat mode directly.
  func setRepeat(_ mode: RepeatMode) {
    queue.repeatMode = mode
    refreshPreparedNext()
  }

  // MARK: - Internals

  /// Whether the player holds a started track (playing or paused).
  var isTrackLoaded: Bool {
    state == .playing || state == .paused
  }

  /// Asks the player to play `track` from `seconds`, discarding any prepared successor.
  func start(_ track: Track, at seconds: Double = 0) {
    if preparedTrack != nil {
      player.prepareNext(nil)
      preparedTrack = nil
    }
    player.play(queue.forPlayback(track) ?? track, startAt: seconds)
    // A restored session that was never resumed must not leave the next play "paused".
    startPaused = false
    clearStream()
    preparedStream = nil
    state = .loading
    duration = track.duration
    isFinished = false
  }

  /// Stops the player; `finished` says whether the queue ran out on its own.
  func halt(finished: Bool) {
    player.stop()
    preparedTrack = nil
    state = .stopped
    isFinished = finished
  }

  /// Starts from a stop: the current track, or the queue's top once it finished.
  func startFromStop() {
    let track: Track?
    if isFinished {
      track = queue.rewind()
    } else if let index = queue.currentIndex, queue.isPlayable(at: index) {
      track = queue.current
    } else {
      track = queue.next()
    }
    if let track { start(track) }
  }

  /// Pauses when playing.
  func pauseNow() {
    guard state == .playing else { return }
    player.pause()
    state = .paused
  }

  /// Resumes when paused.
  func resumeNow() {
    guard state == .paused else { return }
    player.resume()
    state = .playing
  }

  /// Seeks within the loaded track, clamped to 0...duration.
  func seekNow(to seconds: Double) {
    guard isTrackLoaded else { return }
    var target = max(seconds, 0)
    if let duration { target = min(target, duration) }
    player.seek(to: target)
    seekCount += 1
    lyrics?.reset()
  }

  /// Tells the player what now follows the current track, if that changed.
  ///
  /// Only a started track has a successor prepared; a loading one gets its
  /// successor when its `.started` event arrives.
  func refreshPreparedNext() {
    guard isTrackLoaded else { return }
    let upcoming = queue.peekNext()
    let unchanged = upcoming.map { $0.isSameEntry(as: preparedTrack) } ?? (preparedTrack == nil)
    guard !unchanged else { return }
    player.prepareNext(queue.forPlayback(upcoming))
    preparedTrack = upcoming
  }
}
