import Foundation
import RefrainCore

/// A room's queue and playback as the server saves them, so that a restarted server brings
/// the room back where it would be had it kept running.
///
/// The room clock starts again with each run of the server, so a saved position is tied to
/// the wall clock instead: at Unix time ``savedAt`` entry ``entry`` was at ``position``
/// seconds, advancing in real time while ``playing``.
public struct SavedRoom: Codable, Equatable, Sendable {
  /// The queue, in order.
  public var queue: [RoomQueueEntry]
  /// The number the next queued entry gets (entry numbers never repeat in a room).
  public var nextEntry: Int
  /// The current entry; `nil` when nothing is loaded.
  public var entry: Int?
  /// Whether the current entry was playing (not paused).
  public var playing: Bool
  /// Seconds into the current entry at ``savedAt``.
  public var position: Double
  /// The wall clock (Unix seconds) when the room was saved.
  public var savedAt: Double

  public init(
    queue: [RoomQueueEntry], nextEntry: Int, entry: Int?, playing: Bool, position: Double,
    savedAt: Double
  ) {
    self.queue = queue
    self.nextEntry = nextEntry
    self.entry = entry
    self.playing = playing
    self.position = position
    self.savedAt = savedAt
  }

  enum CodingKeys: String, CodingKey {
    case queue, entry, playing, position
    case nextEntry = "next_entry"
    case savedAt = "saved_at"
  }

  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  /// The room as it is at wall-clock time `now` had it kept playing: a paused room is as it
  /// was; a playing one has moved on by `now − savedAt` seconds, past every entry (of known
  /// length) that would have ended meanwhile, and is stopped (queue kept) after the last one.
  /// A clock that went back counts as no time passed.
  public func resumed(at now: Double) -> SavedRoom {
    var room = self
    room.savedAt = now
    guard playing, var index = queue.firstIndex(where: { $0.entry == entry }) else {
      if queue.firstIndex(where: { $0.entry == entry }) == nil { room.stop() }
      return room
    }
    var position = self.position + max(0, now - savedAt)
    while let duration = queue[index].duration, position >= duration {
      position -= duration
      index += 1
      guard index < queue.count else {
        room.stop()
        return room
      }
    }
    room.entry = queue[index].entry
    room.position = position
    return room
  }

  private mutating func stop() {
    entry = nil
    playing = false
    position = 0
  }
}
