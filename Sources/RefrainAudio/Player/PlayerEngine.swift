import Foundation
import RefrainCore

/// Plays tracks on its own thread: decode, apply volume, write, and keep the audible clock.
///
/// Callers never block: commands go into a mailbox, and events come back through
/// ``wakeFileDescriptor`` (a pipe that a `poll()` loop can wait on) and ``drainEvents()``.
/// A track prepared with ``prepareNext(_:)`` follows the current one without a gap: one of
/// another format is converted to the open output's (``ResampledDecoder``). The output is
/// reopened at a track's own format only where playback stops anyway: a resume, a new
/// track, or a successor that comes after the output ran dry; an output that holds one
/// format (a file) keeps it throughout.
public final class PlayerEngine: AudioPlayer, @unchecked Sendable {
  private enum Command {
    case play(Track, Double)
    case prepare(Track?)
    case pause
    case resume
    case stop
    case seek(Double)
    /// Flush and refill at the heard position, so a volume change is heard at once.
    case refill
    case shutdown
  }

  private struct Loaded {
    var track: Track
    var decoder: any AudioDecoder
    /// The ReplayGain applied to the track, in dB; `nil` plays it unchanged.
    var gain: Double?
  }

  /// Waiting for a lost audio server: a state of the one loop, which keeps taking commands.
  private struct Outage {
    /// Where playback resumes when the server is back (a seek moves it).
    var resumeAt: Double
    /// Whether the user paused meanwhile: then nothing is tried until a resume.
    var paused = false
    /// The next reconnection attempt, on the monotonic clock.
    var nextTry: Double
    /// The current backoff: 0.1 s doubling to 0.5 s.
    var backoff = 0.1
  }

  // Shared state, guarded by `lock`.
  private let lock = NSCondition()
  private var mailbox: [Command] = []
  /// Events for the owner's loop.
  private let events = WakeQueue<PlayerEvent>()
  private var clock = AudibleClock()
  private var currentState: PlayerState = .idle
  private var volumePercent = 100
  /// The ReplayGain of the track the listener hears, in dB.
  private var heardGain: Double?
  /// Why the current track refuses seeks, if it does: its clock then never moves for one.
  private var currentRefusal: String?

  // Player-thread state.
  private let output: any AudioOutput
  private var current: Loaded? {
    didSet {
      let refusal = current?.track.seeking?.refusal
      lock.lock()
      currentRefusal = refusal
      lock.unlock()
    }
  }
  private var prepared: (track: Track, result: Result<Loaded, AudioError>)?
  /// Whether a track ended with no successor prepared yet; a late `prepare` starts it.
  private var awaitingSuccessor = false
  /// One MPEG-1 Layer III frame decoded to 16-bit stereo: the unit the decoder reads in.
  private static let frameBytes = 4608
  private var buffer: [UInt8]
  /// Track-change events held back until the listener hears the boundary (gapless hand-over
  /// into a deep output queue), with the monotonic time they fall due.
  private var announcement: (due: Double, events: [PlayerEvent], gain: Double?)?
  /// Whether the output is open (the player closes an idle sound-server connection).
  private var outputOpen = false
  /// The format the output was last opened at, while it is open.
  private var outputFormat: PCMFormat?
  /// Set while the audio server is gone and the current track waits for it.
  private var outage: Outage?
  /// The last frames decoded, held back while the prepared successor needs the output
  /// reopened at another format, so the track's very end can be faded out (see ``EdgeFade``).
  private var heldTail: [UInt8] = []
  /// Whether the next write starts an output reopened for a new format: silence, then the
  /// track faded in.
  private var fadeInPending = false
  /// Seconds paused or stopped before an output that ``AudioOutput/closesWhenIdle`` closes.
  private let idleClose: Double
  private let replayGain: ReplayGainPolicy
  /// Seconds each track plays from where it starts, when limited (`--duration`).
  private let playLimit: Double?
  private var thread: Thread?

  /// Creates an engine writing to `output` and starts its thread.
  ///
  /// An output that ``AudioOutput/closesWhenIdle`` is closed after `idleClose` seconds
  /// paused or stopped, and opened again on the next play or resume.
  /// `replayGain` says which gain each track plays with (none by default); with `playLimit`,
  /// every track ends that many seconds of frames after where it starts.
  public init(
    output: any AudioOutput, idleClose: Double = 2.0, replayGain: ReplayGainPolicy = .off,
    playLimit: Double? = nil
  ) {
    self.output = output
    self.idleClose = idleClose
    self.replayGain = replayGain
    self.playLimit = playLimit
    // One MPEG frame per write for outputs that pace by blocking; a refill's worth
    // (about 0.74 s at 44.1 kHz) for outputs that keep a deep queue.
    buffer = [UInt8](
      repeating: 0, count: output.bufferAhead == nil ? Self.frameBytes : Self.frameBytes * 28)
    let thread = Thread { [self] in
      nameCurrentThread("refrain-player")
      self.run()
    }
    thread.name = "refrain-player"
    thread.qualityOfService = .userInteractive
    self.thread = thread
    thread.start()
  }

  // MARK: - AudioPlayer

  public var wakeFileDescriptor: Int32 { events.fileDescriptor }

  public func drainEvents() -> [PlayerEvent] { events.drain() }

  public func play(_ track: Track, startAt: Double) { send(.play(track, startAt)) }
  public func prepareNext(_ track: Track?) { send(.prepare(track)) }
  public func pause() { send(.pause) }
  public func resume() { send(.resume) }
  public func stop() { send(.stop) }
  /// Seeks; the reported position moves at once, so a lyric highlight can follow it (a
  /// track that refuses seeks keeps its position, and the refusal comes as a warning).
  public func seek(to seconds: Double) {
    lock.lock()
    if currentState == .playing || currentState == .paused, currentRefusal == nil {
      clock.reset(to: max(0, seconds))
    }
    mailbox.append(.seek(seconds))
    lock.signal()
    lock.unlock()
  }

  public func setVolume(_ percent: Int) {
    lock.lock()
    let clamped = min(100, max(0, percent))
    let changed = volumePercent != clamped
    volumePercent = clamped
    // A deep output queue would hold the old volume for up to its length.
    if changed, output.bufferAhead != nil, currentState == .playing {
      mailbox.append(.refill)
      lock.signal()
    }
    lock.unlock()
  }

  public var position: Double {
    lock.lock()
    defer { lock.unlock() }
    return clock.position(at: MonotonicClock.now)
  }

  public var state: PlayerState {
    lock.lock()
    defer { lock.unlock() }
    return currentState
  }

  /// The ReplayGain applied to the track being heard, in dB; `nil` when none is.
  public var appliedGain: Double? {
    lock.lock()
    defer { lock.unlock() }
    return currentState == .playing || currentState == .paused ? heardGain : nil
  }

  /// Wall-clock seconds until the audible position reaches `target`; `nil` unless playing.
  ///
  /// Callers use it to sleep until a lyric line or a progress-bar second is heard.
  public func delay(untilPosition target: Double) -> Double? {
    lock.lock()
    defer { lock.unlock() }
    guard currentState == .playing else { return nil }
    return clock.delay(until: target, at: MonotonicClock.now)
  }

  /// Stops the thread and closes the output; the engine cannot be used afterwards.
  public func shutdown() {
    send(.shutdown)
    while thread?.isFinished == false { MonotonicClock.sleep(seconds: 0.002) }
  }

  // MARK: - Mailbox and events

  private func send(_ command: Command) {
    lock.lock()
    mailbox.append(command)
    lock.signal()
    lock.unlock()
  }

  private var hasMail: Bool {
    lock.lock()
    defer { lock.unlock() }
    return !mailbox.isEmpty
  }

  private func post(_ events: PlayerEvent...) { post(events) }

  private func post(_ newEvents: [PlayerEvent]) { events.post(contentsOf: newEvents) }

  private func setState(_ state: PlayerState) {
    lock.lock()
    currentState = state
    lock.unlock()
  }

  // MARK: - The player thread

  private func run() {
    while true {
      lock.lock()
      while mailbox.isEmpty && !(currentState == .playing && current != nil) {
        if let waiting = outage, !waiting.paused {
          // Sleep until the next reconnection attempt, or a command.
          let wait = waiting.nextTry - MonotonicClock.now
          if wait <= 0 { break }
          _ = lock.wait(until: Date().addingTimeInterval(wait))
          continue
        }
        guard outputOpen && output.closesWhenIdle else {
          lock.wait()
          continue
        }
        if !lock.wait(until: Date().addingTimeInterval(idleClose)), mailbox.isEmpty {
          // Paused or stopped for a while: hang up, so nothing wakes until the next play.
          lock.unlock()
          closeOutput()
          lock.lock()
        }
      }
      let commands = mailbox
      mailbox.removeAll()
      lock.unlock()
      for command in commands {
        if case .shutdown = command {
          current = nil
          closeOutput()
          return
        }
        handle(command)
      }
      announceIfDue()
      if outage != nil { retryOutput() }
      if state == .playing, current != nil, outage == nil { pump() }
    }
  }

  /// Posts held-back track-change events once due, or at once when `now` is true.
  private func announceIfDue(now: Bool = false) {
    guard let pending = announcement, now || MonotonicClock.now >= pending.due else { return }
    announcement = nil
    withClock { _ in heardGain = pending.gain }
    post(pending.events)
  }

  /// Sleeps up to `seconds` (less when an announcement falls due first), waking for commands.
  private func sleepUnlessMail(_ seconds: Double) {
    var wait = seconds
    if let due = announcement?.due { wait = min(wait, due - MonotonicClock.now) }
    guard wait > 0.001 else { return }
    lock.lock()
    if mailbox.isEmpty { _ = lock.wait(until: Date().addingTimeInterval(wait)) }
    lock.unlock()
  }

  private func handle(_ command: Command) {
    if outage != nil, handleDuringOutage(command) { return }
    switch command {
    case .prepare, .refill, .resume: break
    default:
      // The old track's tail is about to be dropped: what was held back is true now.
      announceIfDue(now: true)
    }
    switch command {
    case .play(let track, let start):
      startTrack(track, at: start)
    case .prepare(let track):
      prepared = track.map { ($0, load($0).map(joining)) }
      // The track ended before this successor arrived (a very short track or a fast
      // output): start it now, as the hand-over would have.
      if awaitingSuccessor, let next = prepared {
        awaitingSuccessor = false
        prepared = nil
        switch next.result {
        case .success(let loaded): begin(loaded, at: 0)
        case .failure(let error): post(.failed(next.track, message: error.description))
        }
      }
    case .pause:
      guard state == .playing, let current else { return }
      rewindToHeard(current)
      setState(.paused)
    case .refill:
      guard state == .playing, let current else { return }
      rewindToHeard(current)
    case .resume:
      guard state == .paused, let current = reopenedAtOwnFormat() else { return }
      do {
        try openOutput(current.decoder.format)
        setState(.playing)
      } catch {
        // The audio server went away while paused: wait for it as after a lost stream.
        waitForServer(current, after: "\(error)", paused: false)
      }
    case .stop:
      awaitingSuccessor = false
      dropOutput()
      current = nil
      withClock { $0.reset(to: 0) }
      setState(.stopped)
    case .seek(let seconds):
      guard let current else { return }
      if let reason = current.track.seeking?.refusal {
        // Refused before anything is dropped: playback goes on undisturbed.
        post(.warning(reason))
        return
      }
      let limit = current.decoder.duration.map { max(0, $0 - 0.001) } ?? seconds
      // A deep queue gets the new position's first audio in place of its queue, in one go.
      let deepQueue = output.bufferAhead != nil
      if !deepQueue { dropOutput() }
      heldTail.removeAll(keepingCapacity: true)
      do {
        let reached = try current.decoder.seek(to: min(max(0, seconds), limit))
        withClock { $0.reset(to: reached) }
        if deepQueue { try replaceQueue(from: current) }
      } catch AudioError.outputFailed(let detail) {
        waitForServer(current, after: detail)
      } catch {
        fail(current.track, error)
      }
    case .shutdown:
      break
    }
  }

  /// `loaded` converted to play at the open output's format (or the one it holds), so it
  /// follows the current track without reopening it.
  private func joining(_ loaded: Loaded) -> Loaded {
    guard let target = output.heldFormat ?? current?.decoder.format else { return loaded }
    var joined = loaded
    joined.decoder = ResampledDecoder.playing(loaded.decoder, at: target)
    return joined
  }

  /// The paused current track back at its own format (the output is reopened at it on the
  /// resume), unless the output holds one; the prepared successor is made to join it.
  private func reopenedAtOwnFormat() -> Loaded? {
    guard var loaded = current else { return nil }
    let native = ResampledDecoder.native(loaded.decoder).format
    let own = ResampledDecoder.playing(loaded.decoder, at: output.heldFormat ?? native)
    if own !== loaded.decoder {
      loaded.decoder = own
      current = loaded
      withClock { $0.reset(to: own.position, sampleRate: own.format.sampleRate) }
      if let next = prepared { prepared = (next.track, next.result.map(joining)) }
    }
    return loaded
  }

  /// Drops what the output holds and moves the decoder back to the position heard.
  private func rewindToHeard(_ loaded: Loaded) {
    let heard = withClock { $0.position(at: MonotonicClock.now) }
    dropOutput()
    // A transcoded stream that cannot step back goes on from what it decoded, and says so.
    let unmoved = loaded.track.seeking == nil ? heard : loaded.decoder.position
    let reached = (try? loaded.decoder.seek(to: heard)) ?? unmoved
    withClock { $0.reset(to: reached) }
  }

  private func load(_ track: Track) -> Result<Loaded, AudioError> {
    do {
      var decoder: any AudioDecoder
      let events = events
      // A live stream's news goes out with the track it belongs to.
      let news: @Sendable (StreamNews) -> Void = { events.post(contentsOf: [.stream(track, $0)]) }
      let shouldStop: () -> Bool = { [weak self] in self?.hasMail ?? true }
      if track.location.isFileURL {
        decoder = try AudioDecoders.open(
          path: track.location.path, news: news, shouldStop: shouldStop)
      } else {
        decoder = try TranscodedStream.open(track, news: news, shouldStop: shouldStop)
      }
      if let playLimit { decoder = LimitedDecoder(decoder, seconds: playLimit) }
      return .success(Loaded(track: track, decoder: decoder, gain: replayGain.gain(for: track)))
    } catch let error as AudioError {
      return .failure(error)
    } catch {
      return .failure(.notMP3(name: track.displayName, detail: "\(error)"))
    }
  }

  private func startTrack(_ track: Track, at start: Double) {
    awaitingSuccessor = false
    dropOutput()
    current = nil
    setState(.loading)
    var loaded: Loaded
    let result = prepared?.track == track ? (prepared?.result ?? load(track)) : load(track)
    prepared = nil
    switch result {
    case .success(let value):
      loaded = value
      loaded.track = track  // a prepared decoder of the same file: report the slot asked for
    case .failure(let error):
      setState(.stopped)
      post(.failed(track, message: error.description))
      return
    }
    begin(loaded, at: start)
  }

  /// Opens the output for `loaded` and makes it current; false when the track failed.
  ///
  /// With the audio server gone, the track still starts and waits for the server.
  @discardableResult
  private func begin(_ chosen: Loaded, at start: Double) -> Bool {
    // Playback starts afresh here: at the track's own format, unless the output holds one.
    var loaded = chosen
    let own = ResampledDecoder.native(chosen.decoder).format
    loaded.decoder = ResampledDecoder.playing(chosen.decoder, at: output.heldFormat ?? own)
    do {
      var reached = 0.0
      if start > 0, loaded.track.seeking?.refusal == nil {
        let limit = loaded.decoder.duration.map { max(0, $0 - 0.001) } ?? start
        reached = try loaded.decoder.seek(to: min(start, limit))
      }
      current = loaded
      withClock {
        $0.reset(to: reached, sampleRate: loaded.decoder.format.sampleRate)
        heardGain = loaded.gain
      }
      // A stream reopened at another format starts from silence, faded in.
      let reopened = outputFormat.map { $0 != loaded.decoder.format } ?? false
      do {
        try openOutput(loaded.decoder.format)
        fadeInPending = reopened
      } catch AudioError.noAudioServer(let detail) {
        post(.started(loaded.track, duration: loaded.decoder.duration))
        waitForServer(loaded, after: detail)
        return true
      }
      setState(.playing)
      post(.started(loaded.track, duration: loaded.decoder.duration))
      return true
    } catch {
      current = nil
      setState(.stopped)
      fail(loaded.track, error)
      return false
    }
  }

  /// Drops what the output holds, with any tail held back for a fade.
  private func dropOutput() {
    heldTail.removeAll(keepingCapacity: true)
    fadeInPending = false
    output.drop()
  }

  private func openOutput(_ format: PCMFormat) throws {
    try output.open(format)
    outputOpen = true
    outputFormat = format
  }

  private func closeOutput() {
    output.close()
    outputOpen = false
    outputFormat = nil
  }

  private func fail(_ track: Track, _ error: Error) {
    let message = (error as? AudioError)?.description ?? "\(track.displayName): \(error)"
    dropOutput()
    current = nil
    setState(.stopped)
    post(.failed(track, message: message))
  }

  private func pump() {
    guard let loaded = current else { return }
    var limit = buffer.count
    if let ahead = output.bufferAhead {
      // Refill when half the queue has been heard; sleep until then.
      let queued = output.latency
      if queued > ahead / 2 {
        sleepUnlessMail(queued - ahead / 2)
        return
      }
      let format = loaded.decoder.format
      // At least one MPEG frame's worth (the decoder's unit), however small the target.
      var want = max(
        Self.frameBytes, Int((ahead - queued) * Double(format.sampleRate)) * format.bytesPerFrame)
      if let writable = output.writableBytes {
        // Never block in a write, where a command would wait: the server asks for more
        // within a few tens of milliseconds.
        guard writable >= Self.frameBytes else {
          sleepUnlessMail(0.02)
          return
        }
        want = min(want, writable / format.bytesPerFrame * format.bytesPerFrame)
      }
      limit = min(limit, want)
    }
    do {
      let count = try decode(loaded, upTo: limit)
      if count > 0 {
        applyVolume(count: count, gain: loaded.gain)
        if heldTail.isEmpty, !fadeInPending, !reopensForNext(loaded) {
          try buffer.withUnsafeBytes {
            try write(UnsafeRawBufferPointer(rebasing: $0[0..<count]), loaded, padding: 0)
          }
        } else {
          try writeAtFormatChange(Array(buffer[0..<count]), loaded)
        }
      } else if loaded.decoder.isAtEnd {
        guard try writeHeldTail(loaded) else { return }
        finish(loaded)
      }
    } catch AudioError.outputFailed(let detail) {
      waitForServer(loaded, after: detail)
    } catch {
      fail(loaded.track, error)
    }
  }

  /// Writes `bytes` and moves the clock by all but the first `padding` bytes (silence that
  /// is no part of the track).
  private func write(_ bytes: UnsafeRawBufferPointer, _ loaded: Loaded, padding: Int) throws {
    try output.write(bytes)
    let latency = output.latency
    let frames = (bytes.count - padding) / loaded.decoder.format.bytesPerFrame
    withClock { $0.didWrite(frames: frames, latency: latency, at: MonotonicClock.now) }
  }

  /// Whether the prepared successor plays at another format, so the output is reopened
  /// between the two.
  private func reopensForNext(_ loaded: Loaded) -> Bool {
    guard case .success(let next)? = prepared?.result else { return false }
    return next.decoder.format != loaded.decoder.format
  }

  /// Writes `chunk` where a format change is near: after silence and faded in when the
  /// output was just reopened, and keeping the last ``EdgeFade/length`` back while the successor
  /// needs a reopened output.
  private func writeAtFormatChange(_ chunk: [UInt8], _ loaded: Loaded) throws {
    let format = loaded.decoder.format
    var bytes = heldTail + chunk
    heldTail.removeAll(keepingCapacity: true)
    var padding = 0
    if fadeInPending {
      fadeInPending = false
      EdgeFade.apply(&bytes, format: format, fadingIn: true)
      padding = EdgeFade.frames(EdgeFade.padIn, format) * format.bytesPerFrame
      bytes = [UInt8](repeating: 0, count: padding) + bytes
    }
    if reopensForNext(loaded) {
      let keep = min(
        bytes.count - padding, EdgeFade.frames(EdgeFade.length, format) * format.bytesPerFrame)
      heldTail.append(contentsOf: bytes.suffix(keep))
      bytes.removeLast(keep)
    }
    try bytes.withUnsafeBytes { try write($0, loaded, padding: padding) }
  }

  /// Writes the track's held-back end, faded out and followed by silence when the output is
  /// reopened next; false when the output has no room for it yet (the pump comes back).
  private func writeHeldTail(_ loaded: Loaded) throws -> Bool {
    guard !heldTail.isEmpty else { return true }
    let format = loaded.decoder.format
    var bytes = heldTail
    var padding = 0
    if reopensForNext(loaded) {
      EdgeFade.apply(&bytes, format: format, fadingIn: false)
      padding = EdgeFade.frames(EdgeFade.padOut, format) * format.bytesPerFrame
    }
    if let writable = output.writableBytes, writable < bytes.count + padding {
      sleepUnlessMail(0.02)
      return false
    }
    heldTail.removeAll(keepingCapacity: true)
    // The silence comes after the track here: written, but not counted on the clock.
    try bytes.withUnsafeBytes { try write($0, loaded, padding: 0) }
    if padding > 0 {
      try [UInt8](repeating: 0, count: padding).withUnsafeBytes { try output.write($0) }
    }
    return true
  }

  /// Decodes into ``buffer`` up to `limit` bytes (whole frames); returns how many it holds.
  private func decode(_ loaded: Loaded, upTo limit: Int) throws -> Int {
    try buffer.withUnsafeMutableBytes { raw in
      var filled = 0
      repeat {
        let part = UnsafeMutableRawBufferPointer(
          rebasing: raw[filled..<min(raw.count, filled + Self.frameBytes)])
        // A stream short of data writes what it has rather than wait for a full batch.
        let read = try loaded.decoder.read(into: part) { [weak self] in
          filled > 0 || (self?.hasMail ?? true)
        }
        if read == 0 { break }
        filled += read
      } while filled + Self.frameBytes <= limit
      return filled
    }
  }

  /// Decodes the first moments after a seek and has the output put them in place of its
  /// queue; ``pump()`` fills the rest.
  private func replaceQueue(from loaded: Loaded) throws {
    // About 0.2 s at 44.1 kHz: enough to cover the server's next request.
    let count = try decode(loaded, upTo: Self.frameBytes * 8)
    guard count > 0 else {
      dropOutput()
      return
    }
    applyVolume(count: count, gain: loaded.gain)
    try buffer.withUnsafeBytes {
      try output.replaceQueue(with: UnsafeRawBufferPointer(rebasing: $0[0..<count]))
    }
    let latency = output.latency
    let frames = count / loaded.decoder.format.bytesPerFrame
    withClock { $0.didWrite(frames: frames, latency: latency, at: MonotonicClock.now) }
  }

  /// Starts waiting for the audio server to come back, at the heard position.
  ///
  /// The one loop keeps running meanwhile: ``retryOutput()`` reconnects with backoff, and
  /// ``handleDuringOutage(_:)`` honours every command, so a pause stays a pause.
  /// `paused` says whether playback stays paused when the server is back (by default, when
  /// it is paused now).
  private func waitForServer(_ loaded: Loaded, after detail: String, paused: Bool? = nil) {
    let resumeAt = withClock { $0.position(at: MonotonicClock.now) }
    heldTail.removeAll(keepingCapacity: true)
    closeOutput()
    withClock { $0.reset(to: resumeAt) }
    current = loaded
    let paused = paused ?? (state == .paused)
    setState(paused ? .paused : .loading)
    outage = Outage(resumeAt: resumeAt, paused: paused, nextTry: MonotonicClock.now + 0.1)
    post(.warning("audio server lost (\(detail)): waiting for it, retrying…"))
  }

  /// Applies a command while the audio server is gone; false for those handled as usual.
  ///
  /// Pause and resume change what happens when the server is back; a seek moves where
  /// playback resumes; stop, a new track and shutdown end the wait.
  private func handleDuringOutage(_ command: Command) -> Bool {
    guard var waiting = outage else { return false }
    switch command {
    case .pause:
      waiting.paused = true
      setState(.paused)
    case .resume:
      guard waiting.paused else { return true }
      waiting.paused = false
      waiting.backoff = 0.1
      waiting.nextTry = MonotonicClock.now
      setState(.loading)
    case .seek(let seconds):
      if let reason = current?.track.seeking?.refusal {
        post(.warning(reason))
        return true
      }
      let limit = current?.decoder.duration.map { max(0, $0 - 0.001) } ?? seconds
      waiting.resumeAt = min(max(0, seconds), limit)
      withClock { $0.reset(to: waiting.resumeAt) }
    case .prepare:
      return false
    case .refill:
      break  // nothing is queued: the new volume is applied to what is written on return
    case .stop, .play, .shutdown:
      outage = nil
      return false
    }
    outage = waiting
    return true
  }

  /// Tries to reopen the output when a reconnection attempt is due; resumes on success.
  private func retryOutput() {
    guard var waiting = outage, !waiting.paused, MonotonicClock.now >= waiting.nextTry,
      let loaded = current
    else { return }
    do {
      try openOutput(loaded.decoder.format)
    } catch {
      waiting.backoff = min(0.5, waiting.backoff * 2)
      waiting.nextTry = MonotonicClock.now + waiting.backoff
      outage = waiting
      return
    }
    outage = nil
    do {
      let reached = try loaded.decoder.seek(to: waiting.resumeAt)
      withClock { $0.reset(to: reached) }
      setState(.playing)
      post(.warning("audio server is back: playing from \(String(format: "%.1f", reached)) s"))
    } catch AudioError.notSeekable {
      // A stream that cannot go back goes on from where it was decoded.
      withClock { $0.reset(to: loaded.decoder.position) }
      setState(.playing)
      post(.warning("audio server is back: playing on"))
    } catch {
      fail(loaded.track, error)
    }
  }

  private func finish(_ ended: Loaded) {
    let next = prepared.map { (track: $0.track, result: $0.result.map(joining)) }
    prepared = nil
    if case .success(let following) = next?.result,
      following.decoder.format == ended.decoder.format
    {
      // Gapless: the output keeps playing the tail of the ended track while this one starts.
      current = following
      withClock { $0.reset(to: 0, sampleRate: following.decoder.format.sampleRate) }
      let events: [PlayerEvent] = [
        .trackEnded(ended.track), .started(following.track, duration: following.decoder.duration),
      ]
      // The listener hears the boundary once the queue ahead of it has played.
      let tail = output.latency
      if tail > 0.005 {
        announceIfDue(now: true)
        announcement = (MonotonicClock.now + tail, events, following.gain)
      } else {
        withClock { _ in heardGain = following.gain }
        post(events)
      }
      return
    }
    // Let the queue play out, still answering commands; then drain the last few ms.
    let heardBy = MonotonicClock.now + output.latency
    while !hasMail, MonotonicClock.now < heardBy - 0.01 {
      sleepUnlessMail(heardBy - MonotonicClock.now)
    }
    if !hasMail { try? output.drain() }
    current = nil
    withClock { $0.freeze(at: MonotonicClock.now) }
    setState(.stopped)
    switch next?.result {
    case .success(let following):
      post(.trackEnded(ended.track))
      begin(following, at: 0)
    case .failure(let error):
      if let track = next?.track {
        post(.trackEnded(ended.track), .failed(track, message: error.description))
      }
    case nil:
      awaitingSuccessor = true
      post(.trackEnded(ended.track))
    }
  }

  /// Scales the first `count` bytes of ``buffer`` by the volume and the track's ReplayGain
  /// in one floating-point multiply per sample, clamped to 16 bits; nothing at 100 % and no
  /// gain.
  private func applyVolume(count: Int, gain: Double?) {
    lock.lock()
    let volume = volumePercent
    lock.unlock()
    let factor = Float(Double(volume) / 100 * pow(10, (gain ?? 0) / 20))
    guard factor != 1 else { return }
    buffer.withUnsafeMutableBytes { raw in
      let samples = raw.bindMemory(to: Int16.self)
      for index in 0..<(count / 2) {
        let scaled = (Float(samples[index]) * factor).rounded()
        samples[index] = Int16(max(-32768, min(32767, scaled)))
      }
    }
  }

  private func withClock<T>(_ body: (inout AudibleClock) -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body(&clock)
  }
}
