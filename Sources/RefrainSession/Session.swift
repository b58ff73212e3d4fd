import Foundation
import RefrainCore

/// What ``Session/execute(_:)`` did with a command.
public enum Outcome: Sendable, Equatable {
  /// Carried out; `message` is what a status line may say ("volume 70%"), if anything.
  case done(message: String?)
  /// Not carried out; the reason fits on one line.
  case failed(String)
  /// Not a session command: it belongs to a front end (panes, lists, overlays, quitting).
  case notForSession
}

/// Something that happened in the session, for front ends that follow it.
public enum SessionEvent: Sendable, Equatable {
  /// The player reported this (a track started, ended or failed, or a warning).
  case player(PlayerEvent)
  /// The current track's lyrics arrived, or it turned out to have none.
  case lyricsChanged
  /// The session changed the user's library (a playlist edit): what shows it reads again.
  case libraryChanged
  /// Work a command started has finished (a save, an add): one line for a status line.
  case notice(String, isError: Bool)
  /// Long work is under way (an import, a publish, a list loading): one line that stays
  /// until the next notice; `nil` clears it.
  case progress(String?)
  /// Something a front end browses arrived (Home, search results, the library's lists).
  case browsingChanged
  /// The session entered or left a listening room.
  case roomChanged
}

/// Reads what a file's tags say about a track (title, artist, album, duration); runs off the
/// session's thread. A track that is not a readable file comes back as it was.
public typealias TrackDescriber = @Sendable (Track) -> Track

/// One listening session: playback, the queue, the lyrics pipeline and the user's lyric
/// offsets, shared by every front end (the full-screen player, `refrain play --events`, the
/// control socket and its watchers).
///
/// Front ends send ``Command``s to ``execute(_:)``, read ``status(pane:)`` and subscribe to
/// ``SessionEvent``s. Everything runs on one thread, the front end's loop: it polls
/// ``player``'s wake-up descriptor (then calls ``handlePlayerEvents(_:)``) and
/// ``wakeFileDescriptor`` (then calls ``drainInbox()``). Lyrics look-ups and library reads
/// and writes run on ``BackgroundExecutor`` and never block that thread.
public final class Session {
  /// Playback control: the player, the queue, the followed lyrics. Only the session and its
  /// parts change it; front ends read ``snapshot`` and ``queue``.
  let playback: PlaybackPresenter
  /// The audio player the session drives.
  public let player: any AudioPlayer
  private let library: (any LibraryPort)?
  private let lyricsLoader: @Sendable (Track) async -> LyricsResult
  /// Where background work reports back; its descriptor is ``wakeFileDescriptor``.
  let inbox = Inbox<Session>()
  private var observers: [(SessionEvent) -> Void] = []
  /// What the lyrics pane says instead of lyrics ("looking for lyrics…", "no lyrics: …").
  public private(set) var lyricsNotice: String?
  /// Tap-to-sync in progress, if any (`lyrics sync start`).
  public internal(set) var sync: LyricsSync?
  /// The line and time of the last stamp, for `refrain ctl lyrics sync stamp`'s answer.
  var lastSyncStamp: (line: Int, ms: Int)?
  /// The listening room the session is in, or `nil`: while it is set, the room decides what
  /// plays (see ``play(_:startAt:position:paused:)``).
  public var room: (any RoomChannel)?
  /// Starts the link to the room at a URL (`room join URL`), with the token the player was
  /// started with; `nil` where the front end cannot join rooms.
  public var roomJoiner: ((_ url: String) throws -> any RoomChannel)?
  /// A track a member asked the room to play, until the room's queue shows it.
  var pendingRoomPlay: PendingRoomPlay?
  /// The user's library (playlists, likes, history, the saved session), called off the
  /// loop's thread in order; `nil` when it could not be opened.
  public private(set) var libraryCalls: LibraryCalls?
  /// The catalog tracks behind the tracks queued from a catalog, by their identity: what a
  /// playlist add of `current`, the play history and the saved session store.
  var catalogTracks: [CatalogTrackID: CatalogTrack] = [:]
  /// The catalog that refreshes its tracks' stream URLs before they play; `nil` plays
  /// catalog tracks with the URLs they carry.
  public var catalog: (any CatalogProvider)?
  /// Reads a file's tags, so a track queued by its path is described as a scanned one is;
  /// `nil` leaves such tracks with their file names.
  public var describe: TrackDescriber?
  /// The last tag read asked for; the next one is applied after it, so adds keep their order.
  private var describeTail: Task<Void, Never>?
  /// What front ends browse: Home, the last search, the library's lists (Session+Browse).
  public internal(set) var browsing = Browsing()
  /// Whether a library import is running (one at a time).
  var importRunning = false
  /// Whether timed lyrics are being published (one at a time).
  var publishing = false
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
    self.player = player
    self.library = library
    self.lyricsLoader = lyricsLoader
    playback = PlaybackPresenter(player: player, queue: queue, volume: volume)
    libraryCalls = storage.map { LibraryCalls(storage: $0, inbox: inbox) }
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

  /// The session now, for `ctl status`, watchers and events.
  public func status(pane: String? = nil) -> SessionStatus {
    var status = SessionStatus(
      snapshot: playback.snapshot, lyrics: playback.lyrics?.timeline, pane: pane)
    status.room = roomStatus
    return status
  }

  /// Seconds until the session changes what a front end shows, or `nil` for never.
  ///
  /// While playing: the next whole second of the audible position (a progress bar), and the
  /// next lyric line change (or word change with `includeWords`); soon, while the audible
  /// clock has not started yet; every 0.25 s while a track loads. Paused or stopped: never.
  ///
  /// `drawnAt` is the position the front end last drew from. The changes are counted from
  /// it (or from now, when now is earlier, as after a seek back), never from a later
  /// reading: a second or a line that began between drawing and asking is then due at
  /// once, where counting from now would skip it and leave the screen a whole second
  /// behind what is heard.
  public func nextWake(includeWords: Bool = false, drawnAt: Double? = nil) -> Double? {
    switch player.state {
    case .playing:
      let position = min(drawnAt ?? .infinity, player.position)
      // Playing, but the audible clock has not started yet (no audio written since the
      // start, a seek or a resume; PulseAudio can take a second): look again soon, or the
      // position shown would freeze until the next input.
      var wake = player.delay(untilPosition: position.rounded(.down) + 1) ?? 0.05
      if let change = playback.lyrics?.timeline.nextChange(
        after: position, includeWords: includeWords),
        let delay = player.delay(untilPosition: change)
      {
        wake = min(wake, delay)
      }
      return wake
    case .loading:
      return 0.25
    case .idle, .paused, .stopped:
      return nil
    }
  }

  // MARK: - Player events

  /// Hands the player's events to playback, starts the lyrics look-up for a new track, and
  /// tells the observers.
  public func handlePlayerEvents(_ events: [PlayerEvent]) {
    for event in events {
      playback.handle(event)
      switch event {
      case .started(let track, _):
        sync = nil
        if playback.isLive {
          // Radio: what is on air changes under one track, so no lyrics are looked up.
          playback.setLyrics(nil)
          lyricsNotice = "no lyrics for radio"
        } else {
          lookUpLyrics(for: track)
        }
        recordPlay(of: track)
      case .trackEnded: if playback.isFinished { lyricsNotice = nil }
      case .failed, .warning, .stream: break
      }
      notify(.player(event))
    }
  }

  /// Adds a catalog track that started to the play history, in the background.
  private func recordPlay(of track: Track) {
    guard let stored = track.catalogID.flatMap({ catalogTracks[$0] }) else { return }
    let date = Date()
    libraryCalls?.call({ try $0.recordPlay(stored, at: date, secondsPlayed: nil) }) { _ in }
  }

  /// Loads the current track's lyrics again (after they were saved).
  func reloadLyrics() {
    guard let track = playback.queue.current else { return }
    lookUpLyrics(for: track)
  }

  private func lookUpLyrics(for track: Track) {
    playback.setLyrics(nil)
    lyricsNotice = "looking for lyrics…"
    let loader = lyricsLoader
    let library = library
    let inbox = inbox
    Task.detached(executorPreference: BackgroundExecutor.shared) {
      let result = await loader(track)
      let offset = (try? library?.lyricOffset(for: track.id)) ?? 0
      inbox.post { session in
        guard track.isSameEntry(as: session.playback.queue.current) else { return }
        session.showLyrics(result, offset: offset)
      }
    }
  }

  private func showLyrics(_ result: LyricsResult, offset: Int) {
    switch result {
    case .found(let document, _):
      playback.setLyrics(document, userOffsetMs: offset)
      lyricsNotice = document.isSynced ? nil : "plain lyrics (not synced)"
    case .instrumental:
      lyricsNotice = "no lyrics: instrumental"
    case .notFound(let reasons):
      lyricsNotice = "no lyrics: \(reasons.last ?? "not found")"
    }
    notify(.lyricsChanged)
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

  func notify(_ event: SessionEvent) {
    for observer in observers { observer(event) }
  }

  // MARK: - Commands

  /// Carries out a playback, queue, lyrics or room command; the others belong to a front end
  /// and are ``Outcome/notForSession``.
  ///
  /// In a room, transport goes to the room (see ``roomRequest(for:)``). Every command is
  /// named here, so a new one cannot compile until someone decides whose it is.
  public func execute(_ command: Command) -> Outcome {
    if let room {
      if let refusal = roomRefusal(of: command) { return .failed(refusal) }
      if let request = roomRequest(for: command) {
        room.send(request)
        return .done(message: nil)
      }
    }
    switch command {
    case .togglePlay: playback.togglePlay()
    case .play:
      if playback.state != .playing && playback.state != .loading { playback.togglePlay() }
    case .pause: playback.pause()
    case .stop: playback.stop()
    case .next:
      guard playback.next() else {
        return .failed(
          playback.queue.isEmpty ? "the queue is empty" : "this is the last track in the queue")
      }
    case .previous: playback.previous()
    case .seek(.relative(let delta)): playback.seek(by: delta)
    case .seek(.absolute(let seconds)): playback.seek(to: seconds)
    case .volume(.relative(let delta)):
      playback.adjustVolume(by: delta)
      return .done(message: "volume \(playback.volume)%")
    case .volume(.absolute(let percent)):
      playback.setVolume(percent)
      return .done(message: "volume \(playback.volume)%")
    case .shuffle:
      playback.toggleShuffle()
      return .done(message: "shuffle \(playback.queue.isShuffled ? "on" : "off")")
    case .setShuffle(let on):
      if on != playback.queue.isShuffled { playback.toggleShuffle() }
      return .done(message: "shuffle \(on ? "on" : "off")")
    case .repeat:
      playback.cycleRepeat()
      return .done(message: "repeat \(playback.queue.repeatMode.rawValue)")
    case .setRepeat(let mode):
      playback.setRepeat(mode)
      return .done(message: "repeat \(mode.rawValue)")
    case .nudge(let delta): return nudge(delta)
    case .lyricsSync(.save):
      saveTimedLyrics { _ in }
      return .done(message: "saving the timed lyrics…")
    case .lyricsSync(let step): return lyricsSync(step)
    case .lyricLine(let index):
      guard let timeline = playback.lyrics?.timeline, timeline.isSynced, timeline.count > 0 else {
        return .failed("no synced lyrics to seek in")
      }
      guard index < timeline.count else {
        return .failed("line \(index) is past the last line (\(timeline.count - 1))")
      }
      playback.seekToLine(index)
    case .queueClear:
      if room != nil { return .failed("the room's queue is edited entry by entry: queue remove N") }
      playback.clearQueue()
    case .queueAdd(let item):
      return add(item, playing: false) { [weak self] outcome in
        if case .failed(let reason) = outcome { self?.notify(.notice(reason, isError: true)) }
      }
    case .queueList:
      let view = queue
      return .done(
        message: "\(view.count) in \(view.room == nil ? "the queue" : "the room's queue")")
    case .queueRemove(let position): return removeFromQueue(at: position)
    case .queueMove(let from, let to): return moveInQueue(from: from, to: to)
    case .queuePlay(let position): return playFromQueue(at: position)
    case .playTracks(let list):
      return play(list.tracks, startAt: list.start, position: list.position, paused: list.paused)
    case .enqueue(let tracks): return enqueue(tracks)
    case .status: return .done(message: summary)
    case .chat(let text):
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      guard let room else { return .failed("not in a listening room") }
      guard !trimmed.isEmpty else { return .failed("expected 'chat TEXT'") }
      room.send(.chat(text: trimmed))
    case .playlist(let edit):
      perform(edit) { [weak self] answer in
        switch answer {
        case .success(let text):
          self?.notify(.notice(text == "ok" ? "playlist updated" : text, isError: false))
        case .failure(let failure): self?.notify(.notice(failure.message, isError: true))
        }
      }
    case .library(let edit): return apply(edit)
    case .room(.leave): return leaveRoom()
    case .room(.join(let url)): return joinRoom(url)
    case .room(.play): return .failed("not in a listening room")
    // The front ends' own: what is drawn, navigated, typed or stored in the user's library.
    case .lyrics, .publishLyrics, .findInLyrics, .translations, .romanize, .seekMode, .follow,
      .show, .nextPane, .move, .open, .back, .quit, .search, .help, .prompt, .add,
      .addToPlaylist, .save, .newPlaylist, .rename, .delete, .remove, .moveItemUp,
      .moveItemDown, .playAll, .importLibrary:
      return .notForSession
    }
    return .done(message: nil)
  }

  /// Adds a file or URL to the queue, described by its tags, then calls `then` on the
  /// session's thread once it is queued (or why not). With `playing`, it plays at once.
  ///
  /// The tags are read off the session's thread; adds are applied in the order asked. In a
  /// room, the room queues it for everyone, or refuses with the reason.
  @discardableResult
  public func add(
    _ item: String, playing: Bool, then: @escaping (Outcome) -> Void = { _ in }
  ) -> Outcome {
    var track = Track(argument: Self.expandingHome(item))
    if track.location.isFileURL {
      track.location = track.location.standardizedFileURL
      track.id = track.location.path
    }
    if let room {
      let outcome: Outcome
      let named = room.follower.library.contains { $0.path == item } ? item : nil
      if let path = named ?? roomPath(for: track) {
        if playing {
          outcome = playInRoom(path, title: track.title)
        } else {
          room.send(.queueAdd(path: path))
          outcome = .done(message: "added \(track.title) to the room's queue")
        }
      } else if room.follower.library.isEmpty && track.location.isFileURL {
        // The room has not listed its library yet: the server decides.
        room.send(.queueAdd(path: item))
        outcome = .done(message: "asked the room to add \(track.title)")
      } else {
        outcome = .failed(notInRoom(track))
      }
      then(outcome)
      return outcome
    }
    let describe = describe
    let previous = describeTail
    let inbox = inbox
    let reply = SessionOnly(then)
    let queued = track
    describeTail = Task.detached(executorPreference: BackgroundExecutor.shared) {
      await previous?.value
      // A missing or unreadable file is refused now, not when its turn comes.
      let problem = fileProblem(queued.location)
      let described = problem == nil ? (describe?(queued) ?? queued) : queued
      inbox.post { session in
        if let problem { return reply.value(.failed(problem)) }
        session.playback.enqueue([described])
        if playing { session.playback.jump(to: session.playback.queue.count - 1) }
        reply.value(.done(message: "added \(described.title) to the queue"))
      }
    }
    return .done(message: "adding \(queued.title) to the queue")
  }

  /// Saves the timed lyrics (``saveSync(then:)``), tells every front end on the status line
  /// (`saved song.lrc; lyrics reloaded`, or why not), then calls `reply` with the answer
  /// `refrain ctl` gets: `{"path":…}` or the failure.
  func saveTimedLyrics(reply: @escaping (Answer) -> Void) {
    saveSync { [weak self] result in
      switch result {
      case .success(let path):
        let name = path.hasPrefix("/") ? URL(fileURLWithPath: path).lastPathComponent : path
        self?.notify(.notice("saved \(name); lyrics reloaded", isError: false))
        reply(.success(SessionJSON.line(["path": path])))
      case .failure(let failure):
        self?.notify(.notice(failure.description, isError: true))
        reply(.failure(CommandFailure(failure.description)))
      }
    }
  }

  /// One line on what is playing: `playing: Title 0:12 / 3:04`.
  public var summary: String {
    let snapshot = playback.snapshot
    guard let track = snapshot.track else { return "nothing is playing" }
    let position = ClockText.minutesSeconds(snapshot.position)
    return "\(snapshot.state.rawValue): \(track.title) \(position.isEmpty ? "0:00" : position) / "
      + ClockText.minutesSeconds(snapshot.duration)
  }

  /// Shifts the lyrics; the new offset is saved for the track in the background.
  private func nudge(_ delta: Int) -> Outcome {
    guard let track = playback.queue.current else { return .failed("nothing is playing") }
    let offset = playback.nudgeLyrics(by: delta)
    if let library {
      Task.detached(executorPreference: BackgroundExecutor.shared) {
        _ = try? library.setLyricOffset(offset, for: track.id)
      }
    }
    return .done(message: "lyrics offset \(offset > 0 ? "+" : "")\(offset) ms")
  }

  /// `~` and `~/…` with the user's home folder.
  package static func expandingHome(_ path: String) -> String {
    guard path == "~" || path.hasPrefix("~/") else { return path }
    return NSString(string: path).expandingTildeInPath
  }
}

/// Why the file at `location` cannot be queued (missing, a folder, unreadable), or `nil` for
/// a readable file and for anything that is not a file. It reads the disk: call it off the
/// session's thread.
func fileProblem(_ location: URL) -> String? {
  guard location.isFileURL else { return nil }
  let path = location.path
  var isFolder: ObjCBool = false
  let shown = TerminalSanitizer.clean(path)
  guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
    return "no such file: \(shown)"
  }
  if isFolder.boolValue { return "\(shown) is a folder, not an audio file" }
  guard FileManager.default.isReadableFile(atPath: path) else {
    return "cannot read \(shown): permission denied"
  }
  return nil
}
