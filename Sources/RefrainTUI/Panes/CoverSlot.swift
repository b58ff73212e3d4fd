import Foundation
import RefrainArt
import RefrainCore

/// The Player pane's cover: what was asked for last, and what came of it.
struct CoverSlot {
  /// A cover for one track at one size.
  struct Request: Equatable, Sendable {
    var track: Track
    var box: CellSize

    static func == (lhs: Request, rhs: Request) -> Bool {
      lhs.track.id == rhs.track.id && lhs.track.location == rhs.track.location
        && lhs.track.coverURL == rhs.track.coverURL && lhs.box == rhs.box
    }
  }

  /// What came of a request.
  enum State {
    case loading
    case ready(ScaledCover)
    /// No cover: the placeholder box stays (the reason went to the log).
    case missing
  }

  var request: Request?
  var state = State.missing

  /// Whether the last request has been answered.
  var isSettled: Bool {
    if case .loading = state { return false }
    return true
  }
}

/// A value made on the main loop's thread that a background task carries back to it
/// untouched: only the main loop reads it.
struct MainLoopOnly<Value>: @unchecked Sendable {
  let value: Value
}
