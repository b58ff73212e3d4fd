import Foundation
import RefrainCore

/// The queue as every front end shows it: the session's own queue, or, in a listening room,
/// the room's.
///
/// It is a value read from ``Session/queue``; changing it changes nothing. Positions count
/// from 1 in commands (`queue remove 2`), from 0 in ``entries``.
public struct QueueView: Sendable, Equatable {
  /// One row of the queue.
  public struct Entry: Sendable, Equatable {
    /// The track, as the player would play it (a room's entry streams from the room).
    public var track: Track
    /// Why the track cannot be played, once a play of it failed; `nil` while playable.
    public var unplayable: String?
    /// The room's number for this entry, in a room; `nil` for the session's own queue.
    public var roomEntry: Int?
    /// Who added the entry, in a room.
    public var addedBy: String?

    /// Creates an entry.
    public init(
      track: Track, unplayable: String? = nil, roomEntry: Int? = nil, addedBy: String? = nil
    ) {
      self.track = track
      self.unplayable = unplayable
      self.roomEntry = roomEntry
      self.addedBy = addedBy
    }
  }

  /// The entries in the order they play (album order: shuffle changes only what comes next).
  public var entries: [Entry]
  /// The index of the entry playing (or paused, or last played), if any.
  public var currentIndex: Int?
  /// Whether `next` would move to another entry.
  public var hasNext: Bool
  /// Whether `prev` would do anything: go back, or restart the entry playing.
  public var hasPrevious: Bool
  /// The room's name, when this is a room's queue.
  public var room: String?

  /// Creates a view.
  public init(
    entries: [Entry], currentIndex: Int?, hasNext: Bool, hasPrevious: Bool, room: String? = nil
  ) {
    self.entries = entries
    self.currentIndex = currentIndex
    self.hasNext = hasNext
    self.hasPrevious = hasPrevious
    self.room = room
  }

  /// An empty queue of the session's own.
  public static let empty = QueueView(
    entries: [], currentIndex: nil, hasNext: false, hasPrevious: false)

  /// The number of entries.
  public var count: Int { entries.count }
  /// Whether there is nothing queued.
  public var isEmpty: Bool { entries.isEmpty }
  /// The track at `index` (from 0), if there is one.
  public func track(at index: Int) -> Track? {
    entries.indices.contains(index) ? entries[index].track : nil
  }
  /// The entry playing, if any.
  public var current: Entry? {
    currentIndex.flatMap { entries.indices.contains($0) ? entries[$0] : nil }
  }

  /// A view of the session's own queue.
  init(_ queue: PlayQueue, canRestart: Bool) {
    entries = queue.tracks.indices.map { index in
      Entry(track: queue.tracks[index], unplayable: queue.unplayableReason(at: index))
    }
    currentIndex = queue.currentIndex
    hasNext = queue.canSkipForward
    hasPrevious = canRestart || (queue.currentIndex.map { $0 > 0 } ?? false)
  }

  /// A view of a room's queue, each entry streamed from the room through `url`.
  init(room: String, follower: RoomFollower) {
    entries = follower.queue.map { entry in
      var track = Track(
        id: "room:\(entry.entry)",
        location: follower.url(forPath: entry.path) ?? URL(fileURLWithPath: entry.path),
        title: entry.title, artist: entry.artist, album: entry.album, duration: entry.duration)
      track.replayGain = entry.replayGain
      return Entry(track: track, roomEntry: entry.entry, addedBy: entry.addedBy)
    }
    currentIndex = follower.current.flatMap { current in
      follower.queue.firstIndex { $0.entry == current }
    }
    // The room plays its queue in order and stops after the last entry.
    hasNext = currentIndex.map { $0 + 1 < follower.queue.count } ?? !follower.queue.isEmpty
    // In a room, `prev` goes back to 0:00 of the entry playing.
    hasPrevious = currentIndex != nil
    self.room = room
  }
}
