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
  private let player: any AudioPlayer
  private let terminal: Terminal
  private var sources: [(descriptors: () -> [pollfd], handler: ([pollfd]) -> Void)] = []

  /// Creates a loop for `app`, with `player` the presenter's player.
  public init(app: App, player: any AudioPlayer, terminal: Terminal = Terminal()) {
    self.app = app
    self.player = player
    self.terminal = terminal
  }

  /// Runs after every wake-up, before drawing (control-socket watchers, session saves).
  public var onIteration: (() -> Void)?

  /// Polls more descriptors (the control socket and its clients): `descriptors` is asked
  /// before every `poll()`, and `handler` gets them back with `revents` filled in.
  public func watch(
    _ descriptors: @escaping () -> [pollfd], handler: @escaping ([pollfd]) -> Void
  ) {
    sources.append((descriptors, handler))
  }

  /// Runs until the user quits; the terminal is restored even on errors.
  ///
  /// `mouse` turns on wheel and click reporting (`display.mouse`).
  public func run(colors: Bool = true, mouse: Bool = false) {
    terminal.start(colors: colors, mouse: mouse)
    defer { terminal.stop() }
    redraw()
    while !app.shouldQuit {
      var fds = [
        pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
        pollfd(fd: player.wakeFileDescriptor, events: Int16(POLLIN), revents: 0),
        pollfd(fd: app.inboxFileDescriptors[0], events: Int16(POLLIN), revents: 0),
        pollfd(fd: app.inboxFileDescriptors[1], events: Int16(POLLIN), revents: 0),
      ]
      var ranges: [Range<Int>] = []
      for source in sources {
        let extra = source.descriptors()
        ranges.append(fds.count..<(fds.count + extra.count))
        fds += extra
      }
      let ready = poll(&fds, nfds_t(fds.count), timeout())
      if ready < 0 && errno != EINTR { break }
      if fds[1].revents != 0 { app.handlePlayerEvents(player.drainEvents()) }
      if fds[2].revents != 0 || fds[3].revents != 0 { app.drainInbox() }
      for (source, range) in zip(sources, ranges)
      where fds[range].contains(where: { $0.revents != 0 }) {
        source.handler(Array(fds[range]))
      }
      // Keys last, so a key answers the freshest state; EINTR (SIGWINCH) reads KEY_RESIZE.
      for key in terminal.readKeys() {
        if key == .resize { terminal.invalidate() }
        app.handle(key: key)
      }
      app.resumeFollowingIfIdle()
      onIteration?()
      redraw()
    }
  }

  private func redraw() {
    let size = terminal.size
    terminal.draw(app.render(width: size.width, height: size.height))
  }

  /// Milliseconds until the next visible change; -1 to sleep until input.
  func timeout() -> Int32 {
    guard let seconds = app.nextWake(player: player) else { return -1 }
    return Int32(min(3_600_000, (seconds * 1000).rounded(.up)))
  }
}

extension App {
  /// Seconds until something on screen changes by itself, or `nil` for never.
  public func nextWake(player: any AudioPlayer) -> Double? {
    var candidates: [Double] = []
    let now = now()
    if let expires = status?.expires { candidates.append(max(0, expires - now)) }
    if let view = lyricsView, !view.following {
      candidates.append(max(0, view.lastInput + 5 - now))
    }
    if player.state == .playing {
      let position = player.position
      if let delay = player.delay(untilPosition: position.rounded(.down) + 1) {
        candidates.append(delay)
      } else {
        // Playing, but the audible clock has not started yet (no audio written since the
        // start, a seek or a resume; PulseAudio can take a second): look again soon, or the
        // screen would freeze at the old position until the next key.
        candidates.append(0.05)
      }
      if let follower = presenter.lyrics {
        let change = follower.timeline.nextChange(after: position, includeWords: lyricsView != nil)
        if let change, let delay = player.delay(untilPosition: change) { candidates.append(delay) }
      }
    } else if player.state == .loading {
      candidates.append(0.25)
    }
    return candidates.min()
  }
}
