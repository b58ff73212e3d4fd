import Foundation
import RefrainCatalog
import RefrainCore
import RefrainSession

/// Saving and restoring the session, and what `refrain ctl status` reports.
extension App {
  /// The catalog track behind a queued track (or one made from what the queue knows).
  func catalogTrack(for track: Track) -> CatalogTrack {
    if let known = catalogTracks[track.id] { return known }
    return CatalogTrack(
      id: track.id, provider: track.provider ?? "file", title: track.title, artist: track.artist,
      album: track.album, duration: track.duration, streamURL: track.location,
      lyricsURL: track.lyricsURL)
  }

  /// Saves the queue, position, volume, modes and open pane so the next start resumes.
  public func saveSession() {
    guard let library else { return }
    let snapshot = presenter.snapshot
    let session = SavedSession(
      queue: presenter.queue.tracks.map(catalogTrack(for:)), currentIndex: snapshot.index,
      position: snapshot.position, volume: snapshot.volume, shuffle: snapshot.isShuffled,
      repeatMode: snapshot.repeatMode, openPane: lyricsView != nil ? "lyrics" : pane.rawValue)
    do {
      try library.saveSession(session)
    } catch {
      setStatus("could not save the session: \(error)", error: true)
    }
  }

  /// Restores the last session, paused where it was left.
  public func restoreSession() {
    guard let session = try? library?.lastSession(), !session.queue.isEmpty else { return }
    presenter.setVolume(session.volume)
    presenter.setRepeat(session.repeatMode)
    if session.shuffle != presenter.queue.isShuffled { presenter.toggleShuffle() }
    if session.openPane == "lyrics" {
      pane = .player
      lyricsView = LyricsViewState(lastInput: now())
    } else if let saved = Command.Pane(rawValue: session.openPane) {
      pane = saved
    }
    play(
      session.queue, startAt: session.currentIndex ?? 0, position: session.position, paused: true)
    setStatus("resumed your last session (paused): space plays")
  }

  /// The session as `refrain ctl status` reports it, with the open pane.
  public var sessionStatus: SessionStatus { session.status(pane: pane.rawValue) }

  /// The status as one line of JSON, for `refrain ctl status`.
  public func statusJSON() -> String { SessionJSON.line(sessionStatus) }
}
