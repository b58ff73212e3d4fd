import Foundation

/// A playlist the user made, as the Library pane lists it.
public struct LibraryPlaylist: Sendable, Hashable, Codable {
  /// The playlist's number in the library file.
  public var id: Int64
  /// The name the user gave it.
  public var name: String
  /// How many entries it holds.
  public var trackCount: Int
  /// When it was made.
  public var createdAt: Date
  /// When its name or entries last changed.
  public var updatedAt: Date

  /// Creates a playlist value.
  public init(id: Int64, name: String, trackCount: Int, createdAt: Date, updatedAt: Date) {
    self.id = id
    self.name = name
    self.trackCount = trackCount
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }

  /// The playlist as a catalog item; the `local` provider serves the user's playlists.
  public var summary: PlaylistSummary {
    PlaylistSummary(id: String(id), provider: "local", title: name, trackCount: trackCount)
  }
}

/// One entry of a playlist: a track from any provider at a position.
public struct PlaylistEntry: Sendable, Hashable, Codable {
  /// The entry's own number; it stays the same when the entry moves.
  public var entryID: Int64
  /// The position within the playlist, from 0.
  public var position: Int
  /// The track, as it was when added (or last stored).
  public var track: CatalogTrack
  /// When the entry was added.
  public var addedAt: Date

  /// Creates an entry value.
  public init(entryID: Int64, position: Int, track: CatalogTrack, addedAt: Date) {
    self.entryID = entryID
    self.position = position
    self.track = track
    self.addedAt = addedAt
  }
}

/// One play of a track.
public struct PlayRecord: Sendable, Hashable, Codable {
  /// The track that played.
  public var track: CatalogTrack
  /// When it started.
  public var playedAt: Date
  /// How long the user listened, when known.
  public var secondsPlayed: Double?

  /// Creates a play record.
  public init(track: CatalogTrack, playedAt: Date, secondsPlayed: Double? = nil) {
    self.track = track
    self.playedAt = playedAt
    self.secondsPlayed = secondsPlayed
  }
}

/// What Refrain restores at start-up: the queue, where it was, and how the player was set.
public struct SavedSession: Sendable, Hashable, Codable {
  /// The queue in play order.
  public var queue: [CatalogTrack]
  /// The index of the current track in `queue`, if any.
  public var currentIndex: Int?
  /// The position within the current track, in seconds.
  public var position: Double
  /// The volume, 0...100 percent.
  public var volume: Int
  /// Whether shuffle was on.
  public var shuffle: Bool
  /// The repeat mode.
  public var repeatMode: RepeatMode
  /// The pane that was open (`home`, `search`, `library`, `player`, `lyrics`).
  public var openPane: String
  /// When the session was saved.
  public var savedAt: Date

  /// Creates a session value.
  public init(
    queue: [CatalogTrack], currentIndex: Int?, position: Double, volume: Int, shuffle: Bool,
    repeatMode: RepeatMode, openPane: String, savedAt: Date = Date()
  ) {
    self.queue = queue
    self.currentIndex = currentIndex
    self.position = position
    self.volume = volume
    self.shuffle = shuffle
    self.repeatMode = repeatMode
    self.openPane = openPane
    self.savedAt = savedAt
  }
}
