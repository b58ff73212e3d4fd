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
    lists[.search].rootCursor = ListCursor()
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
    let depth = lists.pushLoading(title, on: target)
    load(self) { [weak self] detail in
      self?.lists.fill(detail, on: target, at: depth, ifLoading: title)
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
    let list = Command.CatalogList(tracks, start: index, position: position, paused: paused)
    send(.playCatalog(list)) { [weak self] answer in
      if case .success = answer, self?.status?.text.hasPrefix("loading ") == true {
        self?.status = nil
      }
    }
  }

  /// Sends a command whose answer comes once its work is done (a catalog play, a server
  /// playlist edit); `then` gets it on the loop's thread, after a refusal went to the status
  /// line.
  func send(_ command: Command, then: @escaping (Session.Answer) -> Void = { _ in }) {
    _ = session.answer(command) { [weak self] answer in
      if case .failure(let failure) = answer { self?.setStatus(failure.message, error: true) }
      then(answer)
    }
  }
}
