import Foundation
import RefrainCore

/// A way of reaching the session that a host runs: the full-screen player, `refrain play`,
/// `refrain room join`.
///
/// The host owns the one poll loop and everything every front end shares (the player's
/// events, the session's background work, the room's link, the control socket, MPRIS, the
/// scrobbler, saving). A front end adds only what is its own (the terminal, stdin), says
/// when it must wake by itself, and shows what happened. It keeps no timers of its own
/// beyond ``nextWake()``.
package protocol SessionFrontEnd: AnyObject {
  /// Called once before the loop runs: the front end adds its own descriptors to `loop`.
  func begin(on loop: PollLoop)
  /// Seconds until the front end must wake by itself (a status line expiring, a position
  /// event due), or `nil` for never.
  func nextWake() -> Double?
  /// Called after every wake-up of the loop: the front end draws or prints what changed.
  func afterWake()
  /// The room's news: what its link wrote, or a check that found something.
  func show(_ updates: [RoomFollower.Update])
  /// Whether the front end has finished (quit, stdin closed, the queue done).
  var isDone: Bool { get }
  /// Called once after the loop ends.
  func end()
  /// What the front end has open, kept with the saved session (`lyrics`, a pane's name);
  /// empty for a front end without panes.
  var openPane: String { get }
  /// The saved session came back (paused where it was left): the front end opens what
  /// ``openPane`` was.
  func restored(_ saved: SavedSession)
}

extension SessionFrontEnd {
  package var openPane: String { "" }
  package func restored(_ saved: SavedSession) {}
}
