import Foundation
import RefrainCore
import RefrainSession

/// The full-screen player as a front end of its session's host: the terminal's keys, the
/// app's background work, and one frame drawn after every wake-up.
///
/// The host's loop sleeps until the earliest of: the next lyric line (or word) on the audible
/// clock, the next whole second of the progress bar, a status message expiring, and
/// lyrics-view following resuming (``App/nextWake()``). Paused with nothing to animate, it
/// does not wake at all.
public final class MainLoop: SessionFrontEnd {
  private let app: App
  private let terminal: Terminal
  private let colors: Bool
  private let mouse: Bool
  private let covers: CoverArtMode
  private let environment: [String: String]

  /// Creates the front end for `app`. `mouse` turns on wheel and click reporting
  /// (`display.mouse`); `covers` is how the Player pane draws the cover (`display.cover_art`).
  public init(
    app: App, terminal: Terminal = Terminal(), colors: Bool = true, mouse: Bool = false,
    covers: CoverArtMode = .off,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.app = app
    self.terminal = terminal
    self.colors = colors
    self.mouse = mouse
    self.covers = covers
    self.environment = environment
  }

  /// Takes the terminal and draws the first frame; keys are read after every wake-up. The
  /// kitty query, when `covers` may use it, is sent before curses takes the terminal.
  package func begin(on loop: PollLoop) {
    loop.watch(STDIN_FILENO) {}  // keys are read after every wake-up, in `afterWake`
    let app = app
    loop.watch(
      { [pollfd(fd: app.covers.inbox.fileDescriptor, events: Int16(POLLIN), revents: 0)] },
      handler: { _ in app.covers.drain() })
    let probe =
      PictureOutput.shouldQueryKitty(mode: covers, environment: environment)
      ? GraphicsProbe.askKitty() : .none
    let inTmux = !(environment["TMUX"] ?? "").isEmpty
    let passthrough =
      inTmux && (covers == .kitty || covers == .iterm) && GraphicsProbe.tmuxAllowsPassthrough()
    terminal.start(colors: colors, mouse: mouse)
    if probe.answersOwed { terminal.expectLateAnswers(kittyReply: !probe.kitty) }
    terminal.pictureOutput = PictureOutput.choose(
      mode: covers, environment: environment, colors: colors,
      reportedColors: terminal.reportedColors, kittyReplied: probe.kitty,
      tmuxPassthrough: passthrough)
    app.pictureOutput = terminal.pictureOutput
    redraw()
  }

  /// Keys last, so a key answers the freshest state; EINTR (SIGWINCH) reads KEY_RESIZE.
  package func afterWake() {
    for key in terminal.readKeys() {
      if key == .resize { terminal.invalidate() }
      app.handle(key: key)
    }
    app.resumeFollowingIfIdle()
    redraw()
  }

  package func nextWake() -> Double? { app.nextWake() }

  package func show(_ updates: [RoomFollower.Update]) { app.show(updates) }

  package var isDone: Bool { app.shouldQuit }

  /// Gives the terminal back.
  package func end() { terminal.stop() }

  package var openPane: String { app.openPane }

  package func restored(_ saved: SavedSession) { app.restored(saved) }

  private func redraw() {
    let size = terminal.size
    terminal.draw(app.draw(width: size.width, height: size.height))
  }
}

extension App {
  /// Seconds until something on screen changes by itself, or `nil` for never: the session's
  /// next change (a lyric line or word, a progress-bar second), a status message expiring,
  /// or the lyrics view resuming its follow.
  public func nextWake() -> Double? {
    var candidates: [Double] = []
    let now = now()
    if let expires = status?.expires { candidates.append(max(0, expires - now)) }
    if let view = lyricsView, !view.following {
      candidates.append(max(0, view.lastInput + 5 - now))
    }
    if let wake = session.nextWake(includeWords: lyricsView != nil, drawnAt: drawnPosition) {
      candidates.append(wake)
    }
    if let wake = roomWake { candidates.append(wake) }
    return candidates.min()
  }
}
