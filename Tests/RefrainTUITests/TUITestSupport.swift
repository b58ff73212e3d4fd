import Foundation
import RefrainArt
import RefrainCatalog
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainSession
@testable import RefrainTUI

// MARK: - A small in-memory catalog

/// A `CatalogProvider` over a handful of tracks in Korean, Japanese and English.
///
/// Search matches titles, artists and album names case-insensitively; everything answers
/// at once. `homeError` makes Home fail, to test how the error is shown.
struct FakeCatalog: CatalogProvider {
  var name = "fake"
  var homeError: CatalogError?

  static let letters = AlbumSummary(
    id: "letters", provider: "fake", title: "밤의 편지", artist: "달빛 우체국", year: 2025)
  static let tidewater = AlbumSummary(
    id: "tidewater", provider: "fake", title: "Tidewater Signals", artist: "Harbor Lights",
    year: 2024)
  static let blueHour = AlbumSummary(
    id: "blue-hour", provider: "fake", title: "ブルーアワー", artist: "青い自転車", year: 2023)

  static let umbrella = track("umbrella", "우산 하나", "달빛 우체국", letters, 32.7)
  static let firstSnow = track("first-snow", "첫눈 오는 날", "달빛 우체국", letters, 30)
  static let nightTram = track("night-tram", "夜のトラム", "青い自転車", blueHour, 30)
  static let lighthouse = track("lighthouse", "Lighthouse Radio", "Harbor Lights", tidewater, 27.5)
  static let lostTape = CatalogTrack(
    id: "lost-tape", provider: "fake", title: "Lost Tape", artist: "Harbor Lights",
    album: "Tidewater Signals", albumID: "tidewater", duration: 61,
    unplayableReason: "no preview")

  static let tracks = [umbrella, firstSnow, nightTram, lighthouse, lostTape]
  static let albums = [letters, tidewater, blueHour]
  static let artists = [
    ArtistSummary(id: "dalbit", provider: "fake", name: "달빛 우체국"),
    ArtistSummary(id: "harbor", provider: "fake", name: "Harbor Lights"),
  ]

  private static func track(
    _ id: String, _ title: String, _ artist: String, _ album: AlbumSummary, _ duration: Double
  ) -> CatalogTrack {
    CatalogTrack(
      id: id, provider: "fake", title: title, artist: artist, album: album.title,
      albumID: album.id, duration: duration,
      streamURL: URL(fileURLWithPath: "/music/\(id).mp3"))
  }

  func home() async throws -> [HomeSection] {
    if let homeError { throw homeError }
    return [
      HomeSection(
        id: "new", title: "New releases", kind: .newReleases,
        items: Self.albums.map { .album($0) }),
      HomeSection(
        id: "top", title: "Top tracks", kind: .charts, items: Self.tracks.map { .track($0) }),
    ]
  }

  func search(_ query: String, kind: SearchKind, offset: Int, limit: Int) async throws -> Page<
    CatalogItem
  > {
    func matches(_ texts: String?...) -> Bool {
      texts.contains { $0?.localizedCaseInsensitiveContains(query) == true }
    }
    let items: [CatalogItem]
    switch kind {
    case .track:
      items = Self.tracks.filter { matches($0.title, $0.artist, $0.album) }.map { .track($0) }
    case .album:
      items = Self.albums.filter { matches($0.title, $0.artist) }.map { .album($0) }
    case .artist:
      items = Self.artists.filter { matches($0.name) }.map { .artist($0) }
    case .playlist:
      items = []
    case .lyric:
      // The first track sings "비가 내리는 밤" at 2 s.
      items =
        "비가 내리는 밤".contains(query)
        ? [.lyric(LyricMatch(track: Self.tracks[0], lineIndex: 1, ms: 2_000, text: "비가 내리는 밤"))]
        : []
    }
    return Page(
      items: Array(items.dropFirst(offset).prefix(limit)), offset: offset, total: items.count)
  }

  func album(id: String) async throws -> AlbumDetail {
    guard let album = Self.albums.first(where: { $0.id == id }) else {
      throw CatalogError.notFound("album \(id)")
    }
    return AlbumDetail(album: album, tracks: Self.tracks.filter { $0.albumID == id })
  }

  func artist(id: String) async throws -> ArtistDetail {
    guard let artist = Self.artists.first(where: { $0.id == id }) else {
      throw CatalogError.notFound("artist \(id)")
    }
    return ArtistDetail(
      artist: artist, topTracks: Self.tracks.filter { $0.artist == artist.name },
      albums: Self.albums.filter { $0.artist == artist.name })
  }

  func playlist(id: String, offset: Int, limit: Int) async throws -> PlaylistDetail {
    throw CatalogError.notFound("playlist \(id)")
  }
}

// MARK: - Lyrics

/// Lyrics documents for the tests.
enum TestLyrics {
  /// 우산 하나's lyrics: six lines, one of them an instrumental break (empty text).
  static let umbrella = LRCParser.parse(
    """
    [ti:우산 하나]
    [00:05.45]비가 내리는 버스 정류장
    [00:09.55]우산 하나에 두 사람
    [00:12.27]젖은 어깨도 괜찮아
    [00:15.00]네 노래가 들리니까
    [00:17.73]
    [00:23.18]조금 더 천천히 걸어요
    """)

  /// Two word-timed lines: 비가 at 0:02, 내리는 at 0:03, 밤 at 0:04; then 우산 at 0:06.
  static let wordTimed = LRCParser.parse(
    """
    [00:02.00]<00:02.00>비가 <00:03.00>내리는 <00:04.00>밤
    [00:06.00]<00:06.00>우산
    """)

  /// Twenty numbered lines, one every two seconds from 0:02, to scroll through.
  static let numbered = LRCParser.parse(
    (1...20).map { String(format: "[00:%02d.00]Line %d", $0 * 2, $0) }.joined(separator: "\n"))
}

// MARK: - The app under test

/// Log lines written from any thread.
final class LogBook: @unchecked Sendable {
  private let lock = NSLock()
  private var written: [String] = []

  func append(_ line: String) { lock.withLock { written.append(line) } }
  var lines: [String] { lock.withLock { written } }
}

/// A controllable clock for the app's status messages and lyrics-view idle timer.
final class TestClock {
  var now: Double = 1000
}

/// An ``App`` over a fake player, a fake catalog and (optionally) a library: a real file, or
/// a fake.
final class TUIHarness {
  let player = FakePlayer()
  let presenter: PlaybackPresenter
  let app: App
  let clock = TestClock()
  /// The library file the app uses, to check what it stored; `nil` for none or a fake.
  let library: LibraryStore?
  /// The terminal size the main loop renders at after every key and every wake-up.
  var size = (width: 60, height: 16)
  private let logBook = LogBook()

  /// Creates the app; Home starts loading at once (call ``waitForHome()``).
  init(
    catalog: FakeCatalog = FakeCatalog(), library: (any LibraryStorage)? = nil,
    lyrics: [String: LyricsResult] = [:], notice: String? = nil,
    lyricHighlight: LyricHighlight = .marker, colors: Bool = true,
    covers: (any CoverProvider)? = nil
  ) {
    self.library = library as? LibraryStore
    let found = lyrics
    let clock = clock
    let session = Session(
      player: player, library: library as? any LibraryPort, storage: library,
      lyricsLoader: { track in found[track.id] ?? .notFound(reasons: ["no lyrics in the test"]) })
    session.catalog = catalog
    presenter = session.playback
    app = App(
      AppDependencies(
        session: session, provider: catalog, startupNotice: notice,
        lyricHighlight: lyricHighlight, colors: colors, now: { clock.now }, covers: covers,
        log: { [logBook] line in logBook.append(line) }))
  }

  /// What the app wrote to the log.
  var logged: [String] { logBook.lines }

  /// 우산 하나 playing with twenty numbered lines, one every 2 s from 0:02.
  static func playingNumbered(
    lyricHighlight: LyricHighlight = .marker, colors: Bool = true
  ) -> TUIHarness {
    let harness = TUIHarness(
      lyrics: ["fake:umbrella": .found(TestLyrics.numbered, source: .sidecar)],
      lyricHighlight: lyricHighlight, colors: colors)
    harness.waitForHome()
    harness.playFromHome("우산 하나", duration: 60)
    return harness
  }

  /// A library on a fresh SQLite file in a temporary folder, removed after the test.
  static func temporaryLibrary(_ test: XCTestCase) throws -> LibraryStore {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-tui-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    return try LibraryStore(fileURL: folder.appendingPathComponent("library.sqlite"))
  }

  // MARK: Background work

  /// Runs finished background work until `condition` holds, polling the inbox for ~2 s.
  func waitFor(
    _ what: String, timeout: Double = 2, file: StaticString = #filePath, line: UInt = #line,
    _ condition: () -> Bool
  ) {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      app.drainInbox()
      redraw()
      if condition() { return }
      let left = deadline.timeIntervalSinceNow
      if left <= 0 {
        XCTFail("timed out after \(timeout) s waiting for \(what)", file: file, line: line)
        return
      }
      var descriptors = [app.covers.inbox.fileDescriptor, app.session.wakeFileDescriptor].map {
        pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
      }
      _ = poll(&descriptors, nfds_t(descriptors.count), Int32(min(left, 0.1) * 1000) + 1)
    }
  }

  /// Waits until Home has loaded its sections (or its error).
  func waitForHome(file: StaticString = #filePath, line: UInt = #line) {
    waitFor("Home to load", file: file, line: line) {
      !app.session.browsing.homeState.hasPrefix("Loading")
    }
  }

  /// Waits until every library call the app asked for has answered and been applied.
  func waitForLibrary(file: StaticString = #filePath, line: UInt = #line) {
    waitFor("the library calls", file: file, line: line) { app.libraryCallsPending == 0 }
  }

  /// Waits until every kind of search answered.
  func waitForSearch(file: StaticString = #filePath, line: UInt = #line) {
    waitFor("the search results", file: file, line: line) {
      app.session.browsing.search.pending == 0
    }
  }

  // MARK: Keys

  /// Presses keys by name (`j`, `enter`, `ctrl-u`, `esc`), one after the other.
  ///
  /// Like the main loop, the app redraws after every key: drawing is what keeps a list's
  /// cursor on a selectable row and inside the screen.
  func press(_ names: String...) {
    for name in names {
      guard let key = Key(name: name) else { return XCTFail("no key named \(name)") }
      app.handle(key: key)
      redraw()
    }
  }

  /// Types `text` one character at a time, as the terminal delivers it.
  func type(_ text: String) {
    for character in text {
      app.handle(key: .character(character))
      redraw()
    }
  }

  /// Renders at ``size``, as the main loop does after each wake-up.
  @discardableResult
  func redraw() -> ScreenGrid {
    app.draw(width: size.width, height: size.height)
  }

  /// The text of the selected row of the focused list.
  var selectedRow: String? {
    let rows = app.currentRows()
    let index = app.cursor.selection
    return rows.indices.contains(index) ? rows[index].text : nil
  }

  /// Moves down with `j` until the selected row contains `text`.
  func select(
    _ text: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    for _ in 0..<40 {
      if selectedRow?.contains(text) == true { return }
      press("j")
    }
    XCTFail(
      "no row containing \(text); the rows: \(app.currentRows().map(\.text))", file: file,
      line: line)
  }

  // MARK: Playback

  /// Plays the Home track titled `title` with Enter, and lets the fake player start it.
  ///
  /// Waits until the lyrics loader answered, so the screen is settled.
  func playFromHome(
    _ title: String, duration: Double, file: StaticString = #filePath, line: UInt = #line
  ) {
    press("1", "g")
    select(title, file: file, line: line)
    press("enter")
    waitFor("the queue to start \(title)", file: file, line: line) {
      presenter.queue.current?.title == title
    }
    guard let track = presenter.queue.current else { return }
    player.setState(.playing)
    app.handlePlayerEvents([.started(track, duration: duration)])
    waitFor("the lyrics loader", file: file, line: line) {
      app.lyricsNotice != "looking for lyrics…"
    }
  }

  // MARK: Screens

  /// The whole screen as text, at ``size`` unless another size is given.
  func screen(_ width: Int? = nil, _ height: Int? = nil) -> String {
    app.draw(width: width ?? size.width, height: height ?? size.height).text
  }

  /// One row of the screen at ``size``.
  func row(_ y: Int) -> String {
    redraw().row(y)
  }
}

/// A list row as the panes draw it: `left`, then `right` ending one column before the edge.
///
/// Widths are display widths, so Korean and Japanese rows line up like Latin ones.
func aligned(_ left: String, _ right: String, width: Int) -> String {
  let gap = width - 1 - DisplayWidth.of(right) - DisplayWidth.of(left)
  return left + String(repeating: " ", count: max(1, gap)) + right
}

/// Asserts that two multi-line screens are equal, printing both in full when they differ.
///
/// With `REFRAIN_TUI_RECORD=DIR` in the environment, a screen that differs is also written
/// to `DIR/<file>-<line>.txt`, to be reviewed by eye before it replaces the expectation.
func assertScreen(
  _ actual: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line
) {
  guard actual != expected else { return }
  if let folder = ProcessInfo.processInfo.environment["REFRAIN_TUI_RECORD"] {
    let name = URL(fileURLWithPath: "\(file)").deletingPathExtension().lastPathComponent
    try? Data((actual + "\n").utf8).write(
      to: URL(fileURLWithPath: folder).appendingPathComponent("\(name)-\(line).txt"))
  }
  let actualLines = actual.components(separatedBy: "\n")
  let expectedLines = expected.components(separatedBy: "\n")
  var differences: [String] = []
  for index in 0..<max(actualLines.count, expectedLines.count) {
    let got = actualLines.indices.contains(index) ? actualLines[index] : "<missing>"
    let want = expectedLines.indices.contains(index) ? expectedLines[index] : "<missing>"
    if got != want { differences.append("row \(index):\n  got  |\(got)|\n  want |\(want)|") }
  }
  XCTFail(
    "the screen differs:\n\(differences.joined(separator: "\n"))\n--- whole screen ---\n\(actual)",
    file: file, line: line)
}
