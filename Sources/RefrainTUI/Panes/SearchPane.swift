import RefrainCore
import RefrainSession

/// The search box: what is being typed, whether it has the keys, and where ↑/↓ are in the
/// recent searches.
struct SearchBox {
  var editor = LineEditor()
  var editing = false
  var historyIndex: Int?

  /// What a key typed into the box asks for.
  enum KeyResult: Equatable {
    /// The box took the key.
    case handled
    /// Enter: search for this text.
    case search(String)
    /// Not the box's key (Tab): the panes get it.
    case passed
  }

  /// Takes a key while the box is being edited: Escape stops editing, Enter searches, ↑/↓
  /// walk the recent searches (`history`, the latest first), the rest edit the text.
  mutating func handle(_ key: Key, history: [String]) -> KeyResult {
    switch key {
    case .escape:
      editing = false
    case .enter:
      editing = false
      return .search(editor.text)
    case .up, .down:
      guard !history.isEmpty else { return .handled }
      var index = historyIndex ?? -1
      index = key == .up ? min(history.count - 1, index + 1) : max(-1, index - 1)
      historyIndex = index < 0 ? nil : index
      editor.text = index < 0 ? "" : history[index]
    case .tab:
      return .passed
    default:
      _ = editor.apply(key)
    }
    return .handled
  }
}

/// The Search pane (key `2`): the search box, then the results by kind; with no query, the
/// recent searches.
struct SearchPane: ListSource {
  /// The kinds in the order they are listed, with their headers.
  static let sections: [(SearchKind, String)] = [
    (.track, "Tracks"), (.album, "Albums"), (.artist, "Artists"), (.playlist, "Playlists"),
    (.lyric, "Lyrics"),
  ]

  func rows(_ content: ListContent) -> [ListRow] {
    let search = content.browsing.search
    if search.query.isEmpty {
      let recent = content.browsing.library?.recentSearches ?? []
      guard !recent.isEmpty else {
        return [
          ListRow(
            text: "Press / and type to search \(content.providerName).", style: .dim,
            isHeader: true)
        ]
      }
      return [.header("Recent searches")]
        + recent.map { ListRow(text: $0, action: .recentSearch($0)) }
    }
    var rows: [ListRow] = []
    for (kind, title) in Self.sections {
      guard let items = search.results[kind], !items.isEmpty else { continue }
      rows.append(.header(title))
      rows += items.map(ListPane.itemRow)
    }
    if rows.isEmpty {
      let text =
        search.pending > 0
        ? "Searching…"
        : search.error.map { "Search failed: \($0)" } ?? "No results for \(search.query)"
      rows.append(ListRow(text: text, style: search.error == nil ? .dim : .error, isHeader: true))
    }
    return rows
  }

  /// The search line: what is being typed (with a cursor), or the query the results are for.
  func header(_ content: ListContent, into grid: inout ScreenGrid, in area: Rect) -> Int {
    let box = content.searchBox
    let prompt = box.editing ? "/ \(box.editor.text)▏" : "/ \(content.browsing.search.query)"
    grid.put(prompt, x: 1, y: area.y, maxWidth: area.width - 2, style: box.editing ? .accent : .dim)
    return 1
  }
}
