import Foundation
import RefrainCore
import XCTest

@testable import RefrainCatalog

/// The bundled demo catalog in `Resources/demo`: its files, lyrics and details.
final class DemoCatalogTests: XCTestCase {
  private var provider: DemoCatalogProvider!
  private var json: DemoCatalogJSON!

  override func setUpWithError() throws {
    provider = try DemoCatalogProvider(resources: DemoResources.folder)
    json = try DemoCatalogJSON.load()
  }

  // MARK: - Loading

  func testLoadsFromTheRepositoryResources() {
    XCTAssertEqual(provider.name, "demo")
    XCTAssertEqual(
      provider.catalogFile.path,
      DemoResources.folder.appendingPathComponent("demo/catalog.json").path)
  }

  func testCatalogHasTheAdvertisedSize() {
    XCTAssertTrue((6...10).contains(json.ids("tracks").count), "\(json.ids("tracks").count) tracks")
    XCTAssertTrue((3...4).contains(json.ids("albums").count))
    XCTAssertTrue((3...4).contains(json.ids("artists").count))
    XCTAssertTrue((2...3).contains(json.ids("playlists").count))
    XCTAssertGreaterThanOrEqual(json.ids("genres").count, 3)
  }

  // MARK: - Home

  func testHomeListsNewReleasesPlaylistsChartsAndGenres() async throws {
    let home = try await provider.home()
    XCTAssertEqual(home.map(\.kind), [.newReleases, .playlists, .charts, .genres, .artists])
    for section in home {
      XCTAssertFalse(section.items.isEmpty, section.id)
      XCTAssertFalse(section.title.isEmpty, section.id)
    }
    let kinds = home.map { Set($0.items.map(\.kind)) }
    XCTAssertEqual(kinds, [["album"], ["playlist"], ["track"], ["genre"], ["artist"]])
  }

  func testChartTracksArePlayableAndComplete() async throws {
    let charts = try await provider.home().first { $0.kind == .charts }
    let tracks = charts?.items.compactMap { item -> CatalogTrack? in
      guard case .track(let track) = item else { return nil }
      return track
    }
    XCTAssertEqual(Set(tracks?.map(\.id) ?? []), Set(json.ids("tracks")))
    for track in tracks ?? [] {
      XCTAssertTrue(track.isPlayable, track.id)
      XCTAssertEqual(track.provider, "demo")
      XCTAssertNotNil(track.albumID, track.id)
      XCTAssertNotNil(track.playable?.lyricsURL, track.id)
    }
  }

  // MARK: - Files

  func testEveryTrackHasANonEmptyMP3WithATwentyToFortySecondDuration() async throws {
    for id in json.ids("tracks") {
      let track = try await provider.track(id: id)
      let url = try XCTUnwrap(track.streamURL, id)
      let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
      XCTAssertGreaterThan(size, 50_000, id)
      let duration = try XCTUnwrap(track.duration, id)
      XCTAssertTrue((20...40).contains(duration), "\(id) lasts \(duration) s")

      let frames = try XCTUnwrap(MP3InfoFrame(data: Data(contentsOf: url)), "\(id): no Info frame")
      XCTAssertEqual(frames.sampleRate, 44_100, id)
      XCTAssertEqual(frames.seconds, duration, accuracy: 0.1, id)
    }
  }

  func testEveryTrackHasSyncedLyricsWithAtLeastThreeLines() async throws {
    for id in json.ids("tracks") {
      let track = try await provider.track(id: id)
      let url = try XCTUnwrap(track.lyricsURL, id)
      let lyrics = try LyricsDocument.load(from: url)
      let sung = lyrics.lines.filter { !$0.text.isEmpty }
      XCTAssertGreaterThanOrEqual(sung.count, 3, id)
      XCTAssertTrue(lyrics.isSynced, id)
      XCTAssertEqual(lyrics.skipped, 0, id)
      let last = try XCTUnwrap(lyrics.lines.last?.ms)
      XCTAssertLessThan(Double(last) / 1000, track.duration ?? 0, id)
    }
  }

  func testTheWordTimedSongHasWordsOnEveryLine() async throws {
    let track = try await provider.track(id: "refrain-in-the-static")
    let lyrics = try LyricsDocument.load(from: XCTUnwrap(track.lyricsURL))
    for line in lyrics.lines {
      let words = try XCTUnwrap(line.words, line.text)
      XCTAssertEqual(words.map(\.text).joined(separator: " "), line.text)
      XCTAssertEqual(words.first?.ms, line.ms)
      XCTAssertEqual(words.map(\.ms), words.map(\.ms).sorted())
      XCTAssertGreaterThan(line.endMs ?? 0, words.last?.ms ?? .max)
    }
  }

  func testTheFLOSongLoadsAndPointsAtItsMP3() async throws {
    let track = try await provider.track(id: "first-snow-day")
    let url = try XCTUnwrap(track.lyricsURL)
    XCTAssertEqual(url.pathExtension, "json")
    let song = try JSONDecoder().decode(FLOSong.self, from: Data(contentsOf: url))
    XCTAssertEqual(song.title, track.title)
    XCTAssertEqual(song.singer, track.artist)
    XCTAssertEqual(
      url.deletingLastPathComponent().appendingPathComponent(song.file).path,
      track.streamURL?.path)
    let lyrics = try LyricsDocument.load(from: url)
    XCTAssertEqual(lyrics.tags["ti"], "첫눈 오는 날")
    XCTAssertEqual(lyrics.lines.first?.text, "첫눈이 오면 편지를 쓸게")
  }

  func testLyricsAreInKoreanJapaneseAndChinese() async throws {
    var scripts: [String: Int] = [:]
    for id in json.ids("tracks") {
      let track = try await provider.track(id: id)
      let text = try LyricsDocument.load(from: XCTUnwrap(track.lyricsURL)).lines.map(\.text)
        .joined()
      for (script, range) in [
        ("hangul", 0xAC00...0xD7A3), ("kana", 0x3040...0x30FF), ("han", 0x4E00...0x9FFF),
      ] where text.unicodeScalars.contains(where: { range.contains(Int($0.value)) }) {
        scripts[script, default: 0] += 1
      }
    }
    XCTAssertGreaterThanOrEqual(scripts["hangul"] ?? 0, 2)
    XCTAssertGreaterThanOrEqual(scripts["kana"] ?? 0, 1)
    XCTAssertGreaterThanOrEqual(scripts["han"] ?? 0, 1)
  }

  func testEveryPictureIsAPNG() async throws {
    var urls: [URL?] = []
    for id in json.ids("albums") { urls.append(try await provider.album(id: id).album.coverURL) }
    for id in json.ids("artists") {
      urls.append(try await provider.artist(id: id).artist.pictureURL)
    }
    for id in json.ids("playlists") {
      urls.append(try await provider.playlist(id: id, offset: 0, limit: 1).playlist.coverURL)
    }
    for id in json.ids("genres") { urls.append(try await provider.genre(id: id).genre.pictureURL) }
    for url in urls {
      let data = try Data(contentsOf: XCTUnwrap(url))
      XCTAssertEqual(Array(data.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }
  }

  // MARK: - Details

  func testEveryAlbumListsItsTracksInOrder() async throws {
    for id in json.ids("albums") {
      let detail = try await provider.album(id: id)
      XCTAssertEqual(detail.tracks.map(\.id), json.list("albums", id, "tracks"))
      XCTAssertEqual(
        detail.tracks.map(\.trackNumber), (1...detail.tracks.count).map { Optional($0) })
      XCTAssertEqual(detail.album.trackCount, detail.tracks.count)
      XCTAssertNotNil(detail.album.year)
      for track in detail.tracks {
        XCTAssertEqual(track.albumID, id)
        XCTAssertEqual(track.album, detail.album.title)
        XCTAssertEqual(track.coverURL, detail.album.coverURL)
      }
    }
  }

  func testEveryArtistHasAlbumsAndTopTracksInChartOrder() async throws {
    let chart = try await provider.home().first { $0.kind == .charts }?.items.map(\.title) ?? []
    for id in json.ids("artists") {
      let detail = try await provider.artist(id: id)
      XCTAssertFalse(detail.albums.isEmpty, id)
      XCTAssertEqual(detail.artist.albumCount, detail.albums.count)
      XCTAssertFalse(detail.topTracks.isEmpty, id)
      XCTAssertTrue(detail.topTracks.allSatisfy { $0.artistID == id })
      XCTAssertTrue(detail.albums.allSatisfy { $0.artistID == id })
      let ranks = detail.topTracks.compactMap { chart.firstIndex(of: $0.title) }
      XCTAssertEqual(ranks, ranks.sorted(), id)
    }
  }

  func testEveryPlaylistPagesThroughItsTracks() async throws {
    for id in json.ids("playlists") {
      let expected = json.list("playlists", id, "tracks")
      let first = try await provider.playlist(id: id, offset: 0, limit: 2)
      XCTAssertEqual(first.tracks.total, expected.count)
      XCTAssertEqual(first.playlist.trackCount, expected.count)
      XCTAssertTrue(first.tracks.hasMore)
      let rest = try await provider.playlist(id: id, offset: 2, limit: 100)
      XCTAssertFalse(rest.tracks.hasMore)
      XCTAssertEqual((first.tracks.items + rest.tracks.items).map(\.id), expected)
      let beyond = try await provider.playlist(id: id, offset: 50, limit: 10)
      XCTAssertEqual(beyond.tracks.items, [])
    }
  }

  func testEveryGenreListsItsAlbumsAndTracks() async throws {
    for id in json.ids("genres") {
      let detail = try await provider.genre(id: id)
      XCTAssertEqual(detail.genre.id, id)
      let albums = try XCTUnwrap(detail.sections.first { $0.title == "Albums" }, id)
      let tracks = try XCTUnwrap(detail.sections.first { $0.title == "Tracks" }, id)
      XCTAssertFalse(albums.items.isEmpty)
      for case .track(let track) in tracks.items {
        let album = try await provider.album(id: XCTUnwrap(track.albumID))
        XCTAssertTrue(albums.items.contains(.album(album.album)), "\(track.id) in \(id)")
      }
    }
  }

  func testStreamURLIsTheTracksFile() async throws {
    let track = try await provider.track(id: "night-tram")
    let url = try await provider.streamURL(for: track)
    XCTAssertEqual(url.lastPathComponent, "night-tram.mp3")
    XCTAssertTrue(FileManager.default.fileExists(atPath: url.path))
  }

  // MARK: - Unknown IDs

  func testUnknownIDsAreNotFound() async {
    await assertNotFound("album \"nope\"") { _ = try await self.provider.album(id: "nope") }
    await assertNotFound("artist \"nope\"") { _ = try await self.provider.artist(id: "nope") }
    await assertNotFound("playlist \"nope\"") {
      _ = try await self.provider.playlist(id: "nope", offset: 0, limit: 10)
    }
    await assertNotFound("genre \"nope\"") { _ = try await self.provider.genre(id: "nope") }
    await assertNotFound("track \"nope\"") { _ = try await self.provider.track(id: "nope") }
    let foreign = CatalogTrack(id: "night-tram", provider: "deezer", title: "x")
    await assertNotFound("track \"night-tram\"") {
      _ = try await self.provider.streamURL(for: foreign)
    }
  }

  private func assertNotFound(
    _ what: String, file: StaticString = #filePath, line: UInt = #line,
    _ body: () async throws -> Void
  ) async {
    do {
      try await body()
      XCTFail("expected \(what) to be missing", file: file, line: line)
    } catch {
      XCTAssertEqual(
        error as? CatalogError, .notFound("\(what) in the demo catalog"), file: file, line: line)
    }
  }
}

// MARK: - Support

/// Where the repository's resources are, found from this file's path.
enum DemoResources {
  static let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Resources")
}

/// `catalog.json` read as plain JSON, so the tests do not trust the provider's own reading.
struct DemoCatalogJSON {
  let root: [String: Any]

  static func load() throws -> DemoCatalogJSON {
    let url = DemoResources.folder.appendingPathComponent("demo/catalog.json")
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
    return DemoCatalogJSON(root: try XCTUnwrap(object as? [String: Any]))
  }

  /// The IDs of one list (`tracks`, `albums`, …), in file order.
  func ids(_ list: String) -> [String] {
    entries(list).compactMap { $0["id"] as? String }
  }

  /// A string list field of one entry, such as an album's `tracks`.
  func list(_ list: String, _ id: String, _ field: String) -> [String] {
    entries(list).first { $0["id"] as? String == id }?[field] as? [String] ?? []
  }

  private func entries(_ list: String) -> [[String: Any]] {
    root[list] as? [[String: Any]] ?? []
  }
}

/// The LAME/Xing `Info` frame at the start of an MP3: enough to know its length.
struct MP3InfoFrame {
  let sampleRate: Int
  let seconds: Double

  /// Reads the first frame after the ID3v2 tag; `nil` unless it is an MPEG-1 Layer III
  /// `Info`/`Xing` frame with a frame count.
  init?(data: Data) {
    let bytes = [UInt8](data)
    var start = 0
    if bytes.count > 10, bytes[0..<3].elementsEqual("ID3".utf8) {
      let size = bytes[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
      start = 10 + size
    }
    guard bytes.count > start + 200, bytes[start] == 0xFF, bytes[start + 1] & 0xFE == 0xFA else {
      return nil  // MPEG-1, Layer III
    }
    let rates = [44_100, 48_000, 32_000]
    let rateIndex = Int(bytes[start + 2] >> 2 & 0x3)
    guard rateIndex < 3 else { return nil }
    let mono = bytes[start + 3] >> 6 == 3
    let tag = start + 4 + (mono ? 17 : 32)
    let name = String(decoding: bytes[tag..<(tag + 4)], as: UTF8.self)
    guard name == "Info" || name == "Xing", bytes[tag + 7] & 1 == 1 else { return nil }
    let frames = bytes[(tag + 8)..<(tag + 12)].reduce(0) { $0 << 8 | Int($1) }
    // The LAME extension stores the encoder delay and padding (12 bits each).
    let lame = tag + 120
    let delay = Int(bytes[lame + 21]) << 4 | Int(bytes[lame + 22] >> 4)
    let padding = Int(bytes[lame + 22] & 0x0F) << 8 | Int(bytes[lame + 23])
    sampleRate = rates[rateIndex]
    seconds = Double(frames * 1152 - delay - padding) / Double(sampleRate)
  }
}
