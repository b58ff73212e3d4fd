import Foundation
import RefrainAudio
import RefrainCore
import RefrainTUI

/// Runs `refrain play`: one `poll()` loop over the player's wake-up pipe and stdin, with a
/// single timer set to the next moment something is due (a position event, a lyric line,
/// the `--duration` limit).
final class HeadlessSession {
  /// What `refrain play` was asked to do.
  struct Options {
    var start: Double
    var duration: Double?
    var volume: Int
    var events: Bool
    var lyricsPath: String?
  }

  private static let positionInterval = 0.2

  private let tracks: [Track]
  private let options: Options
  private let engine: PlayerEngine
  private let presenter: PlaybackPresenter
  private var failures = 0
  private var trackStart = 0.0
  private var nextPositionEvent = 0.0
  private var explicitLyrics: LyricsDocument?
  private let inbox = Inbox<HeadlessSession>()
  private let lyricsLoader = LyricsLoading.makeLoader()
  private var stdinOpen: Bool
  private var stdinBuffer = [UInt8]()
  private var done = false

  init(tracks: [Track], output: any AudioOutput, options: Options) {
    self.tracks = tracks
    self.options = options
    engine = PlayerEngine(output: output)
    presenter = PlaybackPresenter(player: engine, volume: options.volume)
    stdinOpen = options.events
  }

  /// Plays everything and returns how many tracks could not be played.
  func run() -> Int {
    if let path = options.lyricsPath {
      do {
        explicitLyrics = try LyricsDocument.load(from: URL(fileURLWithPath: path))
      } catch {
        report("\(error)")
      }
    }
    presenter.playAll(tracks, startAt: 0, position: options.start)
    while !done {
      var fds = [
        pollfd(fd: engine.wakeFileDescriptor, events: Int16(POLLIN), revents: 0),
        pollfd(fd: inbox.fileDescriptor, events: Int16(POLLIN), revents: 0),
      ]
      if stdinOpen { fds.append(pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)) }
      let ready = poll(&fds, nfds_t(fds.count), timeoutMilliseconds())
      if ready < 0 && errno != EINTR { break }
      if fds[0].revents != 0 { handlePlayerEvents() }
      if fds[1].revents != 0 { for job in inbox.drain() { job(self) } }
      if fds.count > 2, fds[2].revents != 0 { readCommands() }
      tick()
    }
    engine.shutdown()
    return failures
  }

  // MARK: - Timer

  private func timeoutMilliseconds() -> Int32 {
    guard presenter.state == .playing else {
      return stdinOpen || presenter.state == .loading ? -1 : 200
    }
    var wait = max(0, nextPositionEvent - MonotonicClock.now)
    if let change = presenter.nextLyricChange(), let delay = engine.delay(untilPosition: change) {
      wait = min(wait, delay)
    }
    if let limit = options.duration, let delay = engine.delay(untilPosition: trackStart + limit) {
      wait = min(wait, delay)
    }
    return Int32((wait * 1000).rounded(.up))
  }

  private func tick() {
    guard presenter.state == .playing || presenter.state == .paused else { return }
    let position = engine.position
    if let line = presenter.lyricChange() {
      emit([
        ("event", .string("line")), ("index", .integer(line.index)),
        ("t", .number(position, decimals: 3)), ("text", .string(line.text)),
      ])
    }
    if presenter.state == .playing, MonotonicClock.now >= nextPositionEvent {
      emit([("event", .string("position")), ("t", .number(position, decimals: 3))])
      nextPositionEvent = MonotonicClock.now + Self.positionInterval
    }
    if let limit = options.duration, position >= trackStart + limit {
      emit([("event", .string("end"))])
      if presenter.queue.peekNextIndex() != nil {
        presenter.next()
      } else {
        presenter.stop()
        done = true
      }
    }
  }

  // MARK: - Player events

  private func handlePlayerEvents() {
    for event in engine.drainEvents() {
      presenter.handle(event)
      switch event {
      case .started(let track, let duration):
        trackStart = track == tracks.first && trackStart == 0 ? options.start : 0
        nextPositionEvent = 0
        loadLyrics(for: track)
        emit([
          ("event", .string("start")), ("file", .string(track.displayName)),
          ("duration", duration.map { .number($0, decimals: 3) } ?? .null),
        ])
      case .trackEnded:
        emit([("event", .string("end"))])
      case .failed(_, let message):
        failures += 1
        report(message)
      case .warning(let message):
        FileHandle.standardError.write(Data("refrain: \(message)\n".utf8))
      }
    }
    if presenter.isFinished { done = true }
  }

  /// Shows the lyrics for `track`: `--lyrics` for the first track, else what the lyric
  /// sources find (sidecar `.lrc`, ID3 tags, the cache, the online service), when it arrives.
  private func loadLyrics(for track: Track) {
    presenter.setLyrics(nil)
    if track == tracks.first, let explicitLyrics {
      presenter.setLyrics(explicitLyrics)
      return
    }
    let loader = lyricsLoader
    let inbox = inbox
    Task.detached(executorPreference: BackgroundExecutor.shared) {
      let document = await loader(track).document
      inbox.post { session in
        guard session.presenter.queue.current == track else { return }
        session.presenter.setLyrics(document)
      }
    }
  }

  // MARK: - Commands on stdin

  private func readCommands() {
    var chunk = [UInt8](repeating: 0, count: 1024)
    let count = read(STDIN_FILENO, &chunk, chunk.count)
    guard count > 0 else {
      stdinOpen = false
      return
    }
    stdinBuffer.append(contentsOf: chunk[0..<count])
    while let newline = stdinBuffer.firstIndex(of: UInt8(ascii: "\n")) {
      let line = String(decoding: stdinBuffer[..<newline], as: UTF8.self)
      stdinBuffer.removeSubrange(...newline)
      apply(line.trimmingCharacters(in: .whitespaces))
    }
  }

  private func apply(_ line: String) {
    let words = line.split(separator: " ").map(String.init)
    guard let verb = words.first else { return }
    let argument = words.count > 1 ? words[1] : ""
    switch verb {
    case "pause": presenter.pause()
    case "resume": presenter.resume()
    case "toggle": presenter.togglePlay()
    case "next": presenter.next()
    case "stop":
      presenter.stop()
      done = true
    case "seek" where Double(argument) != nil:
      let value = Double(argument) ?? 0
      let relative = argument.hasPrefix("+") || argument.hasPrefix("-")
      presenter.seek(to: relative ? engine.position + value : value)
      nextPositionEvent = 0
    case "line" where Int(argument) != nil:
      presenter.seekToLine(Int(argument) ?? 0)
      nextPositionEvent = 0
    case "nudge" where Int(argument) != nil:
      let offset = presenter.nudgeLyrics(by: Int(argument) ?? 0)
      FileHandle.standardError.write(Data("refrain: lyric offset \(offset) ms\n".utf8))
    case "volume" where Int(argument) != nil:
      presenter.setVolume(Int(argument) ?? 100)
    default:
      FileHandle.standardError.write(Data("refrain: unknown command '\(line)'\n".utf8))
    }
  }

  // MARK: - Output

  private func emit(_ fields: [(String, JSONLine.Value)]) {
    guard options.events else { return }
    JSONLine(fields).writeLine()
  }

  private func report(_ message: String) {
    PlayCommand.fail(message, events: options.events)
  }
}
