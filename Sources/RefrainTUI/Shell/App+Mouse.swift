import RefrainCore

/// Left clicks (with `display.mouse`): a tab shows its pane, a list row or a lyric line
/// is selected. The wheel needs nothing here: it is bound like `k`/`j`.
extension App {
  /// Handles a left click on the cell at column `x`, row `y`.
  func click(x: Int, y: Int) {
    switch overlay {
    case .help?:
      overlay = nil  // like any key
      return
    case .some:
      return  // the picker, a question or an input line keep the keyboard's focus
    case nil:
      break
    }
    if y == 0, let tab = layout.tabs.first(where: { $0.columns.contains(x) }) {
      return handle(.show(tab.pane))
    }
    if lyricsView != nil {
      guard let line = layout.lyricLines[y] else { return }
      lyricsView?.selection = line
      lyricsView?.following = false
      return
    }
    guard let shown = layout.list, y >= shown.area.y, y < shown.area.y + shown.area.height,
      x >= shown.area.x, x < shown.area.x + shown.area.width
    else { return }
    let index = shown.cursor.top + (y - shown.area.y)
    let rows = currentRows()
    guard rows.indices.contains(index), !rows[index].isHeader else { return }
    cursor.selection = index
  }
}
