import Foundation
import RefrainCore

/// One listening session, shared by every front end (the full-screen player, `refrain play
/// --events`, the control socket and its watchers, MPRIS).
///
/// The session routes: front ends send ``Command``s to ``execute(_:)`` (or ``answer(_:reply:)``),
/// read ``status(pane:)`` and the values in Session+Reading, and subscribe to
/// ``SessionEvent``s. The state lives in its parts, each in its own folder: playback
/// (``PlaybackPresenter`` and ``QueueCommands``, Playback/), the library (``LibraryPart``,
/// Library/), browsing (``BrowsingPart``, Browse/), the room (``RoomPart``, Room/) and the
/// lyrics (``LyricsPart``, Lyrics/).
///
/// Everything runs on one thread, the front end's loop: it polls ``player``'s wake-up
/// descriptor (then calls ``handlePlayerEvents(_:)``) and ``wakeFileDescriptor`` (then calls
/// ``drainInbox()``). Lyrics look-ups and library reads and writes run on
/// ``BackgroundExecutor`` and never block that thread.
public final class Session {
  /// Playback control: the player, the queue, the followed lyrics. Only the session and its
  /// parts change it; front ends read ``snapshot`` and ``queue``.
  let playback: PlaybackPresenter
  /// The audio player the session drives.
  public let player: any AudioPlayer
  /// Where background work reports back; its descriptor is ``wakeFileDescriptor``.
  let inbox: Inbox<Session>
  private var observers: [(SessionEvent) -> Void] = []
  let queueCommands = QueueCommands()
  let lyricsPart: LyricsPart
  let roomPart = RoomPart()
  let libraryPart: LibraryPart
  let browsingPart = BrowsingPart()

  /// Starts the link to the room at a URL (`room join URL`), with the token the player was
  /// started with; `nil` where the front end cannot join rooms.
  public var roomJoiner: ((_ url: String) throws -> any RoomChannel)?
  /// The catalog that refreshes its tracks' stream URLs before they play; `nil` plays
  /// catalog tracks with the URLs they carry.
  public var catalog: (any CatalogProvider)?
  /// Reads a file's tags, so a track queued by its path is described as a scanned one is;
  /// `nil` leaves such tracks with their file names.
  public var describe: TrackDescriber?
  /// Imports the user's library from another service (`import`, key `I`); `nil` where the
  /// session cannot.
  public var libraryImport: LibraryImport?
  /// Publishes a track's timed lyrics to LRCLIB (`lyrics publish`); `nil` where the session
  /// cannot.
  public var lyricsPublisher: LyricsPublishing?
  /// Why there is no ``lyricsPublisher``, for the answer to `lyrics publish`.
  public var publishingUnavailable =
    "publishing works from the full-screen player, or from a script with "
    + "`refrain lyrics publish TRACK`"
  /// Where timed lyrics of a streamed track are kept (the lyrics cache the loader reads);
  /// `nil` where there is none.
  public var lyricsCache: LyricsCache?

  /// Creates a session over `player`.
  ///
  /// - Parameters:
  ///   - library: Where per-track lyric offsets live; `nil` keeps them for this run only.
  ///   - storage: The user's library for playlists, history and the saved session; `nil`
  ///     when it could not be opened (edits then say so).
  ///   - lyricsLoader: Finds a track's lyrics (sidecar, tags, cache, online); runs off the
  ///     session's thread.
  ///   - queue: The starting queue; tests pass one with a seeded generator.
  public init(
    player: any AudioPlayer, library: (any LibraryPort)? = nil,
    storage: (any LibraryStorage)? = nil,
    lyricsLoader: @escaping @Sendable (Track) async -> LyricsResult, volume: Int = 100,
    queue: PlayQueue = PlayQueue()
  ) {
    let inbox = Inbox<Session>()
    self.inbox = inbox
    self.player = player
    playback = PlaybackPresenter(player: player, queue: queue, volume: volume)
    lyricsPart = LyricsPart(library: library, loader: lyricsLoader)
    libraryPart = LibraryPart(calls: storage.map { LibraryCalls(storage: $0, inbox: inbox) })
    queueCommands.session = self
    lyricsPart.session = self
    roomPart.session = self
    libraryPart.session = self
    browsingPart.session = self
  }

  /// Becomes readable when background work (lyrics, offsets) has finished.
  public var wakeFileDescriptor: Int32 { inbox.fileDescriptor }

  /// Applies the background work that has finished.
  public func drainInbox() {
    for job in inbox.drain() { job(self) }
  }

  /// Calls `observer` with every later ``SessionEvent``, on the session's thread.
  public func subscribe(_ observer: @escaping (SessionEvent) -> Void) {
    observers.append(observer)
  }

  /// Tells every subscriber.
  func notify(_ event: SessionEvent) {
    let shown: SessionEvent
    switch event {
    case .notice(let text, let isError):
      shown = .notice(SecretRedaction.redacting(text), isError: isError)
    case .progress(let text?): shown = .progress(SecretRedaction.redacting(text))
    default: shown = event
    }
    for observer in observers { observer(shown) }
  }

  /// The session now, for `ctl status`, watchers and events.
  public func status(pane: String? = nil) -> SessionStatus {
    var status = SessionStatus(
      snapshot: playback.snapshot, lyrics: playback.lyrics?.timeline, pane: pane)
    status.room = roomPart.roomStatus
    return status
  }

  /// Seconds until the session changes what a front end shows, or `nil` for never (see
  /// ``PlaybackPresenter/nextWake(includeWords:drawnAt:)``).
  public func nextWake(includeWords: Bool = false, drawnAt: Double? = nil) -> Double? {
    playback.nextWake(includeWords: includeWords, drawnAt: drawnAt)
  }

  /// Hands the player's events to playback, starts the lyrics look-up for a new track, adds
  /// it to the play history, and tells the observers.
  public func handlePlayerEvents(_ events: [PlayerEvent]) {
    // What the player says may hold a stream URL with its login: nothing past here sees it.
    for event in events.map(\.redactingSecrets) {
      playback.handle(event)
      switch event {
      case .started(let track, _):
        lyricsPart.trackStarted(track)
        libraryPart.recordPlay(of: track)
      case .trackEnded: lyricsPart.trackEnded()
      case .failed, .warning, .stream: break
      }
      notify(.player(event))
    }
  }

  /// Tells every front end why a command from a door that has no reply of its own (MPRIS,
  /// media keys) was not carried out; nothing when it was.
  public func announceFailure(of outcome: Outcome) {
    if case .failed(let reason) = outcome { notify(.notice(reason, isError: true)) }
  }

  /// Ends the session's playback as its process ends: the player stops and the room's link
  /// (if any) closes. The room itself plays on for its other members.
  public func close() {
    room?.stop()
    playback.stop()
  }

  // MARK: - Commands

  /// Carries out a playback, queue, lyrics or room command; the others belong to a front end
  /// and are ``Outcome/notForSession``.
  ///
  /// In a room, transport goes to the room (see ``RoomPart/roomRequest(for:)``). Every
  /// command is named here, so a new one cannot compile until someone decides whose it is.
  public func execute(_ command: Command) -> Outcome {
    if let room {
      if let refusal = roomPart.roomRefusal(of: command) { return .failed(refusal) }
      if let request = roomPart.roomRequest(for: command) {
        room.send(request)
        return .done(message: nil)
      }
    }
    switch command {
    case .togglePlay, .play, .pause, .stop, .next, .previous, .seek, .volume, .shuffle,
      .setShuffle, .repeat, .setRepeat:
      return queueCommands.transport(command)
    case .nudge, .lyricsSync, .lyricLine, .syncNudge, .syncCheck:
      return lyricsPart.execute(command)
    case .queueClear, .queueAdd, .playItem, .queueList, .queueRemove, .queueMove, .queuePlay,
      .playTracks, .playCatalog, .enqueue:
      return queueCommands.execute(command)
    case .importLibrary:
      browsingPart.importLibrary(with: libraryImport)
    case .publishLyricsNow:
      guard lyricsPublisher != nil else { return .failed(publishingUnavailable) }
      guard let track = playback.queue.current else { return .failed("nothing is playing") }
      browsingPart.publishLyrics(of: track, with: lyricsPublisher)
    case .status: return .done(message: queueCommands.summary)
    case .playlist, .library: return libraryPart.execute(command)
    case .chat, .room: return roomPart.execute(command)
    // The front ends' own: what is drawn, navigated, typed or stored in the user's library.
    case .lyrics, .publishLyrics, .findInLyrics, .translations, .romanize, .seekMode, .follow,
      .show, .nextPane, .move, .open, .back, .quit, .search, .help, .prompt, .add,
      .addToPlaylist, .save, .newPlaylist, .rename, .delete, .remove, .moveItemUp,
      .moveItemDown, .playAll:
      return .notForSession
    }
    return .done(message: nil)
  }

  /// `~` and `~/…` with the user's home folder.
  package static func expandingHome(_ path: String) -> String {
    guard path == "~" || path.hasPrefix("~/") else { return path }
    return NSString(string: path).expandingTildeInPath
  }
}
