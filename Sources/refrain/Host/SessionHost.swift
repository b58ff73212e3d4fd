import Foundation
import RefrainAudio
import RefrainCore
import RefrainDesktop
import RefrainSession

/// The write end of the pipe through which SIGTERM, SIGINT and SIGHUP wake the host's loop:
/// all a signal handler may touch.
nonisolated(unsafe) private var signalPipeWriter: Int32 = -1

/// Runs one session for one front end, with what every front end shares: the one poll loop
/// (the player's events, the session's background work, the room's link), the control
/// socket, MPRIS, signals, the scrobbler and the periodic save.
///
/// The full-screen player, `refrain play` and `refrain room join` each build a session, hand
/// it here, and plug themselves in with ``run(_:)``. After every wake-up the host checks the
/// room, lets the front end draw, then tells the control socket's watchers and MPRIS what
/// changed, samples the scrobbler and saves when a save is due.
final class SessionHost {
  /// The session every door reaches.
  let session: Session
  /// The player the session drives.
  let engine: PlayerEngine
  /// The one loop of the process.
  private let loop = PollLoop()
  /// The control socket, once ``serveControl(path:frontEnd:status:elsewhere:)`` opened it.
  private(set) var control: ControlServer?
  /// MPRIS, once ``startMPRIS(enabled:notifies:environment:onQuit:)`` found a bus.
  private(set) var mpris: MPRISServer?
  /// Scrobbling, when a service's credentials are complete.
  var scrobbling: ScrobbleAttachment?
  /// Whether the session is saved while it plays (every ``saveInterval`` seconds) and when
  /// the front end ends: the full-screen player's, not `refrain play`'s.
  var savesSession = false
  /// Seconds between saves while playing.
  var saveInterval = 10.0
  private var lastSave = MonotonicClock.now
  /// The signal that ended the run (SIGTERM, SIGINT, SIGHUP), if one did.
  private(set) var endedBy: Int32?

  /// Hosts `session`, which drives `engine`.
  init(session: Session, engine: PlayerEngine) {
    self.session = session
    self.engine = engine
    loop.watch(engine.wakeFileDescriptor) { [session, engine] in
      session.handlePlayerEvents(engine.drainEvents())
    }
    loop.watch(session.wakeFileDescriptor) { [session] in session.drainInbox() }
    endOnSignals()
  }

  /// Ends the run at the next wake-up when the process gets SIGTERM, SIGINT or SIGHUP (its
  /// terminal closed), as `quit` does: the front end ends, and what the caller does after
  /// ``run(_:)`` (saving the session) still happens. A second signal while it ends takes
  /// its default action.
  private func endOnSignals() {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return }
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
    signalPipeWriter = ends[1]
    for number in [SIGTERM, SIGINT, SIGHUP] {
      signal(number) { caught in
        var byte = UInt8(truncatingIfNeeded: caught)
        _ = write(signalPipeWriter, &byte, 1)
        signal(caught, SIG_DFL)
      }
    }
    let reader = ends[0]
    loop.watch(reader) { [weak self] in
      var byte: UInt8 = 0
      while read(reader, &byte, 1) == 1 { self?.endedBy = Int32(byte) }
    }
  }

  /// Opens the control socket at `path` for `refrain ctl`: the session answers its commands,
  /// `frontEnd` the front end's own, and any other is told it `elsewhere`.
  func serveControl(
    path: String, frontEnd: @escaping ControlServer.FrontEndVerbs = { _, _ in false },
    status: (() -> SessionStatus)? = nil,
    elsewhere: String = "works only in the full-screen player"
  ) throws {
    let control = try ControlServer(
      path: path, session: session, frontEnd: frontEnd, status: status, elsewhere: elsewhere)
    self.control = control
    loop.watch({ control.pollDescriptors }, handler: { control.handle($0) })
  }

  /// Offers the session over MPRIS when `enabled` and a session bus is there; `onQuit` is
  /// what MPRIS `Quit` does.
  func startMPRIS(
    enabled: Bool, notifies: Bool, environment: [String: String], onQuit: @escaping () -> Void
  ) {
    guard
      let mpris = DesktopFrontEnds.startMPRIS(
        enabled: enabled, notifies: notifies, session: session, environment: environment,
        onQuit: onQuit)
    else { return }
    self.mpris = mpris
    loop.watch({ mpris.pollDescriptors }, handler: { mpris.handle($0) })
  }

  /// Runs `frontEnd` until it is done, then closes MPRIS; the caller then ends the session.
  func run(_ frontEnd: any SessionFrontEnd) {
    let session = session
    loop.watch(
      {
        guard let fd = session.room?.wakeFileDescriptor, fd >= 0 else { return [] }
        return [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
      }, handler: { [unowned frontEnd] _ in frontEnd.show(session.readRoom()) })
    frontEnd.begin(on: loop)
    while !frontEnd.isDone && endedBy == nil {
      guard loop.runOnce(timeout: timeout(for: frontEnd)) else { break }
      frontEnd.show(session.checkRoom())
      frontEnd.afterWake()
      control?.notifyWatchers()
      mpris?.refresh()
      scrobbling?.scrobbler.sample()
      saveWhenDue(frontEnd)
    }
    frontEnd.end()
    mpris?.stop()
  }

  /// Milliseconds until the front end or the room's check is due; -1 for never.
  private func timeout(for frontEnd: any SessionFrontEnd) -> Int32 {
    let due = [frontEnd.nextWake(), session.room?.follower.nextCheck()].compactMap { $0 }.min()
    guard let due else { return -1 }
    return Int32(min(3_600_000, (max(0, due) * 1000).rounded(.up)))
  }

  /// While playing, saves the session every ``saveInterval`` seconds so a crash loses little.
  private func saveWhenDue(_ frontEnd: any SessionFrontEnd) {
    guard savesSession, session.snapshot.state == .playing else { return }
    let now = MonotonicClock.now
    guard now - lastSave >= saveInterval else { return }
    session.saveSession(openPane: frontEnd.openPane)
    lastSave = now
  }

  /// Reads the last session in the background and restores it, paused where it was left;
  /// `frontEnd` then opens what it had open.
  func restoreSession(into frontEnd: any SessionFrontEnd) {
    session.restoreSession { [weak frontEnd] saved in frontEnd?.restored(saved) }
  }

  /// Saves the session, after every library call asked for before, and returns once all of
  /// them have finished: for quitting, once nothing is drawn any more.
  func saveSessionAndWait(_ frontEnd: any SessionFrontEnd) {
    session.saveSession(openPane: frontEnd.openPane)
    session.waitForLibrary()
  }
}
