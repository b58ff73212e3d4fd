import Foundation
import RefrainCore
import RefrainHTTP
import XCTest

@testable import RefrainCatalog
@testable import RefrainSubsonic

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The subsonic provider against recorded answers: what it asks and what it makes of them.
final class SubsonicCatalogTests: XCTestCase {
  private let account = SubsonicAccount(
    server: URL(string: "http://127.0.0.1:9") ?? URL(fileURLWithPath: "/"), user: "ann",
    auth: .token(token: "tok", salt: "salt"), apiVersion: "1.16.1")

  private func provider(_ bodies: [String]) -> (SubsonicCatalogProvider, RecordingTransport) {
    let transport = RecordingTransport(
      bodies.map { HTTPResponse(status: 200, body: Data($0.utf8)) })
    return (
      SubsonicCatalogProvider(
        account: account, http: SubsonicClient.httpClient(transport: transport)),
      transport
    )
  }

  private func query(_ request: URLRequest) -> [String: String] {
    let items =
      request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems }
      ?? []
    return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
  }

  private func ok(_ payload: String) -> String {
    #"{"subsonic-response":{"status":"ok","version":"1.16.1",\#(payload)}}"#
  }

  func testAnImportedTrackMatchesBySongISRCThenByArtistTitleAndDuration() async throws {
    let songs =
      #""searchResult3":{"song":["#
      + #"{"id":"s1","title":"Paper Boats","artist":"Jun Park","duration":200},"#
      + #"{"id":"s2","title":"Paper Boats (Live)","artist":"Jun Park","duration":320,"#
      + #""isrc":["QZRFT2600001"]},"#
      + #"{"id":"s3","title":"Paper Boats","artist":"Jun Park","duration":260,"isrc":"QZX"}]}"#
    let (catalog, transport) = provider([ok(songs), ok(songs), ok(songs), ok(songs)])
    func track(isrc: String?, duration: Double?) -> CatalogTrack {
      CatalogTrack(
        id: "sp", provider: "spotify", title: "Paper Boats", artist: "Jun Park",
        duration: duration, isrc: isrc)
    }
    // The ISRC wins over the title (OpenSubsonic sends a list; one string is read too).
    var found = try await catalog.songID(
      matching: track(isrc: "qzrft2600001", duration: 199), tolerance: 3)
    XCTAssertEqual(found, "s2")
    XCTAssertEqual(query(try XCTUnwrap(transport.requests.first))["query"], "Paper Boats")
    // No ISRC on the server: the same artist and title, within the duration tolerance.
    found = try await catalog.songID(matching: track(isrc: "QZNONE", duration: 258), tolerance: 3)
    XCTAssertEqual(found, "s3")
    found = try await catalog.songID(matching: track(isrc: nil, duration: 240), tolerance: 3)
    XCTAssertNil(found, "20 s away from every song of that title is another recording")
    found = try await catalog.songID(matching: track(isrc: nil, duration: nil), tolerance: 3)
    XCTAssertEqual(found, "s1")
  }

  func testATrackSearchAsksSearch3ForSongsOnlyAndMapsIdsGivenAsNumbers() async throws {
    let (catalog, transport) = provider([
      ok(
        #""searchResult3":{"song":[{"id":42,"title":"Song","artist":"Band","album":"LP","#
          + #""albumId":"7","duration":"181","track":3,"coverArt":"al-7"}]}"#)
    ])
    let page = try await catalog.search("  so ng ", kind: .track, offset: 5, limit: 10)
    let sent = query(try XCTUnwrap(transport.requests.first))
    XCTAssertEqual(transport.requests.first?.url?.path, "/rest/search3.view")
    XCTAssertEqual(sent["query"], "so ng")
    XCTAssertEqual(sent["songCount"], "10")
    XCTAssertEqual(sent["songOffset"], "5")
    XCTAssertEqual(sent["albumCount"], "0")
    XCTAssertEqual(sent["artistCount"], "0")
    guard case .track(let track) = page.items.first else { return XCTFail("no track") }
    XCTAssertEqual(track.id, "42")
    XCTAssertEqual(track.provider, "subsonic")
    XCTAssertEqual(track.duration, 181)
    XCTAssertEqual(track.trackNumber, 3)
    XCTAssertEqual(track.albumID, "7")
    let stream = try XCTUnwrap(track.streamURL)
    XCTAssertEqual(stream.path, "/rest/stream.view")
    XCTAssertTrue(stream.absoluteString.contains("id=42"), stream.absoluteString)
    let cover = try XCTUnwrap(track.coverURL)
    XCTAssertTrue(cover.absoluteString.contains("getCoverArt.view"), cover.absoluteString)
    XCTAssertTrue(cover.absoluteString.contains("size=300"), cover.absoluteString)
    XCTAssertEqual(page.total, 6)
  }

  func testAMissingAlbumIsNotFound() async {
    let (catalog, _) = provider([
      #"{"subsonic-response":{"status":"failed","version":"1.16.1","error":{"code":70,"message":"Album not found"}}}"#
    ])
    do {
      _ = try await catalog.album(id: "9")
      XCTFail("found")
    } catch {
      XCTAssertEqual(error as? CatalogError, .notFound("album 9"))
    }
  }

  func testATrackTheServerNoLongerHasIsUnplayableWithAReason() async {
    let (catalog, transport) = provider([
      #"{"subsonic-response":{"status":"failed","version":"1.16.1","error":{"code":70,"message":"Track not found"}}}"#
    ])
    let track = CatalogTrack(id: "gone", provider: "subsonic", title: "Gone")
    do {
      _ = try await catalog.streamURL(for: track)
      XCTFail("a URL for a lost track")
    } catch {
      XCTAssertEqual(error as? CatalogError, .unplayable("the server no longer has it"))
    }
    XCTAssertEqual(transport.requests.first?.url?.path, "/rest/getSong.view")
  }

  func testHomeKeepsTheSectionsTheServerGaveWhenOthersFail() async throws {
    let failed =
      #"{"subsonic-response":{"status":"failed","version":"1.16.1","error":{"code":0,"message":"x"}}}"#
    let albums = ok(#""albumList2":{"album":[{"id":"a1","name":"LP","artist":"Band"}]}"#)
    // The six requests (four album lists, playlists, radio stations) run at once, so every
    // answer is the same list but one failure.
    let (catalog, transport) = provider([albums, albums, albums, albums, failed, albums])
    let sections = try await catalog.home()
    XCTAssertEqual(transport.requests.count, 6)
    XCTAssertGreaterThanOrEqual(sections.count, 3)
    XCTAssertTrue(sections.allSatisfy { !$0.items.isEmpty })
  }

  func testWithoutALoginEveryCallSaysHowToLogIn() async {
    let catalog = SubsonicCatalogProvider(account: nil)
    do {
      _ = try await catalog.search("x", kind: .track, offset: 0, limit: 1)
      XCTFail("searched")
    } catch {
      XCTAssertTrue("\(error)".contains("refrain subsonic login URL --user NAME"), "\(error)")
    }
  }

  // MARK: - The server's playlists

  /// The path and the query items in the order sent (repeated names kept).
  private func sent(_ request: URLRequest) -> (String, [String]) {
    let items =
      request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems }
      ?? []
    let own = items.filter { !["u", "t", "s", "c", "v", "f"].contains($0.name) }
    return (request.url?.path ?? "", own.map { "\($0.name)=\($0.value ?? "")" })
  }

  func testCreatingOnAServerThatAnswersEmptyFindsTheNewPlaylistsId() async throws {
    let (catalog, transport) = provider([
      ok(#""playlists":{"playlist":[{"id":"p-1","name":"Mix","songCount":2}]}"#),
      ok(#""empty":{}"#),
      ok(
        #""playlists":{"playlist":[{"id":"p-1","name":"Mix","songCount":2},"#
          + #"{"id":"p-2","name":"Mix","songCount":0}]}"#),
    ])
    let made = try await catalog.createPlaylist(named: "Mix", with: [])
    XCTAssertEqual(made.id, "p-2", "the playlist that was not there before, not its namesake")
    XCTAssertEqual(made.trackCount, 0)
    XCTAssertEqual(
      transport.requests.map { sent($0).0 },
      ["/rest/getPlaylists.view", "/rest/createPlaylist.view", "/rest/getPlaylists.view"])
    XCTAssertEqual(sent(transport.requests[1]).1, ["name=Mix"])
  }

  func testANewPlaylistWithTracksNamesEverySongInCreatePlaylist() async throws {
    let (catalog, transport) = provider([
      ok(#""playlists":{}"#),
      ok(#""playlist":{"id":"p-9","name":"Road","songCount":2}"#),
    ])
    let songs = ["s-1", "s-2"].map {
      CatalogTrack(id: $0, provider: "subsonic", title: "Song \($0)")
    }
    let made = try await catalog.createPlaylist(named: "Road", with: songs)
    XCTAssertEqual(made.id, "p-9")
    XCTAssertEqual(sent(transport.requests[1]).0, "/rest/createPlaylist.view")
    XCTAssertEqual(sent(transport.requests[1]).1, ["name=Road", "songId=s-1", "songId=s-2"])
  }

  func testATrackOfAnotherCatalogIsRefusedBeforeTheServerIsAsked() async throws {
    let (catalog, transport) = provider([])
    let foreign = CatalogTrack(id: "9", provider: "deezer", title: "Elsewhere")
    do {
      _ = try await catalog.createPlaylist(named: "Road", with: [foreign])
      XCTFail("a Deezer track went into a server playlist")
    } catch {
      XCTAssertTrue("\(error)".contains("Elsewhere is not one of the Subsonic server's tracks"))
    }
    XCTAssertTrue(transport.requests.isEmpty, "no playlist was made for it")
  }

  func testAMoveSendsEverySongInTheNewOrderAndARemoveItsIndexFromZero() async throws {
    let entries =
      #""playlist":{"id":"p-1","name":"Mix","entry":[{"id":"a","title":"A"},"#
      + #"{"id":"b","title":"B"},{"id":"c","title":"C"}]}"#
    let (catalog, transport) = provider([ok(entries), ok(#""x":{}"#), ok(#""x":{}"#)])
    try await catalog.moveTrack(inPlaylist: "p-1", from: 2, to: 0)
    XCTAssertEqual(sent(transport.requests[0]).1, ["id=p-1"])
    XCTAssertEqual(sent(transport.requests[1]).0, "/rest/createPlaylist.view")
    XCTAssertEqual(
      sent(transport.requests[1]).1, ["playlistId=p-1", "songId=c", "songId=a", "songId=b"])
    try await catalog.removeTrack(at: 1, fromPlaylist: "p-1")
    XCTAssertEqual(sent(transport.requests[2]).0, "/rest/updatePlaylist.view")
    XCTAssertEqual(sent(transport.requests[2]).1, ["playlistId=p-1", "songIndexToRemove=1"])
  }

  func testAddingSendsTheSongIdAndRefusesAnotherCatalogsTrackUnasked() async throws {
    let (catalog, transport) = provider([ok(#""x":{}"#)])
    let file = CatalogTrack(id: "/music/a.flac", provider: "file", title: "a")
    do {
      try await catalog.addTracks([file], toPlaylist: "p-1")
      XCTFail("a file was added")
    } catch {
      XCTAssertEqual(
        "\(error)", "a is not one of the Subsonic server's tracks; only those go in its playlists")
    }
    XCTAssertTrue(transport.requests.isEmpty)
    let song = CatalogTrack(id: "s-9", provider: "subsonic", title: "Song")
    try await catalog.addTracks([song], toPlaylist: "p-1")
    XCTAssertEqual(sent(transport.requests[0]).1, ["playlistId=p-1", "songIdToAdd=s-9"])
  }

  func testStarredListsTheSongsThenTheAlbums() async throws {
    let (catalog, transport) = provider([
      ok(
        #""starred2":{"album":[{"id":"al-1","name":"LP","artist":"Band"}],"#
          + #""song":[{"id":"s-1","title":"Song","starred":"2026-11-28T15:00:00Z"}]}"#)
    ])
    let items = try await catalog.starred()
    XCTAssertEqual(items.map(\.title), ["Song", "LP"])
    XCTAssertEqual(items.map(\.kind), ["track", "album"])
    XCTAssertEqual(sent(transport.requests[0]).0, "/rest/getStarred2.view")
  }

  func testARenameSendsTheNameAndAnErrorIsTheServersLine() async {
    let (catalog, transport) = provider([
      #"{"subsonic-response":{"status":"failed","version":"1.16.1","error":{"code":50,"message":"no"}}}"#
    ])
    do {
      try await catalog.renamePlaylist(id: "p-1", to: "Night")
      XCTFail("renamed")
    } catch {
      XCTAssertEqual(
        "\(error)",
        "the Subsonic server: this user may not do that on the server; ask its administrator")
    }
    XCTAssertEqual(sent(transport.requests[0]).1, ["playlistId=p-1", "name=Night"])
  }
}

/// Plays told to the server: `scrobble.view` for its own tracks only.
final class SubsonicScrobbleTests: XCTestCase {
  private let account = SubsonicAccount(
    server: URL(string: "http://127.0.0.1:9") ?? URL(fileURLWithPath: "/"), user: "ann",
    auth: .token(token: "tok", salt: "salt"), apiVersion: "1.16.1")
  private let ok = #"{"subsonic-response":{"status":"ok","version":"1.16.1"}}"#

  private func items(_ request: URLRequest?) -> [String: String] {
    let items =
      request?.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems }
      ?? []
    return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
  }

  func testASubmissionSendsTheSongIdAndTheStartInMilliseconds() async throws {
    let transport = RecordingTransport([HTTPResponse(status: 200, body: Data(ok.utf8))])
    let client = SubsonicScrobbleClient(
      account: account, http: SubsonicClient.httpClient(transport: transport))
    _ = try await client.submit([
      QueuedListen(
        id: 1, service: .subsonic, artist: "A", title: "T", album: "L", duration: 200,
        trackKey: "subsonic:song-9", listenedAt: 1_700_000_000, attempts: 0, lastError: nil)
    ])
    let sent = items(transport.requests.first)
    XCTAssertEqual(transport.requests.first?.url?.path, "/rest/scrobble.view")
    XCTAssertEqual(sent["id"], "song-9")
    XCTAssertEqual(sent["time"], "1700000000000")
    XCTAssertEqual(sent["submission"], "true")
  }

  func testNowPlayingGoesOutOnlyForTheServersTracks() async throws {
    let transport = RecordingTransport([HTTPResponse(status: 200, body: Data(ok.utf8))])
    let client = SubsonicScrobbleClient(
      account: account, http: SubsonicClient.httpClient(transport: transport))
    let file = Track(
      id: "/music/a.flac", location: URL(fileURLWithPath: "/music/a.flac"), title: "A",
      artist: "B")
    try await client.nowPlaying(
      NowPlaying(track: file, duration: 60, startedAt: Date(timeIntervalSince1970: 0)))
    XCTAssertTrue(transport.requests.isEmpty)
    var served = file
    served.id = "subsonic:s-1"
    served.provider = "subsonic"
    try await client.nowPlaying(
      NowPlaying(track: served, duration: 60, startedAt: Date(timeIntervalSince1970: 0)))
    XCTAssertEqual(items(transport.requests.first)["submission"], "false")
    XCTAssertEqual(items(transport.requests.first)["id"], "s-1")
    XCTAssertFalse(ScrobbleService.subsonic.accepts(file))
    XCTAssertTrue(ScrobbleService.subsonic.accepts(served))
    XCTAssertTrue(ScrobbleService.listenBrainz.accepts(file))
  }

  func testARefusedLoginIsUnauthorized() async {
    let refused =
      #"{"subsonic-response":{"status":"failed","version":"1.16.1","error":{"code":40,"message":"Wrong"}}}"#
    let transport = RecordingTransport([HTTPResponse(status: 200, body: Data(refused.utf8))])
    let client = SubsonicScrobbleClient(
      account: account, http: SubsonicClient.httpClient(transport: transport))
    do {
      _ = try await client.submit([
        QueuedListen(
          id: 1, service: .subsonic, artist: "A", title: "T", album: "L", duration: 200,
          trackKey: "subsonic:x", listenedAt: 1, attempts: 0, lastError: nil)
      ])
      XCTFail("sent")
    } catch {
      XCTAssertEqual(error, .unauthorized(service: .subsonic, detail: "error 40: Wrong"))
    }
  }
}
