import Foundation
import RefrainCatalog
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainSession

/// Browsing through the session, as every front end does: Home, searches whose late
/// answers are dropped, and the library's lists read from a real library file.
final class SessionBrowseTests: XCTestCase {
  /// A catalog whose album search fails and whose answers for "slow" come late.
  private struct Shelf: CatalogProvider {
    var name = "shelf"
    static let song = CatalogTrack(
      id: "song", provider: "shelf", title: "Harbor Song", artist: "Harbor Lights",
      streamURL: URL(fileURLWithPath: "/music/song.mp3"))

    func home() async throws -> [HomeSection] {
      [HomeSection(id: "all", title: "Everything", kind: .other, items: [.track(Self.song)])]
    }
    func search(_ query: String, kind: SearchKind, offset: Int, limit: Int) async throws
      -> Page<CatalogItem>
    {
      if query == "slow" { try await Task.sleep(nanoseconds: 300_000_000) }
      if kind == .album { throw CatalogError.unavailable("the album index is down") }
      return Page(items: kind == .track ? [.track(Self.song)] : [], offset: 0)
    }
    func album(id: String) async throws -> AlbumDetail { throw CatalogError.notFound(id) }
    func artist(id: String) async throws -> ArtistDetail { throw CatalogError.notFound(id) }
    func playlist(id: String, offset: Int, limit: Int) async throws -> PlaylistDetail {
      throw CatalogError.notFound(id)
    }
  }

  private func makeSession(storage: LibraryStore? = nil) -> Session {
    let session = Session(
      player: FakePlayer(), storage: storage,
      lyricsLoader: { _ in .notFound(reasons: ["no lyrics in the test"]) })
    session.catalog = Shelf()
    return session
  }

  private func drain(_ session: Session, until condition: () -> Bool) {
    let deadline = Date().addingTimeInterval(5)
    while !condition(), Date() < deadline {
      usleep(2_000)
      session.drainInbox()
    }
    XCTAssertTrue(condition(), "the session's background work finished in time")
  }

  func testHomeAndSearchArriveAndAnOlderSearchIsDropped() {
    let session = makeSession()
    var notices: [String] = []
    session.subscribe { if case .notice(let text, _) = $0 { notices.append(text) } }
    session.loadHome()
    XCTAssertEqual(session.browsing.homeState, "Loading shelf…")
    session.search("slow")
    session.search("harbor")
    drain(session) { !session.browsing.home.isEmpty && session.browsing.search.pending == 0 }
    XCTAssertEqual(session.browsing.home.first?.title, "Everything")
    XCTAssertEqual(session.browsing.search.query, "harbor")
    XCTAssertEqual(session.browsing.search.results[.track], [.track(Shelf.song)])
    XCTAssertEqual(session.browsing.search.error, "the album index is down")
    usleep(400_000)  // the slow answers for "slow" arrive now, and change nothing
    session.drainInbox()
    XCTAssertEqual(session.browsing.search.query, "harbor")
    XCTAssertEqual(session.browsing.search.pending, 0)

    var loaded: [CatalogTrack]?
    session.loadTracks(of: .album(AlbumSummary(id: "gone", provider: "shelf", title: "Gone"))) {
      loaded = $0
    }
    drain(session) { notices.contains { $0.hasPrefix("Gone could not load") } }
    XCTAssertNil(loaded, "a list that failed to load hands nothing on")
  }

  /// A server whose first read of its playlists answers late, with the lists from before an
  /// edit; every later read answers at once with the lists after it.
  private final class SlowFirstServer: CatalogProvider, CatalogPlaylists, @unchecked Sendable {
    let name = "server"
    private let lock = NSLock()
    private var reads = 0
    /// How many reads have started.
    var started: Int { lock.withLock { reads } }

    func playlists() async throws -> [PlaylistSummary] {
      let read = lock.withLock {
        reads += 1
        return reads
      }
      if read == 1 {
        try await Task.sleep(nanoseconds: 300_000_000)
        return [PlaylistSummary(id: "p-1", provider: name, title: "Before the edit")]
      }
      return [PlaylistSummary(id: "p-1", provider: name, title: "After the edit")]
    }
    func home() async throws -> [HomeSection] { [] }
    func search(_ query: String, kind: SearchKind, offset: Int, limit: Int) async throws
      -> Page<CatalogItem>
    { Page(items: [], offset: 0) }
    func album(id: String) async throws -> AlbumDetail { throw CatalogError.notFound(id) }
    func artist(id: String) async throws -> ArtistDetail { throw CatalogError.notFound(id) }
    func playlist(id: String, offset: Int, limit: Int) async throws -> PlaylistDetail {
      throw CatalogError.notFound(id)
    }
    func playlistTracks(id: String) async throws -> (PlaylistSummary, [CatalogTrack]) {
      throw CatalogError.notFound(id)
    }
    func createPlaylist(named name: String, with tracks: [CatalogTrack]) async throws
      -> PlaylistSummary
    { throw CatalogError.unsupported("making playlists") }
    func renamePlaylist(id: String, to name: String) async throws {}
    func deletePlaylist(id: String) async throws {}
    func addTracks(_ tracks: [CatalogTrack], toPlaylist id: String) async throws {}
    func removeTrack(at position: Int, fromPlaylist id: String) async throws {}
    func moveTrack(inPlaylist id: String, from: Int, to: Int) async throws {}
  }

  func testAnOlderReadOfTheServersListsAnsweringLateIsDropped() {
    let session = makeSession()
    let server = SlowFirstServer()
    session.catalog = server
    session.refreshServerLists()  // answers late, with the lists from before the edit
    // The second read is asked once the first has reached the server, as after an edit: on
    // a busy machine the two background reads could otherwise reach it in either order.
    let deadline = Date().addingTimeInterval(5)
    while server.started < 1, Date() < deadline { usleep(1_000) }
    session.refreshServerLists()  // after the edit: answers at once
    let titles = { () -> [String]? in
      guard case .loaded(let playlists, _)? = session.browsing.serverLists else { return nil }
      return playlists.map(\.title)
    }
    drain(session) { titles() != nil }
    XCTAssertEqual(titles(), ["After the edit"])
    usleep(400_000)
    session.drainInbox()
    XCTAssertEqual(titles(), ["After the edit"], "the late answer changed nothing")
  }

  func testLibraryListsReadTheirTracksFromTheFile() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-browse-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    let store = try LibraryStore(fileURL: folder.appendingPathComponent("library.sqlite"))
    try store.likeTrack(Shelf.song)
    let playlist = try store.createPlaylist(named: "Night walk")
    try store.addTracks([Shelf.song, Shelf.song], toPlaylist: playlist.id, at: nil)
    let session = makeSession(storage: store)

    var liked: [CatalogTrack]?
    session.readTracks({ try LibraryList.liked.tracks(from: $0) }) { liked = $0 }
    var detail: CatalogDetail?
    session.readDetail("Night walk", { try LibraryList.playlist(playlist).detail(from: $0) }) {
      detail = $0
    }
    session.refreshLibrary()
    drain(session) { liked != nil && detail != nil && session.browsing.library != nil }
    XCTAssertEqual(liked?.map(\.title), ["Harbor Song"])
    XCTAssertEqual(detail?.tracks.count, 2)
    XCTAssertEqual(detail?.title, "Night walk")
    XCTAssertEqual(session.browsing.library?.playlists.map(\.name), ["Night walk"])
  }
}
