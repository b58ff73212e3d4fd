import Foundation
import RefrainCore

/// Test tracks and queues for Refrain's queue and presenter tests.
public enum QueueFixture {
  /// A three-minute track whose id, file name and title derive from `id`.
  public static func track(_ id: String, duration: Double? = 180) -> Track {
    Track(
      id: id, location: URL(fileURLWithPath: "/music/\(id).mp3"), title: "Track \(id)",
      artist: "Refrain Test Band", album: "Fixtures", duration: duration)
  }

  /// Tracks for each id, in order.
  public static func tracks(_ ids: String...) -> [Track] {
    ids.map { track($0) }
  }

  /// Tracks named "t0", "t1", … for larger queues.
  public static func numbered(_ count: Int) -> [Track] {
    (0..<count).map { track("t\($0)") }
  }

  /// A queue of `ids` with a fixed shuffle seed.
  public static func queue(
    _ ids: String..., startAt: Int? = 0, repeatMode: RepeatMode = .off, seed: UInt64 = 42
  ) -> PlayQueue {
    PlayQueue(
      ids.map { track($0) }, startAt: startAt, repeatMode: repeatMode,
      random: SeededRandom(seed: seed))
  }
}
