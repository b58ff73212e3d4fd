import RefrainCore

/// The playlist picker (`A`): the tracks to add, the playlists they can go to, and the cursor.
///
/// Under a catalog that keeps its own playlists (a Subsonic server), the server's come first,
/// with "new playlist on the server", then Refrain's own; otherwise only Refrain's own, as
/// plain rows. Enter on a row gives its ``Choice``.
struct PlaylistPicker {
  /// What a row of the picker stands for.
  enum Choice: Equatable {
    /// One of the server's playlists.
    case server(PlaylistSummary)
    /// A new playlist on the server, named next.
    case newOnServer
    /// One of Refrain's own playlists.
    case own(LibraryPlaylist)
    /// A new playlist of Refrain's own, named next.
    case newOwn
    /// A section title: never selected.
    case header
  }

  /// The tracks the chosen playlist gets.
  var tracks: [CatalogTrack]
  /// Refrain's own playlists.
  var own: [LibraryPlaylist]
  /// The server's playlists: `nil` when the catalog keeps none, empty while they load.
  var server: [PlaylistSummary]?
  /// The selected row and the first one drawn.
  var cursor = ListCursor()

  /// The rows, top to bottom, with what each stands for.
  var entries: [(row: ListRow, choice: Choice)] {
    let ownRows = own.map { (ListRow(text: $0.name), Choice.own($0)) }
    guard let server else { return ownRows + [(ListRow(text: "+ New playlist…"), .newOwn)] }
    return [(.header("On the server"), .header)]
      + server.map { (ListRow(text: $0.title), Choice.server($0)) }
      + [(ListRow(text: "+ New playlist on the server…"), .newOnServer)]
      + [(.header("Refrain's playlists"), .header)] + ownRows
      + [(ListRow(text: "+ New playlist…"), .newOwn)]
  }

  /// The rows as the cursor moves over them.
  var rows: [ListRow] { entries.map(\.row) }

  /// What the selected row stands for.
  var selected: Choice {
    let entries = entries
    return entries.indices.contains(cursor.selection) ? entries[cursor.selection].choice : .newOwn
  }

  /// Whether the user moved the selection; until then it stays on the first row.
  var moved = false

  /// A picker for `tracks`, its selection on the first playlist (or the first "new" row).
  init(tracks: [CatalogTrack], own: [LibraryPlaylist], server: [PlaylistSummary]?) {
    self.tracks = tracks
    self.own = own
    self.server = server
    clamp()
  }

  /// Moves the selection, skipping section titles.
  mutating func move(_ move: Command.Move, page: Int) {
    cursor.move(move, rows: rows, page: page)
    moved = true
  }

  /// Takes freshly read lists (`nil`: that list is unchanged). Until the user moves, the
  /// selection stays on the first row; after, on the same row: the same playlist (by id) or
  /// the same "new" row. A selected playlist that is gone leaves the selection where it was,
  /// within the rows.
  mutating func update(own: [LibraryPlaylist]? = nil, server: [PlaylistSummary]? = nil) {
    let before = selected
    if let own { self.own = own }
    if let server { self.server = server }
    if !moved {
      cursor = ListCursor()
    } else if let same = entries.firstIndex(where: { Self.same($0.choice, before) }) {
      cursor.selection = same
    }
    clamp()
  }

  /// Keeps the selection on a row that is not a section title.
  private mutating func clamp() {
    let rows = rows
    cursor.clamp(rows: rows, height: rows.count)
  }

  /// Whether two choices name the same row, a playlist by its id.
  private static func same(_ lhs: Choice, _ rhs: Choice) -> Bool {
    switch (lhs, rhs) {
    case (.server(let a), .server(let b)): return a.id == b.id
    case (.own(let a), .own(let b)): return a.id == b.id
    default: return lhs == rhs && lhs != .header
    }
  }
}
