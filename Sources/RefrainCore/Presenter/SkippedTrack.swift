import Foundation

/// A track Refrain could not play and skipped, with the player's reason.
public struct SkippedTrack: Sendable, Equatable {
  /// The track that failed.
  public let track: Track
  /// What went wrong and what the user can do, as the player reported it.
  public let reason: String

  /// Creates a record of a skipped track.
  public init(track: Track, reason: String) {
    self.track = track
    self.reason = reason
  }
}
