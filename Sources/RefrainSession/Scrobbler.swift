import Dispatch
import Foundation
import RefrainCore

/// The session's scrobbling front end: it follows the session's player events and samples
/// its audible position, and hands each listen to the library's offline queue.
///
/// - A track that may count (``Listen/counts(track:duration:)``) is announced to the
///   services when it starts playing (``ScrobbleOutbox/announce(_:)``); one restored paused,
///   once it plays.
/// - A track without an artist (a file given by path) is first described by `describe`
///   (its tags), on a background thread; one that still has none is neither announced nor
///   queued, since both services need an artist and a title.
/// - ``sample()`` is called by the front end's loop after every wake-up (about once a second
///   while playing); the ``ListenCounter`` adds only the audible time between samples.
/// - A listen is written to the library (``LibraryPort/enqueueListen(_:services:)``) on
///   ``BackgroundExecutor``, never on the loop's thread, each write after the one before;
///   then the outbox is told, and its send loop sends what is due.
/// - It reads the wall clock only through `now` (the listen's `listened_at`).
public final class Scrobbler {
  private var counter = ListenCounter()
  // Strong: the session holds only a weak reference back (its observer), so no cycle.
  private let session: Session
  private let services: [ScrobbleService]
  private let library: any LibraryPort
  private let outbox: any ScrobbleOutbox
  private let now: () -> Date
  private let log: @Sendable (String) -> Void
  private let writes = DispatchGroup()
  private var lastWrite: Task<Void, Never>?
  private var pendingAnnouncement: NowPlaying?
  private let describe: @Sendable (Track) -> Track

  /// Follows `session` and queues its listens for `services` in `library`.
  ///
  /// - Parameters:
  ///   - outbox: The sender: told of each start and each queued listen.
  ///   - now: The wall clock; tests pass a fixed one.
  ///   - log: Where a listen that could not be queued is reported.
  ///   - describe: Fills in what the services need and a track lacks (a file given by path
  ///     has no artist: its tags have one); runs on a background thread.
  public init(
    session: Session, services: [ScrobbleService], library: any LibraryPort,
    outbox: any ScrobbleOutbox, now: @escaping () -> Date = { Date() },
    log: @escaping @Sendable (String) -> Void = { _ in },
    describe: @escaping @Sendable (Track) -> Track = { $0 }
  ) {
    self.describe = describe
    self.session = session
    self.services = services
    self.library = library
    self.outbox = outbox
    self.now = now
    self.log = log
    session.subscribe { [weak self] event in self?.handle(event) }
  }

  /// The audible seconds counted for the current play.
  public var playedSeconds: Double { counter.playedSeconds }

  /// Takes one sample of the session's audible position; queues the listen when this sample
  /// crosses the threshold. Call it after every wake-up of the front end's loop.
  public func sample() {
    announceIfPlaying()
    if let listen = counter.sample(session.playback.snapshot) { enqueue(listen) }
  }

  /// Waits until every listen handed to the library so far is written and every
  /// announcement handed to the outbox, at most `seconds`; `true` when they all are. For a
  /// front end that is about to exit, and for tests.
  @discardableResult
  public func waitForHandOffs(seconds: Double) -> Bool {
    writes.wait(timeout: .now() + seconds) == .success
  }

  private func handle(_ event: SessionEvent) {
    guard case .player(let playerEvent) = event else { return }
    if case .trackEnded = playerEvent { sample() }  // the last second before the end
    if case .started = playerEvent { pendingAnnouncement = nil }
    if let nowPlaying = counter.handle(playerEvent, at: now()) {
      pendingAnnouncement = nowPlaying
      announceIfPlaying()
    }
  }

  /// Announces the track that started once it plays: a session restored paused announces
  /// nothing until the user presses play.
  private func announceIfPlaying() {
    guard let nowPlaying = pendingAnnouncement, session.playback.state == .playing,
      nowPlaying.track.isSameEntry(as: session.playback.queue.current)
    else { return }
    pendingAnnouncement = nil
    let outbox = outbox
    let describe = describe
    let writes = writes
    writes.enter()
    Task.detached(executorPreference: BackgroundExecutor.shared) {
      defer { writes.leave() }
      var described = nowPlaying
      described.track = describe(nowPlaying.track)
      if isSubmittable(described.track) { outbox.announce(described) }
    }
  }

  private func enqueue(_ listen: Listen) {
    let library = library
    let services = services
    let outbox = outbox
    let log = log
    let describe = describe
    let previous = lastWrite
    let writes = writes
    let inbox = session.inbox
    writes.enter()
    lastWrite = Task.detached(executorPreference: BackgroundExecutor.shared) {
      await previous?.value
      defer { writes.leave() }
      var listen = listen
      listen.track = describe(listen.track)
      guard isSubmittable(listen.track) else {
        log("listen not queued: \(listen.track.displayName) has no artist or title in its tags")
        return
      }
      let services = services.filter { $0.accepts(listen.track) }
      guard !services.isEmpty else { return }
      do {
        try library.enqueueListen(listen, services: services)
      } catch {
        log("could not queue the listen of \(listen.track.title): \(error)")
        // A listen that could not be kept (a full disk) is said where the user looks.
        let line = "the listen of \(listen.track.title) was not kept: \(error)"
        inbox.post { session in session.notify(.notice(line, isError: true)) }
        return
      }
      outbox.listensQueued()
    }
  }
}

/// Whether the services can take a listen of `track`: both need an artist and a title.
func isSubmittable(_ track: Track) -> Bool {
  let artist = (track.artist ?? "").trimmingCharacters(in: .whitespaces)
  return !artist.isEmpty && !track.title.trimmingCharacters(in: .whitespaces).isEmpty
}
