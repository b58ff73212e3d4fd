import Foundation
import RefrainCore
import RefrainSession

/// Player events, the lyrics view's idle follow, and the overlays.
extension App {
  /// Hands the player's events to the session, then shows what they mean on screen.
  public func handlePlayerEvents(_ events: [PlayerEvent]) {
    session.handlePlayerEvents(events)
    for event in events {
      switch event {
      case .started:
        lyricsView?.selection = nil
      case .failed(let track, let message):
        setStatus("skipped \(track.title): \(message)", error: true, seconds: 6)
      case .warning(let message):
        setStatus(message, error: true, seconds: 6)
      case .trackEnded:
        break
      }
    }
  }

  // MARK: - Lyrics view

  /// Returns to following the current line after 5 s without input (not while timing the
  /// lyrics: the chosen line stays chosen for `[`, `]` and Enter).
  func resumeFollowingIfIdle() {
    guard let view = lyricsView, !view.following, now() - view.lastInput >= 5,
      session.sync == nil
    else { return }
    lyricsView?.following = true
  }

  // MARK: - Overlays

  func handleOverlay(_ command: Command) -> Bool {
    guard let current = overlay else { return false }
    switch current {
    case .help:
      overlay = nil
      return command == .back || command == .help || command == .open || command == .quit
    case .picker(let tracks, let playlists, var cursor):
      let rows =
        playlists.map { ListRow(text: $0.name, action: .libraryPlaylist($0)) }
        + [ListRow(text: "+ New playlist…", action: .newPlaylist)]
      switch command {
      case .move(let move):
        cursor.move(move, rows: rows, page: 8)
        overlay = .picker(tracks: tracks, playlists: playlists, cursor: cursor)
      case .open:
        overlay = nil
        if case .libraryPlaylist(let playlist) = rows[cursor.selection].action {
          editLibrary("added \(tracks.count) to \(playlist.name)") {
            try $0.addTracks(tracks, toPlaylist: playlist.id, at: nil)
          }
        } else {
          createPlaylist(named: nil, adding: tracks)
        }
      case .back, .quit:
        overlay = nil
      default:
        break
      }
      return true
    case .input, .confirm:
      return true
    }
  }

  /// The key context whose bindings the help overlay lists.
  var helpContext: KeyContext { lyricsView != nil ? .lyrics : .lists }
}
