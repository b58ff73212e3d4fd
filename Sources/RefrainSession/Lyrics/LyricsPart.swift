import Foundation
import RefrainCore

/// The session's lyrics: the look-up for each track that starts, the user's per-track
/// offsets, and tap-to-sync (LyricsPart+Sync).
///
/// It guarantees that the lyrics shown belong to the current track: a look-up runs on
/// ``BackgroundExecutor`` (the loader, then the saved offset) and its result is dropped when
/// another track started meanwhile. A radio stream gets none. Offsets are saved off the
/// session's thread. Everything else runs on the session's thread.
final class LyricsPart {
  /// The session it serves; set once by the session's init.
  unowned var session: Session!
  /// Where per-track lyric offsets live; `nil` keeps them for this run only.
  private let library: (any LibraryPort)?
  private let loader: @Sendable (Track) async -> LyricsResult
  /// What the lyrics pane says instead of lyrics ("looking for lyrics…", "no lyrics: …").
  private(set) var notice: String?
  /// Tap-to-sync in progress, if any (`lyrics sync start`).
  var sync: LyricsSync?
  /// The line and time of the last stamp, for `refrain ctl lyrics sync stamp`'s answer.
  var lastSyncStamp: (line: Int, ms: Int)?

  init(library: (any LibraryPort)?, loader: @escaping @Sendable (Track) async -> LyricsResult) {
    self.library = library
    self.loader = loader
  }

  var playback: PlaybackPresenter { session.playback }

  /// A track started: timing ends, and its lyrics are looked up (none for radio).
  func trackStarted(_ track: Track) {
    sync = nil
    if playback.isLive {
      // Radio: what is on air changes under one track, so no lyrics are looked up.
      playback.setLyrics(nil)
      notice = "no lyrics for radio"
    } else {
      lookUp(for: track)
    }
  }

  /// A track ended: once the queue is finished, the pane says nothing.
  func trackEnded() {
    if playback.isFinished { notice = nil }
  }

  /// Loads the current track's lyrics again (after they were saved).
  func reload() {
    guard let track = playback.queue.current else { return }
    lookUp(for: track)
  }

  private func lookUp(for track: Track) {
    playback.setLyrics(nil)
    notice = "looking for lyrics…"
    let loader = loader
    let library = library
    let inbox = session.inbox
    Task.detached(executorPreference: BackgroundExecutor.shared) {
      let result = await loader(track)
      let offset = (try? library?.lyricOffset(for: track.id)) ?? 0
      inbox.post { session in
        guard track.isSameEntry(as: session.playback.queue.current) else { return }
        session.lyricsPart.show(result, offset: offset)
      }
    }
  }

  private func show(_ result: LyricsResult, offset: Int) {
    switch result {
    case .found(let document, _):
      playback.setLyrics(document, userOffsetMs: offset)
      notice = document.isSynced ? nil : "plain lyrics (not synced)"
    case .instrumental:
      notice = "no lyrics: instrumental"
    case .notFound(let reasons):
      notice = "no lyrics: \(reasons.last ?? "not found")"
    }
    session.notify(.lyricsChanged)
  }

  /// Carries out a lyrics command (a nudge, a tap-to-sync step, a lyric line to seek to);
  /// ``Outcome/notForSession`` for any other.
  func execute(_ command: Command) -> Outcome {
    switch command {
    case .nudge(let delta): return nudge(delta)
    case .lyricsSync(.save):
      guard sync != nil else {
        return .failed("not timing lyrics: start with S or `lyrics sync start`")
      }
      saveTimedLyrics { _ in }
      return .done(message: "saving the timed lyrics…")
    case .lyricsSync(let step): return lyricsSync(step)
    case .lyricLine(let index): return seek(toLine: index)
    case .syncNudge(let line, let ms): return nudgeSync(line: line, by: ms)
    case .syncCheck(let line): return checkSync(line: line)
    default: return .notForSession
    }
  }

  /// Shifts the lyrics; the new offset is saved for the track in the background.
  func nudge(_ delta: Int) -> Outcome {
    guard let track = playback.queue.current else { return .failed("nothing is playing") }
    let offset = playback.nudgeLyrics(by: delta)
    if let library {
      Task.detached(executorPreference: BackgroundExecutor.shared) {
        _ = try? library.setLyricOffset(offset, for: track.id)
      }
    }
    return .done(message: "lyrics offset \(offset > 0 ? "+" : "")\(offset) ms")
  }

  /// Seeks to lyric line `index` (from 0) of synced lyrics.
  func seek(toLine index: Int) -> Outcome {
    guard let timeline = playback.lyrics?.timeline, timeline.isSynced, timeline.count > 0 else {
      return .failed("no synced lyrics to seek in")
    }
    guard index < timeline.count else {
      return .failed("line \(index) is past the last line (\(timeline.count - 1))")
    }
    playback.seekToLine(index)
    return .done(message: nil)
  }
}
