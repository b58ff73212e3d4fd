import Foundation
import RefrainCore

/// An `AudioPlayer` for Refrain's tests: records every call and plays nothing.
///
/// The position stands still unless a test moves it with ``position`` (or a play or a
/// seek moves it, as a real player's would). Tests inject player events with
/// ``emit(_:)``; the presenter drains them. A lock guards the state, so the fake is
/// `Sendable` like a real player.
public final class FakePlayer: AudioPlayer, @unchecked Sendable {
  /// One call the presenter made.
  public enum Call: Equatable, Sendable {
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
  private var running = true

  /// Creates an idle fake player.
  public init() {}

  /// Every call so far, oldest first.
  public var calls: [Call] { lock.withLock { recorded } }

  /// The tracks passed to `play`, oldest first.
  public var played: [Track] {
    calls.compactMap {
      if case .play(let track, _) = $0 { return track }
      return nil
    }
  }

  /// The arguments of every `prepareNext`, oldest first.
  public var prepared: [Track?] {
    calls.compactMap {
      if case .prepareNext(let track) = $0 { return .some(track) }
      return nil
    }
  }

  /// The targets of every `seek`, oldest first.
  public var seeks: [Double] {
    calls.compactMap {
      if case .seek(let seconds) = $0 { return seconds }
      return nil
    }
  }

  /// The last seek target, if any.
  public var lastSeek: Double? { seeks.last }

  /// The last volume set, if any.
  public var lastVolume: Int? {
    calls.compactMap {
      if case .setVolume(let percent) = $0 { return percent }
      return nil
    }.last
  }

  /// Forgets the calls so far, so a test can look at what happens next.
  public func resetCalls() {
    lock.withLock { recorded = [] }
  }

  /// Queues events for the presenter to drain.
  public func emit(_ events: PlayerEvent...) {
    lock.withLock { pending.append(contentsOf: events) }
  }

  /// Sets the state the player reports, as a real player does once audio flows.
  public func setState(_ state: PlayerState) {
    lock.withLock { currentState = state }
  }

  /// Whether the audible clock runs; a real player's starts only once audio was written.
  public var clockRunning: Bool {
    get { lock.withLock { running } }
    set { lock.withLock { running = newValue } }
  }

  // MARK: - AudioPlayer

  public let wakeFileDescriptor: Int32 = -1

  public var position: Double {
    get { lock.withLock { currentPosition } }
    set { lock.withLock { currentPosition = newValue } }
  }

  public var state: PlayerState { lock.withLock { currentState } }

  public func drainEvents() -> [PlayerEvent] {
    lock.withLock {
      defer { pending = [] }
      return pending
    }
  }

  public func play(_ track: Track, startAt: Double) {
    record(.play(track, startAt: startAt), state: .loading)
    position = startAt
  }

  public func prepareNext(_ track: Track?) { record(.prepareNext(track)) }
  public func pause() { record(.pause, state: .paused) }
  public func resume() { record(.resume, state: .playing) }
  public func stop() { record(.stop, state: .stopped) }

  public func seek(to seconds: Double) {
    record(.seek(seconds))
    position = seconds
  }

  public func setVolume(_ percent: Int) { record(.setVolume(percent)) }

  public func delay(untilPosition target: Double) -> Double? {
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
