import Foundation
import RefrainCore
import RefrainTags
import XCTest

@testable import RefrainCatalog

/// Searching and browsing the local index: prefixes, substrings inside Korean and Japanese
/// words, ranking, hostile input, paging, and artist → album → track browsing.
final class LocalLibrarySearchTests: XCTestCase {
  private var store: LibraryStore!
  private var provider: LocalCatalogProvider!

  private static let library: [(String, LocalTrackInfo)] = [
    (
      "/m/1.mp3",
      LocalTrackInfo(title: "Love", artist: "Band A", album: "Hearts", trackNumber: 2, year: 2001)
    ),
    ("/m/2.mp3", LocalTrackInfo(title: "Lovely Day", artist: "Band B", album: "Days")),
    ("/m/3.mp3", LocalTrackInfo(title: "My Love Song", artist: "Band C", album: "Songs")),
    ("/m/4.mp3", LocalTrackInfo(title: "Glove Box", artist: "Band D", album: "Boxes")),
    ("/m/5.mp3", LocalTrackInfo(title: "사랑해요", artist: "아이유", album: "꽃갈피", trackNumber: 1)),
    ("/m/6.mp3", LocalTrackInfo(title: "너를 사랑해", artist: "잔나비", album: "전설")),
    ("/m/7.mp3", LocalTrackInfo(title: "첫사랑", artist: "아이유", album: "꽃갈피", trackNumber: 3)),
    ("/m/8.mp3", LocalTrackInfo(title: "夜空の星", artist: "宇多田ヒカル", album: "初恋")),
    ("/m/9.mp3", LocalTrackInfo(title: "ありがとう", artist: "宇多田ヒカル", album: "初恋")),
    ("/m/10.mp3", LocalTrackInfo(title: "Café del Mar", artist: "Energy 52")),
    (
      "/m/11.mp3",
      LocalTrackInfo(title: "Love", artist: "Band E", album: "Hearts", trackNumber: 1, year: 2003)
    ),
    (
      "/m/12.mp3",
      LocalTrackInfo(
        title: "Rock \"n\" Roll (Live)", artist: "Band A", album: "Hearts", trackNumber: 3)
    ),
    ("/m/13.mp3", LocalTrackInfo(title: "NEAR the sea", artist: "Band F")),
    ("/m/14.mp3", LocalTrackInfo(title: "Night", artist: "Lovers", album: "Dark")),
    ("/m/15.mp3", LocalTrackInfo(title: "100% Pure", artist: "Band G")),
    ("/m/untagged.mp3", LocalTrackInfo()),
  ]

  override func setUpWithError() throws {
    store = try LibraryTestSupport.makeStore(self)
    provider = LocalCatalogProvider(store: store)
    try LocalLibraryScanner(store: store, tagReader: ID3TagReader())
      .importTracks(Self.library.map { (path: $0.0, info: $0.1) })
  }

  private func titles(_ query: String, kind: SearchKind = .track, limit: Int = 50) throws
    -> [String]
  {
    try provider.searchNow(query, kind: kind, limit: limit).items.map(\.title)
  }

  // MARK: - Prefixes and ranking

  func testExactTitlesComeFirstThenTitlePrefixesThenOtherWordMatchesThenSubstrings() throws {
    let found = try titles("lov")
    XCTAssertEqual(Array(found.prefix(3)), ["Love", "Love", "Lovely Day"])
    XCTAssertEqual(Set(found.dropFirst(3).prefix(2)), ["My Love Song", "Night"])
    XCTAssertEqual(found.last, "Glove Box", "a substring match ranks after every word match")
  }

  func testAnExactTitleBeatsAPrefix() throws {
    XCTAssertEqual(try titles("love").prefix(2), ["Love", "Love"])
  }

  func testSeveralWordsMustAllMatch() throws {
    XCTAssertEqual(try titles("love song"), ["My Love Song"])
    XCTAssertEqual(try titles("band hearts lov"), ["Love", "Love"])
  }

  func testDiacriticsAreIgnored() throws {
    XCTAssertEqual(try titles("cafe"), ["Café del Mar"])
    XCTAssertEqual(try titles("CAFÉ DEL"), ["Café del Mar"])
  }

  func testUntaggedFilesAreFoundByTheirFileName() throws {
    XCTAssertEqual(try titles("untag"), ["untagged"])
  }

  // MARK: - Korean and Japanese

  func testKoreanPrefixFindsWordsThatStartWithIt() throws {
    let found = try titles("사랑")
    XCTAssertEqual(found.first, "사랑해요", "a title that starts with the query ranks first")
    XCTAssertTrue(found.contains("너를 사랑해"))
  }

  func testKoreanSubstringOfThreeSyllablesUsesTrigrams() throws {
    XCTAssertEqual(try titles("랑해요"), ["사랑해요"])
  }

  func testShortKoreanSubstringUsesCharacterPieces() throws {
    XCTAssertEqual(Set(try titles("랑해")), ["사랑해요", "너를 사랑해"])
    XCTAssertTrue(try titles("사랑").contains("첫사랑"), "inside a word")
  }

  func testShortPiecesInTitlesComeBeforePiecesInAlbums() throws {
    // 꽃갈피 is an album of 사랑해요 and 첫사랑; 갈 appears in no title.
    XCTAssertEqual(Set(try titles("갈")), ["사랑해요", "첫사랑"])
    let found = try titles("랑")
    XCTAssertEqual(Set(found.prefix(3)), ["사랑해요", "너를 사랑해", "첫사랑"])
  }

  func testSingleJapaneseCharacter() throws {
    XCTAssertEqual(try titles("夜"), ["夜空の星"])
    XCTAssertEqual(try titles("星"), ["夜空の星"])
  }

  func testJapaneseSubstring() throws {
    XCTAssertEqual(try titles("りがと"), ["ありがとう"])
    XCTAssertEqual(try titles("空の星"), ["夜空の星"])
  }

  func testArtistNamesAreSearchedToo() throws {
    XCTAssertEqual(Set(try titles("아이유")), ["사랑해요", "첫사랑"])
    XCTAssertEqual(try titles("宇多田", limit: 50).count, 2)
  }

  // MARK: - Hostile input

  func testHostileQueriesNeverThrow() throws {
    let hostile = [
      "\"", "\"\"", "'", "*", "**", "(", ")", "()", "NEAR", "NEAR(a b)", "AND", "OR", "NOT",
      "a AND", "^", "-", "+", ":", "title:love", "{title}: love", "love*", "\"love", "lo\"ve",
      "%", "_", "\\", "'; DROP TABLE local_tracks; --", "\u{1B}[31m", "\u{0}", "사\"랑",
      String(repeating: "(", count: 500), String(repeating: "lo ", count: 200),
    ]
    for query in hostile {
      for kind in SearchKind.allCases {
        XCTAssertNoThrow(try provider.searchNow(query, kind: kind), "\(query) \(kind)")
      }
    }
    XCTAssertEqual(try provider.trackCount(), Self.library.count)
  }

  func testEveryPatternBuiltFromHostileTextPassesGRDBValidation() throws {
    // Searches bind the patterns without re-validating them (for speed); this proves the
    // construction always yields valid FTS5 syntax for every table and column filter.
    let inputs = [
      "\"", "\"\"", "'", "*", "(", ")", "NEAR", "NEAR(a b)", "AND", "OR", "NOT", "^", "-", "+",
      ":", "title:love", "{title}: love", "love*", "lo\"ve", "%", "\\", "사\"랑", "랑 \"x\"",
      "夜 *", "a AND (b OR c)", "\u{1B}[31m", "\u{0}x", "é", "ありがとう NEAR/2 x",
    ]
    let tables = [LocalSearchTable.tracks, .albums, .artists]
    try store.read { db in
      for input in inputs {
        guard let query = LocalSearchQuery(input) else { continue }
        for table in tables {
          let words = [
            query.prefixPattern, query.prefixPattern(inColumns: table.columns),
            query.prefixPattern(inColumns: [table.columns[0]]),
            query.gramsPattern(titleColumn: table.columns[0]), query.gramsPattern(titleColumn: nil),
          ]
          for pattern in words.compactMap({ $0 }) {
            XCTAssertNoThrow(
              try db.makeFTS5Pattern(rawPattern: pattern, forTable: table.words),
              "\(input): \(pattern)")
          }
          let grams = [
            query.substringPattern, query.substringPattern(inColumns: [table.columns[0]]),
          ]
          for pattern in grams.compactMap({ $0 }) {
            XCTAssertNoThrow(
              try db.makeFTS5Pattern(rawPattern: pattern, forTable: table.trigrams),
              "\(input): \(pattern)")
          }
        }
      }
    }
  }

  func testOperatorsAndQuotesAreSearchedAsText() throws {
    XCTAssertEqual(try titles("NEAR"), ["NEAR the sea"])
    XCTAssertEqual(try titles("(Live)"), ["Rock \"n\" Roll (Live)"])
    XCTAssertEqual(try titles("\"n\" Roll"), ["Rock \"n\" Roll (Live)"])
    XCTAssertEqual(try titles("%"), ["100% Pure"], "a LIKE wildcard matches only itself")
    XCTAssertEqual(try titles("_"), [])
    XCTAssertEqual(try titles("*"), [])
  }

  func testBlankQueriesFindNothing() throws {
    XCTAssertEqual(try titles(""), [])
    XCTAssertEqual(try titles("   \t"), [])
  }

  // MARK: - Paging

  func testPagesDoNotOverlapAndSayWhenMoreFollow() throws {
    let all = try provider.searchNow("band", kind: .track, limit: 100)
    XCTAssertEqual(all.total, all.items.count)
    XCTAssertFalse(all.hasMore)
    var seen: [CatalogItem] = []
    var offset = 0
    while true {
      let page = try provider.searchNow("band", kind: .track, offset: offset, limit: 3)
      seen += page.items
      offset += page.items.count
      if !page.hasMore { break }
      XCTAssertNil(page.total)
    }
    XCTAssertEqual(seen, all.items)
  }

  // MARK: - Albums, artists and playlists

  func testAlbumAndArtistSearch() throws {
    XCTAssertEqual(try titles("heart", kind: .album), ["Hearts", "Hearts"])
    XCTAssertEqual(try titles("꽃", kind: .album), ["꽃갈피"])
    XCTAssertEqual(try titles("band a", kind: .artist), ["Band A"])
    XCTAssertEqual(try titles("lov", kind: .artist), ["Lovers"])
    XCTAssertEqual(try titles("ヒカル", kind: .artist), ["宇多田ヒカル"])
  }

  func testPlaylistSearchFindsTheUsersPlaylists() throws {
    _ = try store.createPlaylist(named: "Rainy 100%")
    _ = try store.createPlaylist(named: "Rain")
    _ = try store.createPlaylist(named: "Drain")
    XCTAssertEqual(try titles("rain", kind: .playlist), ["Rain", "Rainy 100%", "Drain"])
    XCTAssertEqual(try titles("%", kind: .playlist), ["Rainy 100%"])
  }

  // MARK: - Browsing

  func testHomeHasArtistsAlbumsAndRecentlyAdded() async throws {
    let sections = try await provider.home()
    XCTAssertEqual(sections.map(\.id), ["local-artists", "local-albums", "local-recent"])
    XCTAssertEqual(sections[2].items.first?.title, "untagged", "the newest first")
  }

  func testArtistToAlbumToTracks() async throws {
    let artist = try XCTUnwrap(
      try provider.searchNow("아이유", kind: .artist).items.first.flatMap { item -> ArtistSummary? in
        if case .artist(let artist) = item { return artist }
        return nil
      })
    let detail = try await provider.artist(id: artist.id)
    XCTAssertEqual(detail.albums.map(\.title), ["꽃갈피"])
    XCTAssertEqual(detail.artist.albumCount, 1)
    let album = try await provider.album(id: try XCTUnwrap(detail.albums.first).id)
    XCTAssertEqual(album.tracks.map(\.title), ["사랑해요", "첫사랑"], "by track number")
    XCTAssertEqual(album.album.trackCount, 2)
    let track = try XCTUnwrap(album.tracks.first)
    XCTAssertEqual(track.provider, "local")
    XCTAssertEqual(track.id, "/m/5.mp3")
    XCTAssertEqual(track.streamURL, URL(fileURLWithPath: "/m/5.mp3"))
    XCTAssertEqual(track.albumID, album.album.id)
  }

  func testAlbumsGroupByAlbumArtistAndKeepTheNewestYear() async throws {
    let hearts = try provider.searchNow("hearts", kind: .album).items
    XCTAssertEqual(hearts.count, 2, "Band A's and Band E's albums are different albums")
    guard
      case .album(let bandA) = try XCTUnwrap(
        hearts.first(where: {
          if case .album(let album) = $0 { return album.artist == "Band A" }
          return false
        }))
    else { return XCTFail("not an album") }
    XCTAssertEqual(bandA.year, 2001)
    let detail = try await provider.album(id: bandA.id)
    XCTAssertEqual(detail.tracks.map(\.title), ["Love", "Rock \"n\" Roll (Live)"])
  }

  func testUnknownIDsAreNotFound() async {
    for id in ["999", "abc", ""] {
      do {
        _ = try await provider.album(id: id)
        XCTFail("album \(id) should not exist")
      } catch {
        XCTAssertEqual(error as? CatalogError, .notFound("album \(id)"))
      }
    }
  }

  func testPlaylistDetailComesFromTheLibrary() async throws {
    let playlist = try store.createPlaylist(named: "Mine")
    try store.addTracks(
      [LibraryTestSupport.track("x", provider: "deezer")], toPlaylist: playlist.id)
    let detail = try await provider.playlist(id: String(playlist.id), offset: 0, limit: 10)
    XCTAssertEqual(detail.playlist.title, "Mine")
    XCTAssertEqual(detail.tracks.items.map(\.provider), ["deezer"])
    XCTAssertEqual(detail.tracks.total, 1)
  }

  func testAStreamURLForAMissingFileExplainsWhatToDo() async throws {
    let track = CatalogTrack(
      id: "/nonexistent/a.mp3", provider: "local", title: "a",
      streamURL: URL(fileURLWithPath: "/nonexistent/a.mp3"))
    do {
      _ = try await provider.streamURL(for: track)
      XCTFail("the file does not exist")
    } catch CatalogError.unplayable(let reason) {
      XCTAssertTrue(reason.contains("refrain scan"))
    }
  }

  func testListsForTheLibraryPane() throws {
    let artists = try provider.artists(offset: 0, limit: 3)
    XCTAssertEqual(artists.items.count, 3)
    XCTAssertTrue(artists.hasMore)
    let albums = try provider.albums(offset: 0, limit: 100)
    XCTAssertEqual(albums.total, albums.items.count)
  }
}

/// An album of several discs plays disc by disc.
final class LocalDiscOrderTests: XCTestCase {
  func testAnAlbumOfTwoDiscsListsDiscOneThenDiscTwo() async throws {
    let store = try LibraryTestSupport.makeStore(self)
    let provider = LocalCatalogProvider(store: store)
    func info(_ title: String, disc: Int?, track: Int) -> LocalTrackInfo {
      LocalTrackInfo(
        title: title, artist: "Harbor Lights", album: "Two Tides", trackNumber: track,
        discNumber: disc)
    }
    try LocalLibraryScanner(store: store, tagReader: ID3TagReader()).importTracks([
      (path: "/m/d2t1.flac", info: info("Second One", disc: 2, track: 1)),
      (path: "/m/d1t2.flac", info: info("First Two", disc: 1, track: 2)),
      (path: "/m/d2t2.flac", info: info("Second Two", disc: 2, track: 2)),
      (path: "/m/d1t1.flac", info: info("First One", disc: nil, track: 1)),
    ])
    let album = try XCTUnwrap(
      provider.searchNow("Two Tides", kind: .album, limit: 5).items.compactMap {
        if case .album(let summary) = $0 { summary } else { nil }
      }.first)
    let detail = try await provider.album(id: album.id)
    XCTAssertEqual(
      detail.tracks.map(\.title), ["First One", "First Two", "Second One", "Second Two"])
  }
}
