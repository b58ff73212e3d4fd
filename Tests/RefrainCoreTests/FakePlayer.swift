import Foundation
import RefrainCore

/// An `AudioPlayer` for Refrain's tests: records every call and plays nothing.
///
/// Tests set ``position`` by hand and inject events with ``emit(_:)``; the
/// presenter picks them up through `handlePendingEvents()`. A lock guards the
/// state, so the fake is `Sendable` like a real player.
final class FakePlayer: AudioPlayer, @unchecked Sendable {
  /// One call the presenter made.
  enum Call: Equatable {
    case play(Track, startAt: Double)
    case prepareNext(Track?)
    case pause
    case resume
    case stop
    case seek(Double)
    case setVolume(Int)
  }

  private let lock = NSLock()
  private var recorded: [Call] = []
  private var pending: [PlayerEvent] = []
  private var currentPosition: Double = 0
  private var currentState: PlayerState = .idle

  /// Every call so far, oldest first.
  var calls: [Call] { lock.withLock { recorded } }

  /// The tracks passed to `play`, oldest first.
  var played: [Track] {
    calls.compactMap {
      if case .play(let track, _) = $0 { return track }
      return nil
    }
  }

  /// The arguments of every `prepareNext`, oldest first.
  var prepared: [Track?] {
    calls.compactMap {
      if case .prepareNext(let track) = $0 { return .some(track) }
      return nil
    }
  }

  /// The last seek target, if any.
  var lastSeek: Double? {
    calls.compactMap {
      if case .seek(let seconds) = $0 { return seconds }
      return nil
    }.last
  }

  /// The last volume set, if any.
  var lastVolume: Int? {
    calls.compactMap {
      if case .setVolume(let percent) = $0 { return percent }
      return nil
    }.last
  }

  /// Forgets the calls so far, so a test can look at what happens next.
  func resetCalls() {
    lock.withLock { recorded = [] }
  }

  /// Queues events for the presenter to drain.
  func emit(_ events: PlayerEvent...) {
    lock.withLock { pending.append(contentsOf: events) }
  }

  // MARK: - AudioPlayer

  let wakeFileDescriptor: Int32 = -1

  var position: Double {
    get { lock.withLock { currentPosition } }
    set { lock.withLock { currentPosition = newValue } }
  }

  var state: PlayerState { lock.withLock { currentState } }

  func drainEvents() -> [PlayerEvent] {
    lock.withLock {
      defer { pending = [] }
      return pending
    }
  }

  func play(_ track: Track, startAt: Double) {
    record(.play(track, startAt: startAt), state: .loading)
    position = startAt
  }

  func prepareNext(_ track: Track?) { record(.prepareNext(track)) }
  func pause() { record(.pause, state: .paused) }
  func resume() { record(.resume, state: .playing) }
  func stop() { record(.stop, state: .stopped) }
  func seek(to seconds: Double) { record(.seek(seconds)) }
  func setVolume(_ percent: Int) { record(.setVolume(percent)) }

  private func record(_ call: Call, state: PlayerState? = nil) {
    lock.withLock {
      recorded.append(call)
      if let state { currentState = state }
    }
  }
}

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
