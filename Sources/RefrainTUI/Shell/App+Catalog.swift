import Foundation
import RefrainCore
import RefrainSession

/// Opening what the lists show: searches, detail views and playback, through the session
/// (which loads, and in a room decides); the shell keeps only where each view goes.
extension App {
  /// Searches every kind at once; results arrive without blocking input.
  func runSearch(_ query: String) {
    let query = query.trimmingCharacters(in: .whitespaces)
    guard !query.isEmpty else { return }
    searchBox.editor.text = query
    searchBox.historyIndex = nil
    lists[.search, default: ListPane(.search)].rootCursor = ListCursor()
    session.search(query)
  }

  /// Opens an item: plays a track, pushes a detail view for anything else.
  func open(_ item: CatalogItem) {
    if case .track(let track) = item {
      play([track], startAt: 0)
    } else if case .lyric(let match) = item {
      // From the line that was found; plain lyrics have no time, so from the start.
      play([match.track], startAt: 0, position: Double(match.ms ?? 0) / 1000)
    } else if let (title, load) = CatalogDetail.load(for: item) {
      pushDetail(title) { app, fill in app.session.loadDetail(title, load, then: fill) }
    }
  }

  /// Pushes a detail view saying "loading" on the focused pane and fills it with what
  /// `load` hands back, if the view is still there.
  func pushDetail(
    _ title: String, load: (App, @escaping (CatalogDetail) -> Void) -> Void
  ) {
    let target = pane
    lists[target, default: ListPane(target)].details.append(DetailState(content: .loading(title)))
    let depth = lists[target]?.details.count ?? 0
    load(self) { [weak self] detail in
      guard let self, lists[target]?.details.count == depth,
        case .loading(title)? = lists[target]?.details[depth - 1].content
      else { return }
      lists[target]?.details[depth - 1].content = detail
    }
  }

  /// Plays `tracks` as a queue from `index`, once the session resolved fresh stream URLs
  /// (in a room, the room decides); the status line says what came of it.
  func play(
    _ tracks: [CatalogTrack], startAt index: Int, position: Double = 0, paused: Bool = false
  ) {
    guard !tracks.isEmpty else { return }
    let chosen = tracks[min(max(0, index), tracks.count - 1)]
    setStatus("loading \(chosen.title)…", seconds: 10)
    session.play(tracks, startAt: index, position: position, paused: paused) {
      [weak self] outcome, skipped in
      guard let self else { return }
      status = nil
      show(outcome)
      if case .done = outcome, let first = skipped.first {
        setStatus("skipped \(skipped.count) unplayable: \(first)", error: true)
      }
    }
  }

  /// Adds tracks to the end of the queue (in a room, the room's queue).
  func enqueue(_ tracks: [CatalogTrack]) {
    session.remember(tracks)
    // In a room, the room's queue, for everyone; the room refuses what it cannot play.
    show(execute(.enqueue(tracks.compactMap(\.playable))))
  }
}
