import Foundation
import RefrainCore
import RefrainSession

/// Player events, lyrics loading, the lyrics view and the overlays.
extension App {
  /// Hands the player's events to the session, then shows what they mean on screen.
  public func handlePlayerEvents(_ events: [PlayerEvent]) {
    session.handlePlayerEvents(events)
    for event in events {
      switch event {
      case .started(let track, _):
        lyricsView?.selection = nil
        if let stored = track.catalogID.flatMap({ catalogTracks[$0] }) {
          let date = Date()
          withLibrary({ try $0.recordPlay(stored, at: date, secondsPlayed: nil) }) { _, _ in }
        }
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

  func handleLyricsView(_ command: Command) -> Bool {
    guard var view = lyricsView else { return false }
    let count = presenter.lyrics?.timeline.count ?? 0
    let current = currentLyricIndex
    switch command {
    case .move(let move):
      // While following, a move starts from the highlighted line (before the first: -1).
      var index = (view.following ? nil : view.selection) ?? current ?? -1
      switch move {
      case .down, .right: index += 1
      case .up, .left: index -= 1
      case .pageDown: index += max(1, lastHeight / 2)
      case .pageUp: index -= max(1, lastHeight / 2)
      case .top: index = 0
      case .bottom: index = count - 1
      }
      view.selection = max(0, min(count - 1, index))
      view.following = false
    case .seekMode:
      view.seekMode.toggle()
      lyricsSeekMode = view.seekMode
      setStatus("seek mode \(view.seekMode ? "on: Enter seeks to the line" : "off: Enter closes")")
    case .follow:
      view.following = true
      view.selection = currentLyricIndex
    case .open:
      // While following, Enter acts on the highlighted line, not on a stale selection.
      if view.seekMode, let target = view.following ? current : view.selection, count > 0 {
        presenter.seekToLine(target)
        view.selection = target
        view.following = true
      } else {
        lyricsView = nil
        return true
      }
    case .back, .lyrics, .quit:
      lyricsView = nil
      return true
    default:
      return false
    }
    lyricsView = view
    return true
  }

  /// The line the audible position is in now (the highlighted one), if any.
  ///
  /// Read from the timeline, not from `LyricFollower.currentIndex`: the full-screen loop
  /// never calls `lyricChange()`, so the follower's last reported line stays `nil`.
  var currentLyricIndex: Int? {
    guard let timeline = presenter.lyrics?.timeline, timeline.isSynced else { return nil }
    return timeline.index(at: presenter.snapshot.position)
  }

  /// Returns to following the current line after 5 s without input.
  func resumeFollowingIfIdle() {
    guard let view = lyricsView, !view.following, now() - view.lastInput >= 5 else { return }
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
