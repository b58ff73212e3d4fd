import Foundation
import RefrainCore
import XCTest

@testable import RefrainCatalog

/// Searching the demo catalog: languages, accents, ranking and paging.
final class DemoSearchTests: XCTestCase {
  private var provider: DemoCatalogProvider!

  override func setUpWithError() throws {
    provider = try DemoCatalogProvider(resources: DemoResources.folder)
  }

  private func ids(_ query: String, _ kind: SearchKind = .track) async throws -> [String] {
    try await provider.search(query, kind: kind, offset: 0, limit: 50).items.map { item in
      switch item {
      case .track(let track): return track.id
      case .album(let album): return album.id
      case .artist(let artist): return artist.id
      case .playlist(let playlist): return playlist.id
      case .genre(let genre): return genre.id
      case .lyric(let match): return match.track.id
      }
    }
  }

  // MARK: - English

  func testFindsTracksByTitleIgnoringCase() async throws {
    let found = try await ids("LIGHTHOUSE")
    XCTAssertEqual(found, ["lighthouse-radio"])
  }

  func testFindsTracksByArtistAndAlbum() async throws {
    let byArtist = try await ids("harbor lights")
    XCTAssertEqual(byArtist, ["refrain-in-the-static", "lighthouse-radio"])
    let byAlbum = try await ids("tidewater")
    XCTAssertEqual(byAlbum, ["refrain-in-the-static", "lighthouse-radio"])
  }

  func testIgnoresAccentsAndPunctuation() async throws {
    let track = try await ids("creme brulee")
    XCTAssertEqual(track, ["creme-brulee-morning"])
    let artist = try await ids("noemie", .artist)
    XCTAssertEqual(artist, ["noemie-cafe"])
    let album = try await ids("Cafe-Resonance", .album)
    XCTAssertEqual(album, ["cafe-resonance"])
  }

  // MARK: - Korean, Japanese and Chinese

  func testFindsKoreanTitlesArtistsAlbumsAndPlaylists() async throws {
    let snow = try await ids("첫눈")
    XCTAssertEqual(snow, ["first-snow-day"])
    let umbrella = try await ids("우산")
    XCTAssertEqual(umbrella, ["one-umbrella"])
    let artist = try await ids("달빛", .artist)
    XCTAssertEqual(artist, ["dalbit-post"])
    let album = try await ids("편지", .album)
    XCTAssertEqual(album, ["letters-at-night"])
    let playlist = try await ids("서울", .playlist)
    XCTAssertEqual(playlist, ["seoul-to-tokyo"])
    let byAlbum = try await ids("밤의 편지")
    XCTAssertEqual(byAlbum, ["first-snow-day", "one-umbrella"])
  }

  func testDoesNotMatchPartOfAHangulSyllable() async throws {
    let found = try await ids("우사")
    XCTAssertEqual(found, [])
  }

  func testFindsJapaneseAndChinese() async throws {
    let tram = try await ids("トラム")
    XCTAssertEqual(tram, ["night-tram"])
    let moon = try await ids("月")
    XCTAssertEqual(moon, ["soda-water-moon"])
    let artist = try await ids("自転車", .artist)
    XCTAssertEqual(artist, ["aoi-jitensha"])
    let town = try await ids("小城")
    XCTAssertEqual(town, ["small-town-lights"])
  }

  func testKanaVoicingMarksMatter() async throws {
    let found = try await ids("ソータ")
    XCTAssertEqual(found, [], "ソータ must not match ソーダ")
  }

  func testFindsPlaylistsInEitherLanguage() async throws {
    let english = try await ids("tokyo", .playlist)
    XCTAssertEqual(english, ["seoul-to-tokyo"])
    let owner = try await ids("refrain", .playlist)
    XCTAssertEqual(owner, ["start-here", "late-night-terminal", "seoul-to-tokyo"])
  }

  // MARK: - Ranking and paging

  func testExactTitlesComeFirstThenPrefixesThenTheRest() async throws {
    let folder = try DemoTestCatalog.write(
      tracks: [
        ("brainstorm", "Brainstorm", "someone"), ("summer-rain", "Summer Rain", "someone"),
        ("rain-song", "Rain Song", "someone"), ("rain", "Rain", "someone"),
        ("other", "Other", "rainmaker"),
      ])
    let catalog = try DemoCatalogProvider(resources: folder)
    let page = try await catalog.search("rain", kind: .track, offset: 0, limit: 10)
    XCTAssertEqual(
      page.items.map(\.title), ["Rain", "Rain Song", "Brainstorm", "Summer Rain", "Other"])
  }

  func testPagesThroughResults() async throws {
    let all = try await provider.search("e", kind: .track, offset: 0, limit: 100)
    let total = try XCTUnwrap(all.total)
    XCTAssertGreaterThan(total, 3)
    let first = try await provider.search("e", kind: .track, offset: 0, limit: 2)
    let rest = try await provider.search("e", kind: .track, offset: 2, limit: 100)
    XCTAssertEqual(first.items.count, 2)
    XCTAssertEqual(first.total, total)
    XCTAssertTrue(first.hasMore)
    XCTAssertFalse(rest.hasMore)
    XCTAssertEqual(rest.offset, 2)
    XCTAssertEqual(first.items + rest.items, all.items)
    let past = try await provider.search("e", kind: .track, offset: 99, limit: 10)
    XCTAssertEqual(past.items, [])
    let negative = try await provider.search("e", kind: .track, offset: -5, limit: -1)
    XCTAssertEqual(negative.items, [])
    XCTAssertEqual(negative.offset, 0)
  }

  func testBlankQueriesFindNothing() async throws {
    for query in ["", "   ", " · - "] {
      let page = try await provider.search(query, kind: .track, offset: 0, limit: 10)
      XCTAssertEqual(page.items, [], "\(query)")
      XCTAssertEqual(page.total, 0)
    }
  }

  func testEachKindReturnsOnlyItsItems() async throws {
    let lyrics = try await provider.search("a", kind: .lyric, offset: 0, limit: 50)
    XCTAssertEqual(lyrics.items, [], "the demo's lyrics are not searched")
    for kind in SearchKind.allCases where kind != .lyric {
      let page = try await provider.search("a", kind: kind, offset: 0, limit: 50)
      XCTAssertFalse(page.items.isEmpty, kind.rawValue)
      XCTAssertTrue(page.items.allSatisfy { $0.kind == kind.rawValue }, kind.rawValue)
    }
  }
}
