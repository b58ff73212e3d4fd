import Foundation
import RefrainCore

/// The control protocol's answers, the same for every front end: `refrain ctl` gets `ok`, one
/// line of JSON, or `error: REASON`.
extension Session {
  /// What a command answered: `ok` or one line of JSON, or why it failed.
  public typealias Answer = Result<String, CommandFailure>

  /// Carries out a command from `refrain ctl` and calls `reply` on the session's thread with
  /// its answer: at once for most commands; once the work is done for those that take
  /// time (an add reads tags, a save writes a file). Returns false, replying nothing, for a
  /// command that belongs to a front end.
  ///
  /// `status` is answered by the front end (it knows its pane): see ``statusJSON(pane:)``.
  public func answer(_ command: Command, reply: @escaping (Answer) -> Void) -> Bool {
    switch command {
    case .status:
      reply(.success(statusJSON()))
    case .queueList:
      reply(.success(queueCommands.queueSummary))
    case .lyricsSync(.save):
      lyricsPart.saveTimedLyrics(reply: reply)
    case .lyricsSync(.stamp):
      switch execute(command) {
      case .failed(let reason): reply(.failure(CommandFailure(reason)))
      case .done(let message):
        if let message { notify(.notice(message, isError: false)) }
        guard let stamp = lyricsPart.lastSyncStamp else { return true }
        reply(.success(SessionJSON.line(["line": stamp.line, "ms": stamp.ms])))
      case .notForSession: return false
      }
    case .queueAdd(let item), .playItem(let item):
      queueCommands.add(item, playing: command == .playItem(item)) { outcome in
        reply(Self.answer(outcome))
      }
    case .playCatalog(let list):
      if let refusal = roomPart.roomRefusal(of: command) {
        reply(.failure(CommandFailure(refusal)))
      } else {
        queueCommands.playCatalog(list) { outcome in reply(Self.answer(outcome)) }
      }
    case .playlist(let edit):
      libraryPart.perform(edit, then: reply)
    case .library(.addToServerPlaylist(let tracks, let target)):
      libraryPart.addTracks(tracks, toServerPlaylist: target, then: reply)
    default:
      let outcome = execute(command)
      if case .notForSession = outcome { return false }
      if case .done(let message?) = outcome {
        notify(.notice(message, isError: false))
      }
      reply(Self.answer(outcome))
    }
    return true
  }

  /// `ok`, or the reason as a failure.
  static func answer(_ outcome: Outcome) -> Answer {
    if case .failed(let reason) = outcome { return .failure(CommandFailure(reason)) }
    return .success("ok")
  }

  /// The status as one line of JSON, for `refrain ctl status`.
  public func statusJSON(pane: String? = nil) -> String { SessionJSON.line(status(pane: pane)) }
}
