import Foundation
import RefrainCore

/// An `AudioPlayer` for the TUI tests: records every call and plays nothing.
///
/// The position stands still unless a test moves it with ``position`` (or a seek moves
/// it, as a real player's would). Events reach the app through `App.handlePlayerEvents`,
/// which the tests call directly. A lock guards the state, so the fake is `Sendable`
/// like a real player.
final class TUIFakePlayer: AudioPlayer, @unchecked Sendable {
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
  private var currentPosition: Double = 0
  private var currentState: PlayerState = .idle
  private var running = true

  /// Every call so far, oldest first.
  var calls: [Call] { lock.withLock { recorded } }

  /// The tracks passed to `play`, oldest first.
  var played: [Track] {
    calls.compactMap {
      if case .play(let track, _) = $0 { return track }
      return nil
    }
  }

  /// The targets of every `seek`, oldest first.
  var seeks: [Double] {
    calls.compactMap {
      if case .seek(let seconds) = $0 { return seconds }
      return nil
    }
  }

  /// Sets the state the player reports, as a real player does once audio flows.
  func setState(_ state: PlayerState) {
    lock.withLock { currentState = state }
  }

  /// Whether the audible clock runs; a real player's starts only once audio was written.
  var clockRunning: Bool {
    get { lock.withLock { running } }
    set { lock.withLock { running = newValue } }
  }

  // MARK: - AudioPlayer

  let wakeFileDescriptor: Int32 = -1

  var position: Double {
    get { lock.withLock { currentPosition } }
    set { lock.withLock { currentPosition = newValue } }
  }

  var state: PlayerState { lock.withLock { currentState } }

  func drainEvents() -> [PlayerEvent] { [] }

  func play(_ track: Track, startAt: Double) {
    record(.play(track, startAt: startAt), state: .loading)
    position = startAt
  }

  func prepareNext(_ track: Track?) { record(.prepareNext(track)) }
  func pause() { record(.pause, state: .paused) }
  func resume() { record(.resume, state: .playing) }
  func stop() { record(.stop, state: .stopped) }

  func seek(to seconds: Double) {
    record(.seek(seconds))
    position = seconds
  }

  func setVolume(_ percent: Int) { record(.setVolume(percent)) }

  func delay(untilPosition target: Double) -> Double? {
    guard state == .playing, clockRunning else { return nil }
    return max(0, target - position)
  }

  private func record(_ call: Call, state: PlayerState? = nil) {
    lock.withLock {
      recorded.append(call)
      if let state { currentState = state }
    }
  }
}
