/// Where the session's scrobbler hands what it found: the services' sender.
///
/// Both calls return at once; the work (network requests, library reads) runs on background
/// threads, never on the thread that calls them (a front end's loop).
public protocol ScrobbleOutbox: Sendable {
  /// Announces a track that started to every service ("now playing"); best effort, never
  /// queued.
  func announce(_ nowPlaying: NowPlaying)
  /// Says that listens were just queued in the library, so the due ones should be sent.
  func listensQueued()
}
