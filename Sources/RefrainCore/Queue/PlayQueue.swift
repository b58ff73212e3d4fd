import Foundation

/// The list of tracks Refrain plays, with the current track, shuffle and repeat.
///
/// `PlayQueue` is a pure value: it never touches audio, so every rule below is
/// tested without a player.
///
/// - *Album order* is the order of ``tracks``; indices in this API are album
///   order indices.
/// - *Play order* is the order in which tracks follow each other. It equals
///   album order unless shuffle is on; then it is a permutation drawn from the
///   queue's seeded generator, with the current track first.
/// - ``next()`` is an explicit skip; ``nextAfterTrackEnd()`` is what happens
///   when a track plays to its end; ``peekNext()`` predicts the latter without
///   moving, so the player can prepare a gapless hand-over.
/// - Tracks marked unplayable are skipped by every move. When no playable track
///   is left, moves return `nil`.
public struct PlayQueue: Sendable, Equatable {
  /// One slot in the queue; the identifier keeps duplicates of a track apart.
  struct Entry: Sendable, Equatable {
    let id: Int
    var track: Track
    var unplayableReason: String?
  }

  /// The slots in album order.
  var entries: [Entry] = []
  /// Entry identifiers in play order while shuffle is on; `nil` when it is off.
  var shuffledIDs: [Int]?
  /// The identifier of the current entry, if any.
  var currentID: Int?
  /// The identifier the next added entry receives.
  var nextEntryID = 0
  /// The generator that draws shuffle orders.
  var random: SeededRandom

  /// What happens when the queue runs out or a track ends.
  public var repeatMode: RepeatMode

  /// Creates a queue of `tracks` with `startAt` as the current track.
  ///
  /// - Parameters:
  ///   - tracks: The tracks in album order.
  ///   - startAt: The index of the current track; `nil` (or an invalid index) means
  ///     none yet, so the first ``next()`` starts at the top of the play order.
  ///   - repeatMode: The initial repeat mode.
  ///   - random: The generator for shuffle orders; pass a seeded one in tests.
  public init(
    _ tracks: [Track] = [], startAt: Int? = nil, repeatMode: RepeatMode = .off,
    random: SeededRandom = SeededRandom()
  ) {
    self.repeatMode = repeatMode
    self.random = random
    replaceAll(with: tracks, startAt: startAt)
  }

  // MARK: - Reading

  /// The tracks in album order.
  public var tracks: [Track] { entries.map(\.track) }

  /// The number of tracks, playable or not.
  public var count: Int { entries.count }

  /// Whether the queue holds no tracks.
  public var isEmpty: Bool { entries.isEmpty }

  /// The album order index of the current track, if any.
  public var currentIndex: Int? {
    guard let currentID else { return nil }
    return entries.firstIndex { $0.id == currentID }
  }

  /// The current track, if any.
  public var current: Track? {
    currentIndex.map { entries[$0].track }
  }

  /// Whether shuffle is on.
  public var isShuffled: Bool { shuffledIDs != nil }

  /// The album order indices of all tracks, in the order they will play.
  public var playOrder: [Int] {
    let positions = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($1.id, $0) })
    return orderIDs.compactMap { positions[$0] }
  }

  /// Returns the track at `index`, or `nil` when the index is out of range.
  public func track(at index: Int) -> Track? {
    entries.indices.contains(index) ? entries[index].track : nil
  }

  /// Returns why the track at `index` cannot be played, or `nil` when it can.
  public func unplayableReason(at index: Int) -> String? {
    entries.indices.contains(index) ? entries[index].unplayableReason : nil
  }

  /// Returns whether the track at `index` exists and has not failed.
  public func isPlayable(at index: Int) -> Bool {
    entries.indices.contains(index) && entries[index].unplayableReason == nil
  }

  // MARK: - Moving

  /// Makes the track at `index` current, as when the user picks it by hand.
  ///
  /// Picking a track retries it: its unplayable mark is cleared. While shuffled,
  /// the play order is drawn anew with the picked track first, so every other
  /// track still follows it once. Returns `nil` for an invalid index.
  @discardableResult
  public mutating func select(at index: Int) -> Track? {
    guard entries.indices.contains(index) else { return nil }
    entries[index].unplayableReason = nil
    currentID = entries[index].id
    if isShuffled { reshuffle() }
    return entries[index].track
  }

  /// Makes the first playable track in play order current, keeping the shuffle.
  @discardableResult
  public mutating func rewind() -> Track? {
    let playable = playableIDs
    guard let id = orderIDs.first(where: playable.contains) else { return nil }
    currentID = id
    return current
  }

  /// Skips to the next playable track on the user's request.
  ///
  /// Repeat all wraps around; repeat off and repeat one stop at the end. With no
  /// current track, this starts at the top of the play order. Returns `nil`, and
  /// leaves the current track as it is, when there is nothing to skip to.
  @discardableResult
  public mutating func next() -> Track? {
    guard let position = playablePosition(forward: true, wrap: repeatMode == .all) else {
      return nil
    }
    currentID = orderIDs[position]
    return current
  }

  /// Moves on after the current track played to its end.
  ///
  /// Repeat one keeps the current track; otherwise this is ``next()``. The result
  /// always equals what ``peekNext()`` returned just before.
  @discardableResult
  public mutating func nextAfterTrackEnd() -> Track? {
    if repeatMode == .one, let index = currentIndex, isPlayable(at: index) {
      return entries[index].track
    }
    return next()
  }

  /// Goes back to the previous playable track in play order.
  ///
  /// Repeat all wraps around to the last track; otherwise this returns `nil` at
  /// the start (or with no current track) and leaves the current track as it is.
  @discardableResult
  public mutating func previous() -> Track? {
    guard let position = playablePosition(forward: false, wrap: repeatMode == .all) else {
      return nil
    }
    currentID = orderIDs[position]
    return current
  }

  /// Whether ``next()`` would move to another track (a skip, not a natural end: repeat one
  /// does not count).
  public var canSkipForward: Bool {
    playablePosition(forward: true, wrap: repeatMode == .all) != nil
  }

  /// The album order index of the track ``nextAfterTrackEnd()`` would play.
  public func peekNextIndex() -> Int? {
    if repeatMode == .one, let index = currentIndex, isPlayable(at: index) {
      return index
    }
    guard let position = playablePosition(forward: true, wrap: repeatMode == .all) else {
      return nil
    }
    let id = orderIDs[position]
    return entries.firstIndex { $0.id == id }
  }

  /// The track that plays when the current one ends naturally, for gapless preparation.
  public func peekNext() -> Track? {
    peekNextIndex().map { entries[$0].track }
  }

  /// `track` marked with whether the queue plays it within its album: not shuffled, and
  /// the entry before or after it holds the same album (ReplayGain's `auto` mode).
  public func forPlayback(_ track: Track?) -> Track? {
    guard var track else { return nil }
    track.withinAlbum = false
    guard !isShuffled, let album = track.album?.lowercased(), !album.isEmpty,
      let index = entries.firstIndex(where: { $0.track.isSameEntry(as: track) })
    else { return track }
    track.withinAlbum = [index - 1, index + 1].contains {
      entries.indices.contains($0) && entries[$0].track.album?.lowercased() == album
    }
    return track
  }

  // MARK: - Modes

  /// Turns shuffle on or off, keeping the current track current.
  ///
  /// Turning it on draws a new play order that starts with the current track.
  /// Turning it off returns to album order, continuing from the current track.
  public mutating func setShuffle(_ isOn: Bool) {
    guard isOn != isShuffled else { return }
    if isOn {
      reshuffle()
    } else {
      shuffledIDs = nil
    }
  }

  /// Flips shuffle; see ``setShuffle(_:)``.
  public mutating func toggleShuffle() {
    setShuffle(!isShuffled)
  }

  /// Steps the repeat mode: off → all → one → off.
  public mutating func cycleRepeat() {
    repeatMode = repeatMode.cycled
  }

  /// Marks the track at `index` as one that cannot be played, with the reason.
  ///
  /// Moves skip it until the user picks it again with ``select(at:)``.
  public mutating func markUnplayable(at index: Int, reason: String) {
    guard entries.indices.contains(index) else { return }
    entries[index].unplayableReason = reason
  }

  // MARK: - Internals

  /// Entry identifiers in play order.
  var orderIDs: [Int] {
    shuffledIDs ?? entries.map(\.id)
  }

  /// The identifiers of the entries that have not failed.
  var playableIDs: Set<Int> {
    Set(entries.lazy.filter { $0.unplayableReason == nil }.map(\.id))
  }

  /// Finds the nearest playable position in play order, before or after the current one.
  ///
  /// Each position is looked at once at most, so a queue with no playable track
  /// ends the search instead of looping. When wrapping, the current track itself
  /// is the last candidate. With no current track, forward searches start at the
  /// top of the play order and backward searches find nothing.
  func playablePosition(forward: Bool, wrap: Bool) -> Int? {
    let order = orderIDs
    let playable = playableIDs
    guard let currentID, let start = order.firstIndex(of: currentID) else {
      return forward ? order.firstIndex(where: playable.contains) : nil
    }
    let count = order.count
    let steps = wrap ? count : (forward ? count - 1 - start : start)
    guard steps > 0 else { return nil }
    for step in 1...steps {
      let offset = forward ? step : count - step
      let position = (start + offset) % count
      if playable.contains(order[position]) { return position }
    }
    return nil
  }

  /// Draws a new play order with the current track (if any) first.
  mutating func reshuffle() {
    var rest = entries.map(\.id).filter { $0 != currentID }
    rest.shuffle(using: &random)
    shuffledIDs = (currentID.map { [$0] } ?? []) + rest
  }
}
