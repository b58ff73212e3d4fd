/// What the listening session needs from the user's library, whatever stores it.
///
/// `LibraryStore` (SQLite) implements it. The session calls it only from background tasks,
/// never from the thread that draws the screen.
public protocol LibraryPort: Sendable {
  /// The user's lyric offset for a track, in ms (positive shows lines earlier); 0 when unset.
  func lyricOffset(for trackKey: String) throws -> Int
  /// Saves the user's lyric offset for a track and returns what was stored.
  @discardableResult
  func setLyricOffset(_ offsetMs: Int, for trackKey: String) throws -> Int
}
