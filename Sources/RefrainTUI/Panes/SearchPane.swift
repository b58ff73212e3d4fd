import RefrainCore
import RefrainSession

/// The search box: what is being typed, whether it has the keys, and where ↑/↓ are in the
/// recent searches.
struct SearchBox {
  var editor = LineEditor()
  var editing = false
  var historyIndex: Int?
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
