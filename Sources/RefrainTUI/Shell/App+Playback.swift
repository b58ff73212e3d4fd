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
    if case .started = event { lyricsView?.selection = nil }
    if let line = event.statusLine(streamNotice: session.snapshot.streamNotice) {
      setStatus(line.text, error: line.isError, seconds: line.seconds)
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

  /// Where the help overlay is asked for, which decides the keys it lists.
  var helpScope: HelpScope {
    HelpScope(
      lyricsOpen: lyricsView != nil, pane: pane, listOpen: list.hasDetail, inRoom: room != nil)
  }
}
