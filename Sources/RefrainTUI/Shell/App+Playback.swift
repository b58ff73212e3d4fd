import Foundation
import RefrainCore
import RefrainSession

/// Player events, the lyrics view's idle follow, and what the overlays did.
extension App {
  /// Hands the player's events to the session, which tells the app what they mean
  /// (``show(_:)``), as the host does.
  public func handlePlayerEvents(_ events: [PlayerEvent]) {
    session.handlePlayerEvents(events)
  }

  /// Shows what a player event means on screen.
  func show(_ event: PlayerEvent) {
    switch event {
    case .started:
      lyricsView?.selection = nil
    case .failed(let track, let message):
      setStatus("skipped \(track.title): \(message)", error: true, seconds: 6)
    case .warning(let message):
      setStatus(message, error: true, seconds: 6)
    case .trackEnded:
      break
    case .stream(_, .reconnecting):
      setStatus(session.snapshot.streamNotice ?? "stream lost", error: true, seconds: 11)
    case .stream(_, .reconnected):
      setStatus("stream is back", error: false, seconds: 3)
    case .stream(_, .stalled(let reason)):
      setStatus("stream stalled: \(reason)", error: true, seconds: 11)
    case .stream(_, .flowing):
      setStatus("stream flows again", error: false, seconds: 3)
    case .stream(_, .notice(let text)):
      setStatus(text, error: false, seconds: 6)
    case .stream:
      break
    }
  }

  // MARK: - Lyrics view

  /// Returns to following the current line after 5 s without input (not while timing the
  /// lyrics: the chosen line stays chosen for `[`, `]` and Enter).
  func resumeFollowingIfIdle() {
    guard let view = lyricsView, !view.following, now() - view.lastInput >= 5,
      session.sync == nil
    else { return }
    lyricsView?.following = true
  }

  // MARK: - Overlays

  /// Hands a command to the overlay, if one is open; false when it goes on to the panes.
  func handleOverlay(_ command: Command) -> Bool {
    guard let current = overlay else { return false }
    return carryOut(current.handle(command))
  }

  /// Carries out what the overlay did; false when the input goes on to the panes.
  func carryOut(_ result: OverlayResult) -> Bool {
    switch result {
    case .open(let overlay): self.overlay = overlay
    case .closed: overlay = nil
    case .closedPassing:
      overlay = nil
      return false
    case .submitted(let text, let purpose):
      overlay = nil
      submit(text, for: purpose)
    case .confirmed(let action):
      overlay = nil
      confirm(action)
    case .picked(let choice, let tracks):
      overlay = nil
      add(tracks, to: choice)
    }
    return true
  }

  /// The key context whose bindings the help overlay lists.
  var helpContext: KeyContext { lyricsView != nil ? .lyrics : .lists }
}
