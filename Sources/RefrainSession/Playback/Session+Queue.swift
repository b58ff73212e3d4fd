import Foundation
import RefrainCore

/// The queue commands: remove, move, play an entry, enqueue picked tracks, and the list
/// `refrain ctl queue` prints. In a listening room they act on the room's queue, for
/// everyone; positions count from 1, as ``QueueView`` lists them, in both.
extension Session {
  /// Removes the entry at `position` (from 1).
  func removeFromQueue(at position: Int) -> Outcome {
    let view = queue
    guard let entry = entry(at: position, in: view) else { return .failed(outside(position, view)) }
    if let room, let number = entry.roomEntry {
      room.send(.queueRemove(entry: number))
      return .done(message: "removed \(entry.track.title) from the room's queue")
    }
    playback.removeFromQueue(at: position - 1)
    return .done(message: "removed \(entry.track.title)")
  }

  /// Moves the entry at `from` to `to` (both from 1; `to` is its place afterwards).
  func moveInQueue(from: Int, to: Int) -> Outcome {
    let view = queue
    guard let entry = entry(at: from, in: view) else { return .failed(outside(from, view)) }
    let whose = view.room == nil ? "the queue" : "the room's queue"
    if to < 1 { return .failed("\(entry.track.title) is already first in \(whose)") }
    if to > view.count { return .failed("\(entry.track.title) is already last in \(whose)") }
    guard from != to else { return .done(message: nil) }
    if let room, let number = entry.roomEntry {
      room.send(.queueMove(entry: number, to: to - 1))
      return .done(message: nil)
    }
    playback.moveInQueue(from: from - 1, to: to - 1)
    return .done(message: nil)
  }

  /// Plays the entry at `position` (from 1) now.
  func playFromQueue(at position: Int) -> Outcome {
    let view = queue
    guard let entry = entry(at: position, in: view) else { return .failed(outside(position, view)) }
    if let room, let number = entry.roomEntry {
      room.send(.play(entry: number))
      return .done(message: nil)
    }
    playback.jump(to: position - 1)
    return .done(message: nil)
  }

  /// Adds picked tracks to the end of the queue; an empty queue starts playing them. In a
  /// room each goes to the room's queue, which refuses what it cannot play.
  func enqueue(_ tracks: [Track]) -> Outcome {
    guard !tracks.isEmpty else { return .failed("nothing playable to add") }
    if room != nil {
      var last = Outcome.done(message: nil)
      for track in tracks {
        let item = track.location.isFileURL ? track.location.path : track.location.absoluteString
        last = add(item, playing: false)
        if case .failed = last { return last }
      }
      return last
    }
    if playback.queue.isEmpty {
      playback.playAll(tracks, startAt: 0)
    } else {
      playback.enqueue(tracks)
    }
    return .done(message: "added \(tracks.count) track\(tracks.count == 1 ? "" : "s") to the queue")
  }

  /// The queue as one JSON array, for `refrain ctl queue`: each entry's `position` (from 1),
  /// `title`, `artist`, `duration`, whether it is `current`, and in a room its `entry`.
  var queueSummary: String {
    let view = queue
    let rows = view.entries.enumerated().map { index, entry in
      QueueRow(
        position: index + 1, title: entry.track.title, artist: entry.track.artist,
        duration: entry.track.duration, current: index == view.currentIndex,
        unplayable: entry.unplayable, entry: entry.roomEntry, addedBy: entry.addedBy)
    }
    return SessionJSON.line(rows)
  }

  private func entry(at position: Int, in view: QueueView) -> QueueView.Entry? {
    view.entries.indices.contains(position - 1) ? view.entries[position - 1] : nil
  }

  /// Why `position` names no entry, in one line.
  private func outside(_ position: Int, _ view: QueueView) -> String {
    let whose = view.room == nil ? "the queue" : "the room's queue"
    if view.isEmpty { return "\(whose) is empty" }
    return "no entry \(position) in \(whose) (it has \(view.count))"
  }
}

/// One entry of `refrain ctl queue`'s list.
private struct QueueRow: Encodable {
  var position: Int
  var title: String
  var artist: String?
  var duration: Double?
  var current: Bool
  var unplayable: String?
  var entry: Int?
  var addedBy: String?

  enum CodingKeys: String, CodingKey {
    case position, title, artist, duration, current, unplayable, entry
    case addedBy = "added_by"
  }
}
