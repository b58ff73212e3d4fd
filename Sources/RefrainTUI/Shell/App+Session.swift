import Foundation
import RefrainCore
import RefrainSession

/// Saving and restoring the session (the session's, with the open pane this front end adds),
/// and what `refrain ctl status` reports.
extension App {
  /// Saves the queue, position, volume, modes and open pane in the background, after every
  /// library call asked for before, so the next start resumes there.
  public func saveSession() {
    session.saveSession(openPane: lyricsView != nil ? "lyrics" : pane.rawValue)
  }

  /// Saves the session after every library call asked for before, and returns once all of
  /// them, the save included, have finished: for quitting, once nothing is drawn any more.
  public func saveSessionAndWait() {
    saveSession()
    library?.waitForAll()
  }

  /// Reads the last session in the background and restores it, paused where it was left,
  /// with the pane (or the lyrics view) that was open.
  public func restoreSession() {
    session.restoreSession { [weak self] saved in
      guard let self else { return }
      if saved.openPane == "lyrics" {
        pane = .player
        lyricsView = LyricsPane(lastInput: now())
      } else if let open = Command.Pane(rawValue: saved.openPane) {
        pane = open
      }
      setStatus("resumed your last session (paused): space plays")
    }
  }

  /// The session as `refrain ctl status` reports it, with the open pane.
  public var sessionStatus: SessionStatus { session.status(pane: pane.rawValue) }

  /// The status as one line of JSON, for `refrain ctl status`.
  public func statusJSON() -> String { SessionJSON.line(sessionStatus) }
}
