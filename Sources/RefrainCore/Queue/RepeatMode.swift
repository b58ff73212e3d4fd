import Foundation

/// What Refrain plays when the queue runs out or a track ends.
public enum RepeatMode: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
  /// Play the queue once and stop after the last track.
  case off
  /// Start over from the first track after the last one.
  case all
  /// Play the current track again when it ends; an explicit skip still moves on.
  case one

  /// The mode that follows this one when the user cycles: off → all → one → off.
  public var cycled: RepeatMode {
    switch self {
    case .off: return .all
    case .all: return .one
    case .one: return .off
    }
  }

  /// A short label for the status bar.
  public var description: String {
    switch self {
    case .off: return "repeat off"
    case .all: return "repeat all"
    case .one: return "repeat one"
    }
  }
}
