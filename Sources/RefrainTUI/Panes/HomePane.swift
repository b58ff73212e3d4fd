import RefrainCore

/// The Home pane (key `1`): the catalog's sections, or what Home says instead (loading,
/// empty, why it failed).
struct HomePane: ListSource {
  func rows(_ content: ListContent) -> [ListRow] {
    let browsing = content.browsing
    guard !browsing.home.isEmpty else {
      return [ListRow(text: browsing.homeState, style: .dim, isHeader: true)]
    }
    var rows: [ListRow] = []
    for section in browsing.home {
      rows.append(.header(section.title))
      rows += section.items.map(ListPane.itemRow)
    }
    return rows
  }
}
