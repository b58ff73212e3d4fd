import Foundation
import RefrainCore
import RefrainTags
import XCTest

@testable import RefrainCatalog
@testable import RefrainSpotify

/// The pieces of the Spotify import that need no network: the PKCE login's secrets and
/// answers, the keys that match recordings across catalogs, and matching in a real library.
final class SpotifyLibraryTests: XCTestCase {
  // MARK: - Login

  func testTheChallengeIsRFC7636sExample() {
    XCTAssertEqual(
      SpotifyAuthorization.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
  }

  func testAnAttemptHasAVerifierSpotifyAcceptsAndALoopbackRedirect() throws {
    var random = SeededRandom(seed: 7)
    let attempt = SpotifyAuthorization.Attempt(port: 8974, random: &random)
    XCTAssertEqual(attempt.verifier.count, 64)
    XCTAssertTrue(attempt.verifier.allSatisfy { $0.isLetter || $0.isNumber || "-._~".contains($0) })
    XCTAssertEqual(attempt.redirectURI, "http://127.0.0.1:8974/callback")
    let url = try XCTUnwrap(
      attempt.authorizeURL(accounts: URL(string: "http://127.0.0.1:9/")!, clientID: "abc"))
    let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    let value = { (name: String) in items.first { $0.name == name }?.value }
    XCTAssertEqual(url.path, "/authorize")
    XCTAssertEqual(value("client_id"), "abc")
    XCTAssertEqual(value("code_challenge_method"), "S256")
    XCTAssertEqual(value("code_challenge"), SpotifyAuthorization.challenge(for: attempt.verifier))
    XCTAssertEqual(value("redirect_uri"), "http://127.0.0.1:8974/callback")
    XCTAssertEqual(value("state"), attempt.state)
    XCTAssertEqual(value("scope"), SpotifyAuthorization.scopes)
  }

  func testTheRedirectGivesItsCodeOnlyWithTheSameState() throws {
    var random = SeededRandom(seed: 3)
    let attempt = SpotifyAuthorization.Attempt(port: 8974, random: &random)
    let good = "http://127.0.0.1:8974/callback?code=C0DE&state=\(attempt.state)"
    XCTAssertEqual(try attempt.code(fromRedirect: "  " + good + "\n"), "C0DE")
    XCTAssertThrowsError(
      try attempt.code(fromRedirect: "http://127.0.0.1:8974/callback?code=C0DE&state=other")
    ) {
      XCTAssertTrue("\($0)".contains("state differs"), "\($0)")
    }
    XCTAssertThrowsError(
      try attempt.code(
        fromRedirect: "http://127.0.0.1:8974/callback?error=access_denied&state=\(attempt.state)")
    ) { XCTAssertTrue("\($0)".contains("cancelled"), "\($0)") }
    XCTAssertThrowsError(try attempt.code(fromRedirect: "C0DE"))
  }

  func testATokenNeverPrintsItsSecrets() {
    let token = SpotifyToken(
      accessToken: "ACCESS-SECRET", refreshToken: "REFRESH-SECRET", expiresAt: 100, scope: nil,
      clientID: "abc", userID: "mina")
    XCTAssertFalse("\(token)".contains("SECRET"))
    XCTAssertFalse(String(describing: [token]).contains("SECRET"))
    XCTAssertTrue(token.isExpiring(now: 50))
    XCTAssertFalse(token.isExpiring(now: 39))
  }

  func testTheTokenFileIsPrivateAndRoundTrips() throws {
    let folder = try LibraryTestSupport.temporaryFolder(self)
    let file = SpotifyTokenFile(url: folder.appendingPathComponent("refrain/spotify-token.json"))
    let token = SpotifyToken(
      accessToken: "a", refreshToken: "r", expiresAt: 1, scope: "s", clientID: "c")
    try file.save(token)
    XCTAssertEqual(file.load(), token)
    let mode = try FileManager.default.attributesOfItem(atPath: file.url.path)[.posixPermissions]
    XCTAssertEqual((mode as? NSNumber)?.intValue, 0o600)
    XCTAssertTrue(file.remove())
    XCTAssertNil(file.load())
  }

  // MARK: - Matching keys

  func testISRCsAreNormalisedOrRefused() {
    XCTAssertEqual(ISRC.normalized("usum71703861"), "USUM71703861")
    XCTAssertEqual(ISRC.normalized("US-UM7-17-03861"), "USUM71703861")
    XCTAssertNil(ISRC.normalized("USUM7170386"))
    XCTAssertNil(ISRC.normalized("1SUM71703861"))
    XCTAssertNil(ISRC.normalized("USUM7170386X"))
  }

  func testKeysIgnoreCaseAccentsVersionsAndGuests() {
    let plain = TrackMatchKey(artist: "Beyonce", title: "Halo")
    XCTAssertEqual(TrackMatchKey(artist: "BEYONCÉ", title: "halo (Live)"), plain)
    XCTAssertEqual(TrackMatchKey(artist: "Beyoncé, Jay-Z", title: "Halo - Remastered 2011"), plain)
    XCTAssertEqual(TrackMatchKey(artist: "Beyoncé feat. Jay-Z", title: "Halo [Radio Edit]"), plain)
    XCTAssertNotEqual(TrackMatchKey(artist: "Beyoncé", title: "Halo - Part Two"), plain)
    XCTAssertNotEqual(TrackMatchKey(artist: "Rihanna", title: "Halo"), plain)
    XCTAssertNil(TrackMatchKey(artist: nil, title: "Halo"))
    XCTAssertNil(TrackMatchKey(artist: "!!!", title: "Halo"))
    XCTAssertEqual(TrackMatchKey(artist: "뉴진스", title: "하입 보이")?.title, "하입 보이")
  }

  // MARK: - Matching in a library

  func testLocalFilesMatchByISRCThenByTitleWithinThreeSeconds() throws {
    let store = try LibraryTestSupport.makeStore(self)
    try LocalLibraryScanner(store: store, tagReader: ID3TagReader(), batchSize: 10).importTracks([
      (
        "/m/tagged.mp3",
        LocalTrackInfo(title: "Other Name", artist: "X", duration: 10, isrc: "QZAAA2600001")
      ),
      ("/m/titled.mp3", LocalTrackInfo(title: "Slow Tide", artist: "Jun", duration: 200)),
      ("/m/long.mp3", LocalTrackInfo(title: "Far Off", artist: "Jun", duration: 300)),
    ])
    try store.spotifyImport.replaceSpotifyLikes(with: [
      CatalogTrack(
        id: "a", provider: "spotify", title: "Tagged", artist: "Y", duration: 99,
        isrc: "QZAAA2600001"),
      CatalogTrack(
        id: "b", provider: "spotify", title: "Slow Tide (Remastered)", artist: "Jun",
        duration: 202.5),
      CatalogTrack(id: "c", provider: "spotify", title: "Far Off", artist: "Jun", duration: 296),
      CatalogTrack(
        id: "d", provider: "spotify", title: "Unknown", artist: "Nobody", duration: 5,
        isrc: "QZAAA2600009"),
      CatalogTrack(
        id: "e", provider: "spotify", title: "Unknown Too", artist: "Nobody", duration: 5),
    ])
    let (summary, lookups) = try SpotifyMatcher(store: store, previews: nil).matchLocally()
    XCTAssertEqual(summary.tracks, 5)
    XCTAssertEqual(summary.matchedLocal, 2)
    XCTAssertEqual(lookups.map(\.id), ["d"], "only a track with an ISRC is looked up online")
    let matches = try store.spotifyImport.spotifyMatches()
    XCTAssertEqual(matches["a"]?.localPath, "/m/tagged.mp3")
    XCTAssertEqual(matches["b"]?.localPath, "/m/titled.mp3")
    XCTAssertEqual(
      matches["c"]?.kind, SpotifyMatch.Kind.none, "four seconds apart is another recording")
    XCTAssertEqual(matches["e"]?.kind, SpotifyMatch.Kind.none)

    let liked = try store.spotifyImport.spotifyLikedTracks()
    XCTAssertEqual(liked.map(\.id), ["a", "b", "c", "d", "e"])
    XCTAssertEqual(liked[0].match, "local")
    XCTAssertEqual(liked[0].streamURL, URL(fileURLWithPath: "/m/tagged.mp3"))
    XCTAssertFalse(liked[4].isPlayable)
    XCTAssertNotNil(liked[4].unplayableReason)
  }

  func testTheServerIsAskedBeforePreviewsAndItsSongPlaysThroughTheServerProvider() async throws {
    let store = try LibraryTestSupport.makeStore(self)
    try store.spotifyImport.replaceSpotifyLikes(with: [
      CatalogTrack(
        id: "s", provider: "spotify", title: "Home Run", artist: "Server", isrc: "QZAAA2600011"),
      CatalogTrack(id: "t", provider: "spotify", title: "No Code", artist: "Server", duration: 200),
      CatalogTrack(
        id: "p", provider: "spotify", title: "Elsewhere", artist: "Radio", isrc: "QZAAA2600002"),
      CatalogTrack(id: "n", provider: "spotify", title: "Nowhere", artist: "Nobody"),
    ])
    let serverAsked = Counter()
    let server: SpotifyMatcher.ServerLookup = { track in
      serverAsked.increment()
      switch track.id {
      case "s": return "song-11"
      case "t": return "song-12"
      default: return nil
      }
    }
    let previews: SpotifyMatcher.PreviewLookup = { isrc in
      guard isrc == "QZAAA2600002" else { return nil }
      return CatalogTrack(
        id: "3135556", provider: "deezer", title: "Elsewhere",
        streamURL: URL(string: "http://127.0.0.1:9/preview.mp3"))
    }
    let summary = try await SpotifyMatcher(store: store, server: server, previews: previews)
      .matchAll { _, _ in }
    XCTAssertEqual(
      [summary.matchedSubsonic, summary.matchedPreview, summary.unmatched], [2, 1, 1])
    XCTAssertEqual(serverAsked.value, 4, "a track without an ISRC is asked by title")
    let matches = try store.spotifyImport.spotifyMatches()
    XCTAssertEqual(matches["s"], SpotifyMatch(kind: .subsonic, serverID: "song-11"))
    XCTAssertEqual(matches["t"]?.serverID, "song-12")
    XCTAssertEqual(matches["p"]?.kind, .preview)
    XCTAssertEqual(
      matches["n"]?.reason, "no local file, not on your server, and Spotify gave no ISRC")
    // A found server song is kept; the rest are asked again (the server's collection grows),
    // and a preview found before stays while the server has nothing better.
    let again = try await SpotifyMatcher(store: store, server: server, previews: previews)
      .matchAll { _, _ in }
    XCTAssertEqual([again.matchedSubsonic, again.matchedPreview, again.unmatched], [2, 1, 1])
    XCTAssertEqual(serverAsked.value, 6)
    // The listing shows the match without credentials; the server provider makes the URL.
    let liked = try store.spotifyImport.spotifyLikedTracks()
    XCTAssertEqual(liked.first { $0.id == "s" }?.match, "subsonic")
    let provider = SpotifyCatalogProvider(
      store: store, previews: nil, server: StreamOnlyProvider(name: "subsonic"))
    let url = try await provider.streamURL(for: liked.first { $0.id == "s" }!)
    XCTAssertEqual(url.absoluteString, "http://127.0.0.1:9/stream?id=song-11")
    let withoutLogin = SpotifyCatalogProvider(store: store, previews: nil)
    do {
      _ = try await withoutLogin.streamURL(for: liked.first { $0.id == "s" }!)
      XCTFail("a server match plays only with a login")
    } catch let error as CatalogError {
      XCTAssertTrue("\(error)".contains("refrain subsonic login"), "\(error)")
    }
  }

  func testASummaryStoredBeforeServerMatchesStillReads() throws {
    let old =
      #"{"playlists":1,"tracks":3,"albums":0,"matched_local":1,"matched_preview":1,"unmatched":1}"#
    let summary = try JSONDecoder().decode(SpotifyImportSummary.self, from: Data(old.utf8))
    XCTAssertEqual([summary.tracks, summary.matchedSubsonic, summary.unmatched], [3, 0, 1])
  }

  func testPreviewsFoundAreKeptAndTheCatalogIsNotAskedAgain() async throws {
    let store = try LibraryTestSupport.makeStore(self)
    try store.spotifyImport.replaceSpotifyLikes(with: [
      CatalogTrack(
        id: "p", provider: "spotify", title: "On Air", artist: "Radio", isrc: "QZAAA2600002"),
      CatalogTrack(
        id: "n", provider: "spotify", title: "Off Air", artist: "Radio", isrc: "QZAAA2600003"),
    ])
    let asked = Counter()
    let lookup: SpotifyMatcher.PreviewLookup = { isrc in
      asked.increment()
      guard isrc == "QZAAA2600002" else { return nil }
      return CatalogTrack(
        id: "3135556", provider: "deezer", title: "On Air",
        streamURL: URL(string: "http://127.0.0.1:9/preview.mp3"))
    }
    let first = try await SpotifyMatcher(store: store, previews: lookup).matchAll { _, _ in }
    XCTAssertEqual([first.matchedPreview, first.unmatched], [1, 1])
    XCTAssertEqual(asked.value, 2)
    let again = try await SpotifyMatcher(store: store, previews: lookup).matchAll { _, _ in }
    XCTAssertEqual([again.matchedPreview, again.unmatched], [1, 1])
    XCTAssertEqual(asked.value, 2, "neither is asked about again")
    _ = try await SpotifyMatcher(store: store, previews: lookup, rematchPreviews: true).matchAll {
      _, _ in
    }
    XCTAssertEqual(asked.value, 4, "--rematch asks again")
    let tracks = try store.spotifyImport.spotifyLikedTracks()
    XCTAssertEqual(tracks.first { $0.id == "p" }?.match, "preview")
    XCTAssertTrue(
      tracks.first { $0.id == "n" }?.unplayableReason?.contains("QZAAA2600003") ?? false)
  }

  private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
  }
}

/// A provider that only makes stream URLs, standing in for the Subsonic provider.
private struct StreamOnlyProvider: CatalogProvider {
  let name: String
  func home() async throws -> [HomeSection] { [] }
  func search(_ query: String, kind: SearchKind, offset: Int, limit: Int) async throws -> Page<
    CatalogItem
  > { throw CatalogError.unsupported("search") }
  func album(id: String) async throws -> AlbumDetail { throw CatalogError.unsupported("albums") }
  func artist(id: String) async throws -> ArtistDetail {
    throw CatalogError.unsupported("artists")
  }
  func playlist(id: String, offset: Int, limit: Int) async throws -> PlaylistDetail {
    throw CatalogError.unsupported("playlists")
  }
  func streamURL(for track: CatalogTrack) async throws -> URL {
    URL(string: "http://127.0.0.1:9/stream?id=\(track.id)")!
  }
}
