import Foundation
import RefrainCore

/// `mpris:trackid`: an object path under `/org/refrain/track/`, one per queue entry.
///
/// The queue numbers each entry it receives (``Track/queueEntry``), so the same song queued
/// twice has two ids, and an id stays the entry's while the queue is reordered or shuffled.
/// A client's `SetPosition` names the id it saw; a stale one is ignored.
public enum MPRISTrackID {
  /// The folder of every track id.
  public static let prefix = "/org/refrain/track/"

  /// The id of `track`'s queue entry; a track outside any queue has `…/unqueued`.
  public static func path(for track: Track) -> String {
    guard let entry = track.queueEntry, entry >= 0 else { return prefix + "unqueued" }
    return prefix + String(entry)
  }
}
