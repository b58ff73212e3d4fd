import Foundation

/// Every way the library store can fail; each message says what the user can do.
public enum LibraryStoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The SQLite file could not be created, opened or migrated.
  case cannotOpen(path: String, reason: String)
  /// SQLite refused a read or a write (a locked or damaged file).
  case database(String)
  /// The disk holding the library at `path` is full: the change was not saved, and what was
  /// saved before is intact.
  case diskFull(path: String)
  /// No playlist has this identifier (it was deleted, perhaps by another Refrain).
  case playlistNotFound(Int64)
  /// A playlist name was empty or only spaces.
  case emptyPlaylistName
  /// A position lies outside the playlist.
  case positionOutOfRange(Int, count: Int)

  public var description: String {
    switch self {
    case .cannotOpen(let path, let reason):
      return
        "cannot open the library \(path): \(reason) (check the folder's permissions and free space,"
        + " or set XDG_DATA_HOME to another folder)"
    case .database(let message):
      return "the library could not be read or saved: \(message)"
    case .diskFull(let path):
      return
        "the disk is full: the library \(path) could not be saved (free some space and try"
        + " again; what was saved before is kept)"
    case .playlistNotFound(let id):
      return "playlist \(id) no longer exists"
    case .emptyPlaylistName:
      return "a playlist needs a name"
    case .positionOutOfRange(let position, let count):
      return "position \(position) is outside the playlist (it has \(count) tracks)"
    }
  }
}
