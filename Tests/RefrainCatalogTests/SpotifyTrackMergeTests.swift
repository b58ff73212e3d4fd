import Foundation
import RefrainCore
import RefrainTags
import XCTest

@testable import RefrainCatalog
@testable import RefrainSpotify

/// A track record from a source that knows less never replaces what the library knew
/// (issue 26): `CatalogTrack.merging(_:)` alone, then the import's writes in a real library
/// in both orders (Liked Songs then a saved album, and the album first), and the repair of
/// a library imported before the merge.
final class SpotifyTrackMergeTests: XCTestCase {
  /// A liked track as Spotify's full track object gives it: every field known.
  private let liked = CatalogTrack(
    id: "t1", provider: "spotify", title: "Tidal - 2011 Remaster", artist: "Jun Park",
    artistID: "ar1", album: "Tides", albumID: "al1", duration: 200, trackNumber: 3,
    coverURL: URL(string: "http://127.0.0.1:9/tides.jpg"),
    lyricsURL: URL(string: "http://127.0.0.1:9/tidal.lrc"), isrc: "QZAAA2600010")

  /// The same track as a saved album's track list gives it: no ISRC.
  private var fromAlbum: CatalogTrack {
    var track = liked
    track.isrc = nil
    return track
  }

  /// The same track knowing nothing but its ID and title.
  private let bare = CatalogTrack(id: "t1", provider: "spotify", title: "Tidal - 2011 Remaster")

  /// Another record of the same track where every field differs from `liked`.
  private let changed = CatalogTrack(
    id: "t1", provider: "spotify", title: "Tidal (Remastered)", artist: "Jun Park & Co",
    artistID: "ar2", album: "Tides (Deluxe)", albumID: "al2", duration: 201, trackNumber: 4,
    coverURL: URL(string: "http://127.0.0.1:9/deluxe.jpg"),
    lyricsURL: URL(string: "http://127.0.0.1:9/tidal2.lrc"), isrc: "QZAAA2600011")

  // MARK: - The merge

  func testARecordThatKnowsNothingKeepsEveryKnownField() {
    XCTAssertEqual(liked.merging(bare), liked)
  }

  func testARecordThatKnowsEverythingFillsEveryField() {
    XCTAssertEqual(bare.merging(liked), liked)
  }

  func testEachFieldTheNewerRecordLacksIsKept() {
    let fields: [(name: String, clear: (inout CatalogTrack) -> Void)] = [
      ("artist", { $0.artist = nil }), ("artistID", { $0.artistID = nil }),
      ("album", { $0.album = nil }), ("albumID", { $0.albumID = nil }),
      ("duration", { $0.duration = nil }), ("trackNumber", { $0.trackNumber = nil }),
      ("coverURL", { $0.coverURL = nil }), ("lyricsURL", { $0.lyricsURL = nil }),
      ("isrc", { $0.isrc = nil }),
    ]
    for field in fields {
      var lacking = liked
      field.clear(&lacking)
      XCTAssertNotEqual(lacking, liked, field.name)
      XCTAssertEqual(liked.merging(lacking), liked, "\(field.name): newer lacks it")
      XCTAssertEqual(lacking.merging(liked), liked, "\(field.name): older lacks it")
    }
  }

  func testEveryFieldTheNewerRecordKnowsWins() {
    XCTAssertEqual(liked.merging(changed), changed)
    XCTAssertEqual(changed.merging(liked), liked)
  }

  func testWhatPlaysTheTrackIsTheNewerRecordsAsItIs() {
    var playing = liked
    playing.streamURL = URL(fileURLWithPath: "/m/tidal.mp3")
    playing.match = "local"
    var unplayable = bare
    unplayable.unplayableReason = "no local file"
    let merged = playing.merging(unplayable)
    XCTAssertNil(merged.streamURL)
    XCTAssertNil(merged.match)
    XCTAssertEqual(merged.unplayableReason, "no local file")
    XCTAssertEqual(merged.isrc, "QZAAA2600010")
  }

  func testARecordOfAnotherTrackReplacesNothing() {
    let other = CatalogTrack(id: "t2", provider: "spotify", title: "Other")
    XCTAssertEqual(liked.merging(other), other)
    let elsewhere = CatalogTrack(id: "t1", provider: "deezer", title: "Tidal")
    XCTAssertEqual(liked.merging(elsewhere), elsewhere)
  }

  // MARK: - An import's writes

  func testAnAlbumReadAfterTheLikesKeepsTheLikedTracksISRC() throws {
    let store = try LibraryTestSupport.makeStore(self)
    try Self.importLikes([liked], into: store)
    try Self.importAlbum("al1", tracks: [fromAlbum], into: store)
    XCTAssertEqual(try store.storedTrack(provider: "spotify", id: "t1"), liked)
  }

  func testLikesReadAfterTheAlbumFillInTheISRCAndKeepWhatOnlyTheAlbumGave() throws {
    let store = try LibraryTestSupport.makeStore(self)
    try Self.importAlbum("al1", tracks: [fromAlbum], into: store)
    XCTAssertNil(try store.storedTrack(provider: "spotify", id: "t1")?.isrc)
    var likedWithoutArt = liked
    likedWithoutArt.coverURL = nil
    likedWithoutArt.trackNumber = nil
    try Self.importLikes([likedWithoutArt], into: store)
    XCTAssertEqual(try store.storedTrack(provider: "spotify", id: "t1"), liked)
  }

  func testTheLikedTrackOnASavedAlbumIsMatchedToItsFileByISRC() throws {
    let store = try LibraryTestSupport.makeStore(self)
    try Self.scan(into: store)
    try Self.importLikes([liked], into: store)
    try Self.importAlbum("al1", tracks: [fromAlbum], into: store)
    let (summary, _) = try SpotifyMatcher(store: store, previews: nil).matchLocally()
    XCTAssertEqual(summary.matchedLocal, 1)
    XCTAssertEqual(try store.spotifyImport.spotifyMatch(for: "t1")?.localPath, "/m/rip01.mp3")
  }

  func testImportingAgainRepairsALibraryThatLostTheISRC() throws {
    let store = try LibraryTestSupport.makeStore(self)
    try Self.scan(into: store)
    // As the import before the merge left it: the album's record over the liked one.
    try Self.importLikes([fromAlbum], into: store)
    try Self.importAlbum("al1", tracks: [fromAlbum], into: store)
    let lossy = try SpotifyMatcher(store: store, previews: nil).matchLocally().summary
    XCTAssertEqual(lossy.matchedLocal, 0)
    XCTAssertEqual(
      try store.spotifyImport.spotifyMatch(for: "t1")?.reason,
      "no local file has this title, and Spotify gave no ISRC")

    try Self.importLikes([liked], into: store)
    try Self.importAlbum("al1", tracks: [fromAlbum], into: store)
    let repaired = try SpotifyMatcher(store: store, previews: nil).matchLocally().summary
    XCTAssertEqual(repaired.matchedLocal, 1)
    XCTAssertEqual(try store.storedTrack(provider: "spotify", id: "t1")?.isrc, "QZAAA2600010")
    XCTAssertEqual(try store.spotifyImport.spotifyMatch(for: "t1")?.kind, .local)
  }

  // MARK: - Support

  /// A local file carrying the liked track's ISRC under a title matching cannot use.
  private static func scan(into store: LibraryStore) throws {
    try LocalLibraryScanner(store: store, tagReader: ID3TagReader(), batchSize: 10).importTracks([
      (
        "/m/rip01.mp3",
        LocalTrackInfo(title: "Track 01", artist: "Unknown", duration: 200, isrc: "QZAAA2600010")
      )
    ])
  }

  /// Liked Songs staged and applied as an import does (one page).
  private static func importLikes(_ tracks: [CatalogTrack], into store: LibraryStore) throws {
    try store.spotifyImport.addSpotifyImportLists([("liked", "me/tracks", nil)])
    try store.spotifyImport.stageSpotifyPage(
      list: "liked", items: tracks.map { SpotifyStagedItem(id: $0.id) }, tracks: tracks,
      next: nil)
    try store.spotifyImport.applySpotifyLikes()
    try store.spotifyImport.finishSpotifyImport(keeping: [], summary: "{}")
  }

  /// A saved album and its track list stored and applied as an import does (one page).
  private static func importAlbum(_ id: String, tracks: [CatalogTrack], into store: LibraryStore)
    throws
  {
    try store.spotifyImport.addSpotifyImportLists([("albums", "me/albums", nil)])
    try store.spotifyImport.storeSpotifyAlbumTracks(albumID: id, tracks: tracks)
    let album = AlbumSummary(id: id, provider: "spotify", title: "Tides")
    try store.spotifyImport.stageSpotifyPage(
      list: "albums", items: [SpotifyStagedItem(id: id, json: LibraryStore.encodeJSON(album))],
      tracks: [], next: nil)
    try store.spotifyImport.applySpotifyAlbums()
    try store.spotifyImport.finishSpotifyImport(keeping: [], summary: "{}")
  }
}
