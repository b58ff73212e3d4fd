import Foundation
import RefrainCore

/// Tap-to-sync, so the full-screen player and `refrain ctl lyrics sync …` drive the same
/// steps.
///
/// Stamps read the player's audible position at the moment the command is handled: the
/// time the listener heard the line, not where the decoder is. Saving writes the file in
/// the background and then loads the new lyrics as any track's are loaded.
extension LyricsPart {
  /// Carries out one step other than saving (see ``saveSync(then:)``).
  func lyricsSync(_ step: Command.SyncStep) -> Outcome {
    switch step {
    case .start, .here, .words:
      guard playback.queue.current != nil else { return .failed("nothing is playing") }
      guard let document = playback.lyrics?.document, !document.lines.isEmpty else {
        return .failed("no lyrics to time: add a plain .lrc or .txt-style sidecar first")
      }
      sync = LyricsSync(document: document, wordMode: step == .words)
      lastSyncStamp = nil
      if step != .here { playback.seek(to: 0) }
      if playback.state == .paused { playback.resume() }
      // Said to every door, so it names both the keys and the commands.
      return .done(
        message: "timing: Space (`lyrics sync stamp`) stamps each line as you hear it · "
          + "Backspace undoes · w saves")
    case .stamp:
      guard sync != nil else {
        return .failed("not timing lyrics: start with S or `lyrics sync start`")
      }
      let ms = Int((playback.snapshot.position * 1000).rounded())
      let word = sync?.nextWord
      guard let stamped = sync?.stamp(at: ms) else {
        return .failed("every line is stamped: w saves")
      }
      lastSyncStamp = stamped
      let which =
        word.map { "line \(stamped.line + 1) word \($0 + 1)" } ?? "line \(stamped.line + 1)"
      return .done(message: "\(which) at \(LyricsSync.stamp(stamped.ms))")
    case .undo:
      guard sync != nil else { return .failed("not timing lyrics") }
      guard let removed = sync?.undo() else { return .failed("nothing stamped yet") }
      playback.seek(to: max(0, Double(removed.ms) / 1000 - 3))
      return .done(message: "line \(removed.line + 1) unstamped; playing from 3 s before it")
    case .cancel:
      guard sync != nil else { return .failed("not timing lyrics") }
      sync = nil
      return .done(message: "timing cancelled; the lyrics are as they were")
    case .save:
      return .failed("saving writes a file: use saveSync(then:)")
    }
  }

  /// Moves a stamped line by `deltaMs` (`[`/`]` in sync mode); the new time, or why not.
  func nudgeSync(line: Int, by deltaMs: Int) -> Outcome {
    guard sync != nil else { return .failed("not timing lyrics") }
    guard let ms = sync?.nudge(line: line, by: deltaMs) else {
      return .failed("line \(line + 1) is not stamped yet")
    }
    return .done(message: "line \(line + 1) at \(LyricsSync.stamp(ms))")
  }

  /// Plays from 1 s before a stamped line, to check it.
  func checkSync(line: Int) -> Outcome {
    guard let ms = sync?.entries[safe: line]?.ms else { return .failed("that line is not stamped") }
    playback.seek(to: max(0, Double(ms) / 1000 - 1))
    return .done(message: nil)
  }

  /// Saves the stamped lines as the track's synced lyrics, then calls `then` on the
  /// session's thread with the file's path or why it could not be written.
  ///
  /// A local track's lyrics go to its sidecar (`song.lrc` beside `song.mp3`): written under
  /// a temporary name and renamed into place, so the file is whole whenever the process is
  /// killed, and an existing sidecar is kept as `song.lrc.bak` first. A streamed track's go
  /// to the lyrics cache (the path answered is "the lyrics cache"). Every line must be
  /// stamped. Once saved, timing ends and the lyrics are loaded again.
  func saveSync(then: @escaping (Result<String, SyncSaveFailure>) -> Void) {
    guard let sync else { return then(.failure(SyncSaveFailure("not timing lyrics"))) }
    guard sync.isComplete else {
      let left = sync.entries.count - sync.stamped
      return then(.failure(SyncSaveFailure("\(left) lines are not stamped yet")))
    }
    guard let track = playback.queue.current else {
      return then(.failure(SyncSaveFailure("nothing is playing")))
    }
    let reply = SessionOnly(then)
    let inbox = session.inbox
    guard track.location.isFileURL else {
      // A streamed track has no file to sit beside: its lyrics go to the lyrics cache,
      // which the loader reads before asking the online service.
      guard let cache = session.lyricsCache else {
        return then(
          .failure(SyncSaveFailure("no lyrics cache to save this streamed track's lyrics in")))
      }
      let document = sync.document
      Task.detached(executorPreference: BackgroundExecutor.shared) {
        let result: Result<String, SyncSaveFailure>
        do {
          try cache.store(.lyrics(document), for: LyricsQuery(track: track))
          result = .success("the lyrics cache")
        } catch {
          result = .failure(SyncSaveFailure("cannot write the lyrics cache: \(error)"))
        }
        inbox.post { session in
          if case .success = result {
            session.lyricsPart.sync = nil
            session.lyricsPart.reload()
          }
          reply.value(result)
        }
      }
      return
    }
    let text = sync.lrc(
      title: track.title, artist: track.artist, album: track.album, length: playback.duration)
    let target =
      SidecarLyrics.find(for: track)
      ?? track.location.deletingPathExtension().appendingPathExtension("lrc").path
    Task.detached(executorPreference: BackgroundExecutor.shared) {
      let result = SyncFile.write(text, to: target)
      inbox.post { session in
        if case .success = result {
          session.lyricsPart.sync = nil
          session.lyricsPart.reload()
        }
        reply.value(result)
      }
    }
  }

  /// Saves the timed lyrics (``saveSync(then:)``), tells every front end on the status line
  /// (`saved song.lrc; lyrics reloaded`, or why not), then calls `reply` with the answer
  /// `refrain ctl` gets: `{"path":…}` or the failure.
  func saveTimedLyrics(reply: @escaping (Session.Answer) -> Void) {
    saveSync { [weak self] result in
      switch result {
      case .success(let path):
        let name = path.hasPrefix("/") ? URL(fileURLWithPath: path).lastPathComponent : path
        self?.session.notify(.notice("saved \(name); lyrics reloaded", isError: false))
        reply(.success(SessionJSON.line(["path": path])))
      case .failure(let failure):
        self?.session.notify(.notice(failure.description, isError: true))
        reply(.failure(CommandFailure(failure.description)))
      }
    }
  }
}

/// Why synced lyrics could not be saved.
public struct SyncSaveFailure: Error, Sendable, Equatable, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

/// A value made on the session's thread that a background task carries back to it.
struct SessionOnly<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// Writing a sidecar: the old one kept as `.bak`, the new one whole or not at all.
enum SyncFile {
  static func write(_ text: String, to path: String) -> Result<String, SyncSaveFailure> {
    do {
      try AtomicFile.write(
        Data(text.utf8), to: URL(fileURLWithPath: path),
        backup: URL(fileURLWithPath: path + ".bak"))
      return .success(path)
    } catch {
      return .failure(SyncSaveFailure("\(error); the stamps are kept"))
    }
  }
}

extension Array {
  /// The element at `index`, or `nil` outside the array.
  fileprivate subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
