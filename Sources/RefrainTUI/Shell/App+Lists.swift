import Foundation
import RefrainCore
import RefrainSession

/// What the panes are drawn from, read from the app and the session in one place.
extension App {
  /// The focused list pane (an empty one until it is first used).
  var list: ListPane {
    get { lists[pane] }
    set { lists[pane] = newValue }
  }

  /// The cursor of the focused list.
  var cursor: ListCursor {
    get { list.cursor }
    set { list.cursor = newValue }
  }

  /// What the list panes are drawn from now.
  var listContent: ListContent {
    ListContent(
      providerName: provider.name, browsing: session.browsing, searchBox: searchBox,
      libraryAvailable: session.libraryAvailable, queue: session.queue,
      catalogTrack: { [unowned self] in session.catalogTrack(for: $0) },
      showsCovers: showsCovers, albumCover: covers.album)
  }

  /// What the lyrics view and the Player pane's lyric lines are drawn from now.
  var lyricsModel: LyricsModel {
    LyricsModel(
      timeline: session.lyricsTimeline, position: session.snapshot.position,
      notice: lyricsNotice, highlight: lyricHighlight, colors: colors,
      translations: showsTranslations, romanize: romanizes, sync: session.sync)
  }

  /// Whether the terminal shows pictures and covers can be looked for.
  var showsCovers: Bool { pictureOutput != .none && covers.provider != nil }

  /// What the Player pane is drawn from now.
  var playerModel: PlayerModel {
    PlayerModel(
      snapshot: session.snapshot, lyrics: lyricsModel, lyricOffsetMs: session.lyricOffsetMs,
      showsCovers: showsCovers, cover: covers.player, room: room.map(RoomPane.line(for:)),
      starred: session.snapshot.shownTrack.map {
        session.browsing.serverLists?.hasStarred(session.catalogTrack(for: $0)) ?? false
      } ?? false)
  }

  /// The rows of the focused list (a detail view when one is open).
  func currentRows() -> [ListRow] { list.rows(listContent) }

  /// The catalog item under the cursor, if any.
  func selectedItem() -> CatalogItem? {
    let content = listContent
    return list.selectedItem(in: list.rows(content), content)
  }
}
