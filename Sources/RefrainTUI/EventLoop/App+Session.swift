import Foundation
import RefrainCore
import RefrainSession

/// Saving and restoring the session, and what `refrain ctl status` reports.
extension App {
  /// The catalog track behind a queued track (or one made from what the queue knows).
  func catalogTrack(for track: Track) -> CatalogTrack {
    if let known = track.catalogID.flatMap({ catalogTracks[$0] }) { return known }
    return Self.catalogTrack(describing: track)
  }

  /// A catalog track made from what `track` itself says (a file or URL outside any catalog).
  static func catalogTrack(describing track: Track) -> CatalogTrack {
    CatalogTrack(
      id: track.catalogID?.id ?? track.id,
      provider: track.catalogID?.provider ?? track.provider ?? "file", title: track.title,
      artist: track.artist, album: track.album, duration: track.duration,
      streamURL: track.location, coverURL: track.coverURL, lyricsURL: track.lyricsURL)
  }

  /// Saves the queue, position, volume, modes and open pane in the background, after every
  /// library call asked for before, so the next start resumes there.
  public func saveSession() {
    guard library != nil else { return }
    let saved = savedSession
    withLibrary({ try $0.saveSession(saved) }) { app, result in
      if case .failure(let error) = result {
        app.setStatus("could not save the session: \(error)", error: true)
      }
    }
  }

  /// Saves the session after every library call asked for before, and returns once all of
  /// them, the save included, have finished: for quitting, once nothing is drawn any more.
  public func saveSessionAndWait() {
    saveSession()
    waitForLibraryCalls()
  }

  /// What ``saveSession()`` stores: the session as it is now.
  private var savedSession: SavedSession {
    let snapshot = presenter.snapshot
    return SavedSession(
      queue: presenter.queue.tracks.map(catalogTrack(for:)), currentIndex: snapshot.index,
      position: snapshot.position, volume: snapshot.volume, shuffle: snapshot.isShuffled,
      repeatMode: snapshot.repeatMode, openPane: lyricsView != nil ? "lyrics" : pane.rawValue)
  }

  /// Reads the last session in the background and restores it, paused where it was left.
  public func restoreSession() {
    withLibrary({ try $0.lastSession() }) { app, result in
      guard case .success(let saved?) = result, !saved.queue.isEmpty else { return }
      app.restore(saved)
    }
  }

  private func restore(_ session: SavedSession) {
    presenter.setVolume(session.volume)
    presenter.setRepeat(session.repeatMode)
    if session.shuffle != presenter.queue.isShuffled { presenter.toggleShuffle() }
    if session.openPane == "lyrics" {
      pane = .player
      lyricsView = LyricsPane(lastInput: now())
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
