import Foundation

/// Changing which tracks are in the queue while keeping the current track right.
extension PlayQueue {
  /// Replaces every track and makes the track at `startAt` current.
  ///
  /// Shuffle and repeat stay as they are; while shuffled, a new play order is
  /// drawn with the starting track first (or wholly random with no start).
  public mutating func replaceAll(with tracks: [Track], startAt: Int? = nil) {
    entries = []
    currentID = nil
    appendEntries(tracks)
    if let startAt, entries.indices.contains(startAt) {
      currentID = entries[startAt].id
    }
    if isShuffled { reshuffle() }
  }

  /// Adds a track at the end of the queue.
  public mutating func append(_ track: Track) {
    append(contentsOf: [track])
  }

  /// Adds tracks at the end of the queue.
  ///
  /// While shuffled, each new track lands at a random place among the tracks
  /// still to come, so it neither plays at once nor waits behind everything.
  public mutating func append(contentsOf tracks: [Track]) {
    let added = appendEntries(tracks)
    guard var order = shuffledIDs else { return }
    for id in added {
      let earliest = currentID.flatMap { order.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
      order.insert(id, at: Int.random(in: earliest...order.count, using: &random))
    }
    shuffledIDs = order
  }

  /// Adds a track to play right after the current one.
  public mutating func insertNext(_ track: Track) {
    insertNext(contentsOf: [track])
  }

  /// Adds tracks to play right after the current one, in the given order.
  ///
  /// They follow the current track in album order and in play order alike. With
  /// no current track they go to the top, so the next skip starts with them.
  public mutating func insertNext(contentsOf tracks: [Track]) {
    let albumPosition = currentIndex.map { $0 + 1 } ?? 0
    let added = makeEntries(tracks)
    entries.insert(contentsOf: added, at: albumPosition)
    guard var order = shuffledIDs else { return }
    let playPosition = currentID.flatMap { order.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
    order.insert(contentsOf: added.map(\.id), at: playPosition)
    shuffledIDs = order
  }

  /// Removes the track at `index` and returns it, or `nil` for an invalid index.
  ///
  /// Removing the current track makes current the track an explicit ``next()``
  /// would have reached, or none when there is no such track. Removing any other
  /// track leaves the current track as it is.
  @discardableResult
  public mutating func remove(at index: Int) -> Track? {
    guard entries.indices.contains(index) else { return nil }
    let removed = entries[index]
    if removed.id == currentID {
      let successor = playablePosition(forward: true, wrap: repeatMode == .all)
        .map { orderIDs[$0] }
      currentID = successor == removed.id ? nil : successor
    }
    entries.remove(at: index)
    shuffledIDs?.removeAll { $0 == removed.id }
    return removed.track
  }

  /// Moves the track at `from` so that it ends up at `to`, like an array move.
  ///
  /// `to` is the index in the resulting queue. The current track stays current,
  /// wherever it moves to. While shuffled, the play order is unchanged; otherwise
  /// the play order follows the new album order. Returns `false`, changing
  /// nothing, when an index is out of range.
  @discardableResult
  public mutating func move(from: Int, to: Int) -> Bool {
    guard entries.indices.contains(from), entries.indices.contains(to) else { return false }
    let entry = entries.remove(at: from)
    entries.insert(entry, at: to)
    return true
  }

  /// Removes every track; shuffle and repeat stay as they are.
  public mutating func clear() {
    replaceAll(with: [])
  }

  // MARK: - Internals

  /// Wraps tracks in entries with fresh identifiers.
  private mutating func makeEntries(_ tracks: [Track]) -> [Entry] {
    tracks.map { track in
      defer { nextEntryID += 1 }
      var stamped = track
      stamped.queueEntry = nextEntryID
      return Entry(id: nextEntryID, track: stamped)
    }
  }

  /// Appends tracks in album order only and returns the new identifiers.
  @discardableResult
  private mutating func appendEntries(_ tracks: [Track]) -> [Int] {
    let added = makeEntries(tracks)
    entries.append(contentsOf: added)
    return added.map(\.id)
  }
}
