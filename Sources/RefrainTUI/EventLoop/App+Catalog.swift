import Foundation
import RefrainCore

/// Talking to the catalog: Home, search, details and starting playback.
extension App {
  /// Loads the Home sections in the background.
  func loadHome() {
    let provider = provider
    let inbox = inbox
    homeState = "Loading \(provider.name)…"
    Task.detached(executorPreference: BackgroundExecutor.shared) {
      do {
        let sections = try await provider.home()
        inbox.post { app in
          app.home = sections
          app.homeState = sections.isEmpty ? "This catalog has nothing to show yet." : ""
        }
      } catch {
        let message = "\(error)"
        inbox.post { app in
          app.homeState = "Home could not load: \(message)"
          app.setStatus("Home could not load: \(message)", error: true)
        }
      }
    }
  }

  /// Searches every kind at once; results arrive without blocking input.
  func runSearch(_ query: String) {
    let query = query.trimmingCharacters(in: .whitespaces)
    guard !query.isEmpty else { return }
    search.query = query
    search.editor.text = query
    search.results = [:]
    search.error = nil
    search.historyIndex = nil
    // Remembered in the background; the search goes on whether or not that works.
    changeLibrary({ try $0.addRecentSearch(query) }) { _, _ in }
    lists[.search, default: ListPane(.search)].rootCursor = ListCursor()
    let provider = provider
    let inbox = inbox
    search.pending = SearchKind.allCases.count
    for kind in SearchKind.allCases {
      Task.detached(executorPreference: BackgroundExecutor.shared) {
        let result: Result<[CatalogItem], Error>
        do {
          result = .success(
            try await provider.search(query, kind: kind, offset: 0, limit: 20).items)
        } catch {
          result = .failure(error)
        }
        inbox.post { app in
          guard app.search.query == query else { return }
          app.search.pending -= 1
          switch result {
          case .success(let items): app.search.results[kind] = items
          case .failure(let error): app.search.error = "\(error)"
          }
        }
      }
    }
  }

  /// Loads an item's detail from the catalog: the one path for detail views and for
  /// adding a list that was never opened.
  typealias DetailLoad = @Sendable (any CatalogProvider) async throws -> DetailState.Content

  /// The title and the loader of `item`'s detail; `nil` for a track, which has none.
  static func detailLoad(for item: CatalogItem) -> (title: String, load: DetailLoad)? {
    switch item {
    case .track, .lyric:
      return nil
    case .album(let album):
      return ("Album: \(album.title)", { try await .album($0.album(id: album.id)) })
    case .artist(let artist):
      return ("Artist: \(artist.name)", { try await .artist($0.artist(id: artist.id)) })
    case .playlist(let playlist):
      return (
        "Playlist: \(playlist.title)",
        { try await .playlist($0.playlist(id: playlist.id, offset: 0, limit: 100)) }
      )
    case .genre(let genre):
      return ("Genre: \(genre.name)", { try await .genre($0.genre(id: genre.id)) })
    }
  }

  /// Opens an item: plays a track, pushes a detail view for anything else.
  func open(_ item: CatalogItem, among siblings: [CatalogTrack] = []) {
    if case .track(let track) = item {
      play([track], startAt: 0)
    } else if case .lyric(let match) = item {
      // From the line that was found; plain lyrics have no time, so from the start.
      play([match.track], startAt: 0, position: Double(match.ms ?? 0) / 1000)
    } else if let (title, load) = Self.detailLoad(for: item) {
      pushDetail(title, load: load)
    }
  }

  /// Fetches the tracks of an album, artist, playlist or genre without opening it, then
  /// runs `then` on the main loop with them (never with none: that is reported instead).
  func loadTracks(
    of item: CatalogItem, then: @escaping @Sendable (App, [CatalogTrack]) -> Void
  ) {
    if case .track(let track) = item { return then(self, [track]) }
    guard let load = Self.detailLoad(for: item)?.load else { return }
    let name = item.title
    setStatus("loading \(name)…", seconds: 10)
    let provider = provider
    let inbox = inbox
    Task.detached(executorPreference: BackgroundExecutor.shared) {
      let result: Result<[CatalogTrack], Error>
      do {
        result = .success(DetailState(content: try await load(provider)).tracks)
      } catch {
        result = .failure(error)
      }
      inbox.post { app in
        switch result {
        case .success(let tracks) where tracks.isEmpty:
          app.setStatus("\(name) has no tracks", error: true)
        case .success(let tracks):
          app.status = nil
          then(app, tracks)
        case .failure(let error):
          app.setStatus("\(name) could not load: \(error)", error: true)
        }
      }
    }
  }

  private func pushDetail(_ title: String, load: @escaping DetailLoad) {
    let target = pane
    lists[target, default: ListPane(target)].details.append(DetailState(content: .loading(title)))
    let depth = lists[target]?.details.count ?? 0
    let provider = provider
    let inbox = inbox
    Task.detached(executorPreference: BackgroundExecutor.shared) {
      let content: DetailState.Content
      do {
        content = try await load(provider)
      } catch {
        content = .failed("\(title) could not load: \(error)")
      }
      inbox.post { app in
        guard app.lists[target]?.details.count == depth else { return }
        app.lists[target]?.details[depth - 1].content = content
      }
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

  /// Adds tracks to the end of the queue.
  func enqueue(_ tracks: [CatalogTrack]) {
    let playable = tracks.compactMap(\.playable)
    session.remember(tracks)
    guard !playable.isEmpty else { return setStatus("nothing playable to add", error: true) }
    if room != nil {
      // The room's queue, for everyone; the room refuses what it cannot play.
      for track in playable {
        let item = track.location.isFileURL ? track.location.path : track.location.absoluteString
        show(session.add(item, playing: false))
      }
      return
    }
    if presenter.queue.isEmpty {
      presenter.playAll(playable, startAt: 0)
    } else {
      presenter.enqueue(playable)
    }
    setStatus("added \(playable.count) track\(playable.count == 1 ? "" : "s") to the queue")
  }

  /// Saves an album, or likes a track (unlikes a liked one): the session's, whose notice
  /// says so on the status line once it is stored.
  func save(_ item: CatalogItem) {
    show(session.save(item))
  }
}
