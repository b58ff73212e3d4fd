import Foundation
import RefrainCore
import RefrainSession

/// What the full-screen player keeps with the saved session (the host saves and restores it),
/// and what `refrain ctl status` reports.
extension App {
  /// What is open, kept with the saved session: `lyrics` or the pane's name.
  var openPane: String { lyricsView != nil ? "lyrics" : pane.rawValue }

  /// The saved session came back, paused where it was left: opens the pane (or the lyrics
  /// view) that was open.
  func restored(_ saved: SavedSession) {
    if saved.openPane == "lyrics" {
      pane = .player
      lyricsView = LyricsPane(lastInput: now())
    } else if let open = Command.Pane(rawValue: saved.openPane) {
      pane = open
    }
    setStatus("resumed your last session (paused): space plays")
  }

  /// The session as `refrain ctl status` reports it, with the open pane.
  public var sessionStatus: SessionStatus { session.status(pane: pane.rawValue) }

  /// The status as one line of JSON, for `refrain ctl status`.
  public func statusJSON() -> String { SessionJSON.line(sessionStatus) }
}
