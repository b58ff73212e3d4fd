import Foundation
import RefrainCore
import RefrainSession

/// Tap-to-sync in the lyrics view: while the session is timing the lyrics, Space stamps,
/// `[`/`]` move the chosen line's stamp by 50 ms, Enter plays from 1 s before it, and
/// leaving with stamps asks first.
extension App {
  /// The line `[`, `]` and Enter act on: the one chosen with j/k, else the last stamped.
  private var syncTarget: Int? {
    guard let sync = session.sync else { return nil }
    if let view = lyricsView, !view.following, let chosen = view.selection { return chosen }
    return sync.stamped > 0 ? sync.stamped - 1 : nil
  }

  /// Turns a key's command into a timing step while timing in the lyrics view; false when
  /// the command keeps its usual meaning.
  func handleSyncKey(_ command: Command) -> Bool {
    guard let sync = session.sync, lyricsView != nil else { return false }
    switch command {
    case .togglePlay:
      show(execute(.lyricsSync(.stamp)))
      lyricsView?.following = true
    case .move(let move):
      // The cursor moves through the lines being timed, from the last one stamped.
      let count = sync.entries.count
      guard count > 0 else { return true }
      let from = lyricsView.flatMap { $0.following ? nil : $0.selection } ?? max(0, sync.next - 1)
      var index = from
      switch move {
      case .down, .right: index += 1
      case .up, .left: index -= 1
      case .pageDown: index += max(1, layout.contentHeight / 2)
      case .pageUp: index -= max(1, layout.contentHeight / 2)
      case .top: index = 0
      case .bottom: index = count - 1
      }
      lyricsView?.selection = max(0, min(count - 1, index))
      lyricsView?.following = false
    case .nudge(let delta):
      guard let line = syncTarget else { return true }
      show(session.nudgeSync(line: line, by: delta > 0 ? 50 : -50))
    case .open:
      guard let line = syncTarget else { return true }
      show(session.checkSync(line: line))
    case .back, .lyrics, .quit:
      if sync.stamped > 0 {
        overlay = .confirm(question: "Leave timing without saving? (y/n)", action: .leaveSync)
      } else {
        show(execute(.lyricsSync(.cancel)))
        lyricsView = nil
      }
    default:
      return false
    }
    return true
  }
}
