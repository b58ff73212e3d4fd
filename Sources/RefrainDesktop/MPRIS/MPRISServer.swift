import Foundation
import RefrainCore
import RefrainSession

/// MPRIS 2, a front end of the ``Session`` like the keys and `refrain ctl`: media keys,
/// `playerctl`, panels and widgets reach Refrain through it.
///
/// It runs on the session's loop thread. The loop polls ``pollDescriptors`` (requests from
/// the bus, finished detail look-ups) and calls ``handle(_:)`` when one is ready, and calls
/// ``refresh()`` after every wake-up, whatever woke it: the server then compares what it
/// published with the session and publishes the difference (PropertiesChanged within the
/// same wake-up), announces seeks, and moves the anchor `Position` is computed from. It has
/// no timer of its own, so a paused player stays asleep.
///
/// Requests become ``Command``s for ``Session/execute(_:)``, the same commands keys and
/// `ctl` send.
public final class MPRISServer {
  /// The bus name Refrain asks for first.
  public static let busName = "org.mpris.MediaPlayer2.refrain"

  /// The bus name a second Refrain takes: `org.mpris.MediaPlayer2.refrain.instance<PID>`.
  public static func instanceName(pid: Int32) -> String {
    "\(busName).instance\(pid)"
  }

  private let session: Session
  private var endpoint: (any MPRISEndpoint)?
  private let lookUpDetails: TrackDetailsLookup?
  private let log: (String) -> Void
  private let onQuit: () -> Void
  private let inbox = Inbox<MPRISServer>()

  private var publishedState: MPRISPlayerState?
  private var publishedMetadata: MPRISMetadata??
  private var publishedAnchor: MPRISPosition?
  private var seekCount: Int
  /// The track id whose details were asked for, and what came back.
  private var detailsTrackID: String?
  private var currentDetails: TrackDetails?
  /// Whether a desktop notification goes out on each track change (`desktop.notify`).
  private let notifies: Bool
  /// The live stream's title last announced, so each title is announced once.
  private var notifiedStreamTitle: String?
  /// The track change to announce once its details are known and it plays.
  private var pendingNotification: (id: String, track: Track, details: TrackDetails)?

  /// The bus name owned, once the bus answered.
  public private(set) var ownedName: String?

  /// Whether the server is on the bus or still getting there (not stopped, and the bus did
  /// not turn out to be missing).
  public var isRunning: Bool { endpoint != nil }

  /// Starts MPRIS on the session bus for `session`; `nil` only when the process has no
  /// thread or descriptor to spare.
  ///
  /// - Parameters:
  ///   - details: Finds the tags and the cached cover of a track, in the background.
  ///   - log: Receives one line when the bus is there or not: never the terminal.
  ///   - onQuit: What `Quit` does (the front end's own way to end).
  public static func start(
    session: Session, details: TrackDetailsLookup?, notifies: Bool = false,
    log: @escaping (String) -> Void, onQuit: @escaping () -> Void
  ) -> MPRISServer? {
    // No bus announced (SSH, a console): GLib is not even started, which keeps its threads
    // and about 2 MiB of memory out of the process.
    guard sessionBusMayExist(environment: ProcessInfo.processInfo.environment) else {
      log(
        "MPRIS off: no session bus (DBUS_SESSION_BUS_ADDRESS is not set and "
          + "$XDG_RUNTIME_DIR/bus is absent)")
      return nil
    }
    if let problem = MPRISBus.pluginProblem() {
      log("MPRIS off: \(problem)")
      return nil
    }
    guard
      let bus = MPRISBus(name: busName, fallbackName: instanceName(pid: getpid()))
    else {
      log("MPRIS off: could not start its thread")
      return nil
    }
    return MPRISServer(
      session: session, endpoint: bus, details: details, notifies: notifies, log: log,
      onQuit: onQuit)
  }

  /// Whether a session bus may be there: its address is set, or the usual socket
  /// (`$XDG_RUNTIME_DIR/bus`) exists. Nothing else is tried: no bus is ever launched.
  public static func sessionBusMayExist(environment: [String: String]) -> Bool {
    if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
    guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return false }
    return FileManager.default.fileExists(atPath: runtime + "/bus")
  }

  /// Creates a server over `endpoint` and publishes the session as it is.
  public init(
    session: Session, endpoint: any MPRISEndpoint, details: TrackDetailsLookup?,
    notifies: Bool = false, log: @escaping (String) -> Void, onQuit: @escaping () -> Void
  ) {
    self.session = session
    self.endpoint = endpoint
    self.notifies = notifies
    lookUpDetails = details
    self.log = log
    self.onQuit = onQuit
    seekCount = session.seekCount
    refresh()
  }

  /// What the loop polls: the bus's requests and the finished detail look-ups.
  public var pollDescriptors: [pollfd] {
    var descriptors = [pollfd(fd: inbox.fileDescriptor, events: Int16(POLLIN), revents: 0)]
    if let endpoint {
      descriptors.append(pollfd(fd: endpoint.wakeFileDescriptor, events: Int16(POLLIN), revents: 0))
    }
    return descriptors
  }

  /// Carries out the waiting requests and applies the finished look-ups, then refreshes.
  public func handle(_ ready: [pollfd] = []) {
    for job in inbox.drain() { job(self) }
    for request in endpoint?.takeRequests() ?? [] { apply(request) }
    refresh()
  }

  /// Leaves the bus.
  public func stop() {
    endpoint?.stop()
    endpoint = nil
  }

  // MARK: - Publishing

  /// Publishes what changed since the last call: properties, metadata, a seek, and the
  /// position anchor. Call it after every wake-up of the loop.
  public func refresh() {
    guard let endpoint else { return }
    let snapshot = session.snapshot
    // In a listening room, the room's queue: `next` there advances the whole room.
    let state = MPRISPlayerState(snapshot: snapshot, hasNext: session.queue.hasNext)
    if state != publishedState {
      endpoint.publish(state)
      publishedState = state
    }
    let metadata = snapshot.track.map { track in
      MPRISMetadata(
        track: snapshot.shownTrack ?? track, duration: snapshot.duration,
        details: details(for: track), lyrics: session.lyricsDocument)
    }
    if publishedMetadata != .some(metadata) {
      endpoint.publish(metadata)
      publishedMetadata = .some(metadata)
    }
    notifyIfPlaying(snapshot.state)
    notifyStreamTitle(snapshot)
    let loaded = snapshot.state == .playing || snapshot.state == .paused
    let anchor = MPRISPosition(
      microseconds: loaded ? MPRISMetadata.microseconds(snapshot.position) : 0,
      advancing: snapshot.state == .playing, limit: metadata?.length)
    if anchor != publishedAnchor {
      endpoint.anchor(anchor)
      publishedAnchor = anchor
    }
    if session.seekCount != seekCount {
      seekCount = session.seekCount
      endpoint.seeked(to: anchor.microseconds)
    }
  }

  /// The details known for `track`; asks for them once per queue entry.
  private func details(for track: Track) -> TrackDetails? {
    let id = MPRISTrackID.path(for: track) + "\u{1F}" + track.id
    if id == detailsTrackID { return currentDetails }
    detailsTrackID = id
    currentDetails = nil
    guard let lookup = lookUpDetails else {
      if notifies { pendingNotification = (id, track, TrackDetails()) }
      return nil
    }
    let inbox = inbox
    Task.detached(executorPreference: BackgroundExecutor.shared) {
      let found = await lookup(track)
      inbox.post { server in
        guard server.detailsTrackID == id else { return }
        server.currentDetails = found
        if server.notifies { server.pendingNotification = (id, track, found) }
      }
    }
    return nil
  }

  /// Sends the waiting track notification once its track plays (a session restored paused
  /// is announced when play is pressed, not at start-up).
  private func notifyIfPlaying(_ state: PlayerState) {
    guard let pending = pendingNotification, state == .playing else { return }
    pendingNotification = nil
    guard pending.id == detailsTrackID else { return }
    notify(pending.track, pending.details)
  }

  /// A desktop notification for each new title of a live stream (`desktop.notify`): the
  /// title, then the artist and the station.
  private func notifyStreamTitle(_ snapshot: PlaybackSnapshot) {
    let raw = snapshot.streamTitle?.raw
    guard raw != notifiedStreamTitle else { return }
    notifiedStreamTitle = raw
    guard notifies, snapshot.state == .playing, let shown = snapshot.shownTrack, raw != nil else {
      return
    }
    notify(shown, TrackDetails())
  }

  /// The desktop notification for a track change: title; artist and album; the cover.
  private func notify(_ track: Track, _ details: TrackDetails) {
    let artist = details.artist ?? track.artist
    let album = details.album ?? track.album
    let body = [artist, album].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " — ")
    endpoint?.notify(summary: details.title ?? track.title, body: body, icon: details.coverFile)
  }

  // MARK: - Requests

  /// Carries out one request from the bus.
  func apply(_ request: MPRISRequest) {
    switch request {
    case .connected(let name):
      ownedName = name
      log("MPRIS: on the session bus as \(name)")
    case .unavailable(let reason):
      log("MPRIS off: no session bus (\(reason))")
      stop()
    case .disconnected(let reason):
      log("MPRIS off: the session bus went away (\(reason))")
      stop()
    case .quit: onQuit()
    case .next: run(.next)
    case .previous: run(.previous)
    case .pause: run(.pause)
    case .playPause: run(.togglePlay)
    case .stop: run(.stop)
    case .play: run(.play)
    case .seek(let offset): seek(by: offset)
    case .setPosition(let trackID, let position): setPosition(position, of: trackID)
    case .openURI(let uri): open(uri)
    case .setVolume(let volume):
      if let percent = MPRISPlayerState.percent(volume: volume) {
        run(.volume(.absolute(percent)))
      }
    case .setLoop(let loop): run(.setRepeat(loop.repeatMode))
    case .setShuffle(let on): run(.setShuffle(on))
    }
  }

  /// Carries out `command`; a refusal is told to every front end (MPRIS has no reply).
  private func run(_ command: Command) {
    session.announceFailure(of: session.execute(command))
  }

  /// `Seek`: relative to the audible position; past the end, as `Next` (the specification's
  /// rule).
  private func seek(by offset: Int64) {
    let snapshot = session.snapshot
    guard snapshot.track != nil else { return }
    let target = snapshot.position + Double(offset) / 1_000_000
    if let duration = snapshot.duration, target > duration {
      run(.next)
    } else {
      run(.seek(.absolute(max(0, target))))
    }
  }

  /// `SetPosition`: only for the current track's id and a position within the track.
  private func setPosition(_ position: Int64, of trackID: String) {
    let snapshot = session.snapshot
    guard let track = snapshot.track, MPRISTrackID.path(for: track) == trackID, position >= 0
    else { return }
    let seconds = Double(position) / 1_000_000
    if let duration = snapshot.duration, seconds > duration { return }
    run(.seek(.absolute(seconds)))
  }

  /// `OpenUri`: adds the file or stream to the queue, described by its tags, and plays it;
  /// in a room, the room decides.
  private func open(_ uri: String) {
    guard let item = Self.queueItem(uri: uri) else { return }
    run(.playItem(item))
  }

  /// What `queue add` takes for `uri`: the path of a `file://` URI, an `http(s)` URI as is.
  static func queueItem(uri: String) -> String? {
    guard let url = URL(string: uri), let scheme = url.scheme?.lowercased() else { return nil }
    switch scheme {
    case "file": return url.path.isEmpty ? nil : url.path
    case "http", "https": return uri
    default: return nil
    }
  }
}
