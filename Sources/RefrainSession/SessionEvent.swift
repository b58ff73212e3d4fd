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

/// Why a command from `refrain ctl` or the prompt could not be carried out.
public struct CommandFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// The one-line reason.
  public let message: String

  /// Creates a failure.
  public init(_ message: String) { self.message = message }

  public var description: String { message }
}

extension Result where Success == String, Failure == CommandFailure {
  /// The answer as a notice for the status line: the failure's reason, or the success's
  /// text (`ok` said as `ok`, when given, instead).
  func notice(ok: String? = nil) -> SessionEvent {
    switch self {
    case .success(let text): return .notice(text == "ok" ? ok ?? text : text, isError: false)
    case .failure(let failure): return .notice(failure.message, isError: true)
    }
  }
}
