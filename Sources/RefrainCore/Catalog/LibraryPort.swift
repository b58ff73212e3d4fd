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
  /// Queues a listen for each of `services` in the library's offline queue, durably, before
  /// anything is sent; returns how many rows were new (a listen already queued is kept as it
  /// is, so it is never sent twice).
  @discardableResult
  func enqueueListen(_ listen: Listen, services: [ScrobbleService]) throws -> Int
}
