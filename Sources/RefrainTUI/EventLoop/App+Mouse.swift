import RefrainCore

/// Where the last frame drew what a click can hit: the tabs, list rows and lyric lines.
///
/// Rendering fills it in, so a click always means what the user saw under the pointer.
struct ClickMap {
  /// Each tab's columns on the top row.
  var tabs: [(columns: Range<Int>, pane: Command.Pane)] = []
  /// The visible list rows: the screen area and the index of its first row.
  var list: (area: Rect, top: Int)?
  /// The lyric line on each screen row of the lyrics view.
  var lyricLines: [Int: Int] = [:]
}

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
    if y == 0, let tab = clickMap.tabs.first(where: { $0.columns.contains(x) }) {
      return handle(.show(tab.pane))
    }
    if lyricsView != nil {
      guard let line = clickMap.lyricLines[y] else { return }
      lyricsView?.selection = line
      lyricsView?.following = false
      return
    }
    guard let list = clickMap.list, y >= list.area.y, y < list.area.y + list.area.height,
      x >= list.area.x, x < list.area.x + list.area.width
    else { return }
    let index = list.top + (y - list.area.y)
    let rows = currentRows()
    guard rows.indices.contains(index), !rows[index].isHeader else { return }
    cursor.selection = index
  }
}
