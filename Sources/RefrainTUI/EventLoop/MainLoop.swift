import Foundation
import RefrainCore

/// The full-screen player's loop: one `poll()` and one timer, set to the next visible change.
///
/// It sleeps on stdin, the player's wake-up pipe and the inbox of background work. The
/// timer is the earliest of: the next lyric line (or word) on the audible clock, the next
/// whole second of the progress bar, a status message expiring, and lyrics-view
/// following resuming. Paused with nothing to animate, it does not wake at all.
public final class MainLoop {
  private let app: App
  private let terminal: Terminal
  private let loop = PollLoop()

  /// Creates a loop for `app`, with `player` the presenter's player.
  public init(app: App, player: any AudioPlayer, terminal: Terminal = Terminal()) {
    self.app = app
    self.terminal = terminal
    loop.watch(STDIN_FILENO) {}  // keys are read after every wake-up, in `run`
    loop.watch(player.wakeFileDescriptor) { app.handlePlayerEvents(player.drainEvents()) }
    loop.watch(
      { app.inboxFileDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } },
      handler: { _ in app.drainInbox() })
    loop.watch(
      {
        guard let fd = app.room?.wakeFileDescriptor, fd >= 0 else { return [] }
        return [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
      }, handler: { _ in app.handleRoomLines() })
  }

  /// Runs after every wake-up, before drawing (control-socket watchers, session saves).
  public var onIteration: (() -> Void)?

  /// Polls more descriptors (the control socket and its clients): `descriptors` is asked
  /// before every `poll()`, and `handler` gets them back with `revents` filled in.
  public func watch(
    _ descriptors: @escaping () -> [pollfd], handler: @escaping ([pollfd]) -> Void
  ) {
    loop.watch(descriptors, handler: handler)
  }

  /// Runs until the user quits; the terminal is restored even on errors.
  ///
  /// `mouse` turns on wheel and click reporting (`display.mouse`); `covers` is how the
  /// Player pane draws the cover (`display.cover_art`). The kitty query, when `covers` may
  /// use it, is sent before curses takes the terminal.
  public func run(
    colors: Bool = true, mouse: Bool = false, covers: CoverArtMode = .off,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    let probe =
      PictureOutput.shouldQueryKitty(mode: covers, environment: environment)
      ? GraphicsProbe.askKitty() : .none
    let inTmux = !(environment["TMUX"] ?? "").isEmpty
    let passthrough =
      inTmux && (covers == .kitty || covers == .iterm) && GraphicsProbe.tmuxAllowsPassthrough()
    terminal.start(colors: colors, mouse: mouse)
    defer { terminal.stop() }
    if probe.answersOwed { terminal.expectLateAnswers(kittyReply: !probe.kitty) }
    terminal.pictureOutput = PictureOutput.choose(
      mode: covers, environment: environment, colors: colors,
      reportedColors: terminal.reportedColors, kittyReplied: probe.kitty,
      tmuxPassthrough: passthrough)
    app.pictureOutput = terminal.pictureOutput
    redraw()
    while !app.shouldQuit {
      guard loop.runOnce(timeout: timeout()) else { break }
      // Keys last, so a key answers the freshest state; EINTR (SIGWINCH) reads KEY_RESIZE.
      for key in terminal.readKeys() {
        if key == .resize { terminal.invalidate() }
        app.handle(key: key)
      }
      app.resumeFollowingIfIdle()
      app.tickRoom()
      onIteration?()
      redraw()
    }
  }

  private func redraw() {
    let size = terminal.size
    terminal.draw(app.draw(width: size.width, height: size.height))
  }

  /// Milliseconds until the next visible change; -1 to sleep until input.
  func timeout() -> Int32 {
    guard let seconds = app.nextWake() else { return -1 }
    return Int32(min(3_600_000, (seconds * 1000).rounded(.up)))
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
