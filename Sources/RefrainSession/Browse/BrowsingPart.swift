import Foundation
import RefrainCore

/// What a front end browses: the catalog's Home, the last search, and the library's
/// playlists and recent searches. Every read runs in the background; this is what the last
/// ones returned.
public struct Browsing {
  /// The catalog's Home sections.
  public var home: [HomeSection] = []
  /// What Home says instead of sections: loading, empty, or why it failed.
  public var homeState = "Loading…"
  /// The last search and its results so far.
  public var search = SearchResults()
  /// The library's playlists and recent searches; `nil` until the first read finished.
  public var library: LibrarySnapshot?
  /// Why the last read of the library failed, until one succeeds.
  public var libraryReadError: String?
  /// The lists the catalog's server keeps (a Subsonic server's playlists and stars); `nil`
  /// under a catalog that keeps none.
  public var serverLists: ServerLists?
  /// Counts reads of the server's lists, so that only the latest one's answer is kept.
  var serverListsRead = 0

  /// Nothing read yet.
  public init() {}
}

/// The user's lists on the catalog's own server, as last read.
public enum ServerLists: Sendable, Equatable {
  /// The first read has not finished.
  case loading
  /// Why the last read failed.
  case failed(String)
  /// The server's playlists, and what it has starred (tracks, then albums).
  case loaded(playlists: [PlaylistSummary], starred: [CatalogItem])

  /// Whether the server has this track of its catalog starred, as last read.
  public func hasStarred(_ track: CatalogTrack) -> Bool {
    guard case .loaded(_, let starred) = self else { return false }
    return starred.contains {
      guard case .track(let other) = $0 else { return false }
      return other.id == track.id && other.provider == track.provider
    }
  }
}

/// A search over every kind at once: the results arrive kind by kind.
public struct SearchResults {
  public var query = ""
  public var results: [SearchKind: [CatalogItem]] = [:]
  /// Kinds still being searched.
  public var pending = 0
  /// Why a kind failed, if one did.
  public var error: String?

  /// A search for `query`, with `pending` kinds still to come.
  public init(query: String = "", pending: Int = 0) {
    self.query = query
    self.pending = pending
  }
}

/// What the panes show from the library, read in the background, so a slow disk or another
/// process holding the library's write lock never holds up a frame.
public struct LibrarySnapshot: Sendable, Equatable {
  /// Every playlist, by name.
  public var playlists: [LibraryPlaylist]
  /// The recent searches, most recent first.
  public var recentSearches: [String]
  /// The radio stations, by name.
  public var stations: [RadioStation]

  public init(
    playlists: [LibraryPlaylist], recentSearches: [String], stations: [RadioStation] = []
  ) {
    self.playlists = playlists
    self.recentSearches = recentSearches
    self.stations = stations
  }
}

/// A library playlist and its entries, read together.
public struct LibraryPlaylistRead: Sendable {
  public var playlist: LibraryPlaylist
  public var entries: [PlaylistEntry]
}

/// Reads a list of tracks from the library (a playlist's entries, the liked tracks, …).
public typealias LibraryTracksRead = @Sendable (any LibraryStorage) throws -> [CatalogTrack]

/// Browsing the catalog and the library: Home, search, details, the library's lists, and
/// the long work a front end starts (imports, publishing: BrowsingPart+Import).
///
/// It guarantees that every call returns at once: its work runs on ``BackgroundExecutor``,
/// and its result is applied on the session's thread, followed by
/// ``SessionEvent/browsingChanged`` (or a notice when it failed). Answers that arrive for an
/// older search or read are dropped.
final class BrowsingPart {
  /// The session it serves; set once by the session's init.
  unowned var session: Session!
  /// What front ends browse: Home, the last search, the library's lists.
  var state = Browsing()
  /// Whether a library import is running (one at a time).
  var importRunning = false
  /// Whether timed lyrics are being published (one at a time).
  var publishing = false

  init() {}

  var catalog: (any CatalogProvider)? { session.catalog }
  var libraryCalls: LibraryCalls? { session.libraryPart.calls }
  func notify(_ event: SessionEvent) { session.notify(event) }

  /// Loads ``catalog``'s Home sections.
  func loadHome() {
    guard let catalog else {
      state.homeState = "No catalog."
      return
    }
    state.homeState = "Loading \(catalog.name)…"
    background(on: session.inbox) {
      try await catalog.home()
    } then: { session, result in
      switch result {
      case .success(let sections):
        session.browsingPart.state.home = sections
        session.browsingPart.state.homeState =
          sections.isEmpty ? "This catalog has nothing to show yet." : ""
      case .failure(let error):
        session.browsingPart.state.homeState = "Home could not load: \(error)"
        session.notify(.notice("Home could not load: \(error)", isError: true))
      }
    }
  }

  /// Searches ``catalog`` for every kind at once and remembers the query among the recent
  /// searches; results that arrive for an older query are dropped.
  func search(_ query: String) {
    let query = query.trimmingCharacters(in: .whitespaces)
    guard !query.isEmpty, let catalog else { return }
    state.search = SearchResults(query: query, pending: SearchKind.allCases.count)
    // Remembered in the background; the search goes on whether or not that works.
    libraryCalls?.call({ try $0.addRecentSearch(query) }) { [weak self] _ in
      self?.refreshLibrary()
    }
    for kind in SearchKind.allCases {
      background(on: session.inbox) {
        try await catalog.search(query, kind: kind, offset: 0, limit: 20).items
      } then: { session, result in
        guard session.browsingPart.state.search.query == query else { return }
        session.browsingPart.state.search.pending -= 1
        switch result {
        case .success(let items): session.browsingPart.state.search.results[kind] = items
        case .failure(let error): session.browsingPart.state.search.error = "\(error)"
        }
      }
    }
  }

  /// Loads a detail from ``catalog`` and hands it to `then` on the session's thread; a
  /// failure comes as ``CatalogDetail/failed(_:)`` saying what could not load.
  func loadDetail(
    _ title: String, _ load: @escaping CatalogDetail.Load,
    then: @escaping (CatalogDetail) -> Void
  ) {
    guard let catalog else { return then(.failed("\(title) could not load: no catalog")) }
    let reply = SessionOnly(then)
    background(on: session.inbox) {
      try await load(catalog)
    } then: { _, result in
      switch result {
      case .success(let detail): reply.value(detail)
      case .failure(let error): reply.value(.failed("\(title) could not load: \(error)"))
      }
    }
  }

  /// Reads a detail from the library and hands it to `then`; a failure comes as
  /// ``CatalogDetail/failed(_:)``, and so does a missing library.
  func readDetail(
    _ title: String, _ read: @escaping @Sendable (any LibraryStorage) throws -> CatalogDetail,
    then: @escaping (CatalogDetail) -> Void
  ) {
    guard let libraryCalls else { return then(.failed("the library is not available")) }
    libraryCalls.call(read) { result in
      switch result {
      case .success(let detail): then(detail)
      case .failure(let error): then(.failed("\(title) could not load: \(error)"))
      }
    }
  }

  /// Fetches the tracks of an album, artist, playlist or genre without opening it, then
  /// runs `then` with them. None, or a failure, is said in a notice instead.
  func loadTracks(of item: CatalogItem, then: @escaping ([CatalogTrack]) -> Void) {
    if case .track(let track) = item { return then([track]) }
    guard let (_, load) = CatalogDetail.load(for: item) else { return }
    let name = item.title
    notify(.progress("loading \(name)…"))
    loadDetail(name, load) { [weak self] detail in
      if case .failed(let reason) = detail {
        self?.notify(.notice(reason, isError: true))
      } else if detail.tracks.isEmpty {
        self?.notify(.notice("\(name) has no tracks", isError: true))
      } else {
        self?.notify(.progress(nil))
        then(detail.tracks)
      }
    }
  }

  /// Reads tracks from the library, then runs `then` with them. None, or a failure, is
  /// said in a notice instead.
  func readTracks(
    _ read: @escaping LibraryTracksRead, then: @escaping ([CatalogTrack]) -> Void
  ) {
    guard let libraryCalls else {
      return notify(.notice("the library is not available", isError: true))
    }
    libraryCalls.call(read) { [weak self] result in
      switch result {
      case .success(let tracks) where tracks.isEmpty:
        self?.notify(.notice("this list has no tracks to add", isError: false))
      case .success(let tracks): then(tracks)
      case .failure(let error): self?.notify(.notice("\(error)", isError: true))
      }
    }
  }

  /// Re-reads the library's playlists and recent searches, and the entries of the
  /// playlists in `open` (those a front end shows), handing the latter to `then`. A playlist
  /// deleted meanwhile is left out. A failure is kept in ``Browsing/libraryReadError`` and
  /// said in a notice. The server's lists are read again too (``refreshServerLists()``).
  func refreshLibrary(
    open: Set<Int64> = [], then: @escaping ([Int64: LibraryPlaylistRead]) -> Void = { _ in }
  ) {
    refreshServerLists()
    libraryCalls?.call({ library in
      let snapshot = LibrarySnapshot(
        playlists: try library.playlists(), recentSearches: try library.recentSearches(),
        stations: try library.stations())
      var playlists: [Int64: LibraryPlaylistRead] = [:]
      for id in open {
        guard let playlist = try? library.playlist(id),
          let entries = try? library.entries(inPlaylist: id, offset: 0, limit: nil)
        else { continue }
        playlists[id] = LibraryPlaylistRead(playlist: playlist, entries: entries)
      }
      return (snapshot, playlists)
    }) { [weak self] result in
      guard let self else { return }
      switch result {
      case .success(let (snapshot, playlists)):
        state.library = snapshot
        state.libraryReadError = nil
        then(playlists)
        notify(.browsingChanged)
      case .failure(let error):
        state.libraryReadError = "\(error)"
        notify(.notice("\(error)", isError: true))
      }
    }
  }

  /// Has the catalog's server's playlists and stars read again in the background, when the
  /// catalog keeps its own (a Subsonic server); until the first answer they are loading.
  /// When reads overlap, only the latest one's answer is kept.
  func refreshServerLists() {
    guard let server = catalog as? any CatalogPlaylists else { return }
    let starring = catalog as? any CatalogStarring
    if state.serverLists == nil { state.serverLists = .loading }
    state.serverListsRead += 1
    let read = state.serverListsRead
    background(on: session.inbox) {
      async let playlists = server.playlists()
      let starred = try await starring?.starred() ?? []
      return (try await playlists, starred)
    } then: { session, result in
      // An earlier read that answers after a later one (a slow page of the server) would
      // bring back lists from before an edit: only the latest read is kept.
      guard read == session.browsingPart.state.serverListsRead else { return }
      switch result {
      case .success(let (playlists, starred)):
        session.browsingPart.state.serverLists = .loaded(playlists: playlists, starred: starred)
      case .failure(let error):
        session.browsingPart.state.serverLists = .failed("\(error)")
      }
    }
  }

}

/// Runs `work` on ``BackgroundExecutor``, then `then` on the session's thread with what came
/// of it, followed by ``SessionEvent/browsingChanged``.
func background<T: Sendable>(
  on inbox: Inbox<Session>, _ work: @escaping @Sendable () async throws -> T,
  then: @escaping (Session, Result<T, any Error>) -> Void
) {
  let reply = SessionOnly(then)
  Task.detached(executorPreference: BackgroundExecutor.shared) {
    let result: Result<T, any Error>
    do {
      result = .success(try await work())
    } catch {
      result = .failure(error)
    }
    inbox.post { session in
      reply.value(session, result)
      session.notify(.browsingChanged)
    }
  }
}
