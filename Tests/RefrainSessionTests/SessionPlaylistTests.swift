import Foundation
import RefrainCatalog
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainSession

/// Playlist edits by ID, as `refrain ctl playlist …` sends them to any front end's session,
/// on a real library file: each answered once stored.
final class SessionPlaylistTests: XCTestCase {
  private func temporaryLibrary() throws -> LibraryStore {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-session-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    return try LibraryStore(fileURL: folder.appendingPathComponent("library.sqlite"))
  }

  private func makeSession(_ library: LibraryStore?) -> Session {
    Session(
      player: FakePlayer(), library: library, storage: library,
      lyricsLoader: { _ in .notFound(reasons: ["no lyrics in the test"]) })
  }

  /// Sends `line` as `refrain ctl` does and waits for the answer the socket would write.
  private func answer(
    _ session: Session, _ line: String, file: StaticString = #filePath, lineNumber: UInt = #line
  ) throws -> String {
    var answer: Session.Answer?
    let command = try CommandParser.parse(line)
    XCTAssertTrue(session.answer(command) { answer = $0 }, line)
    let deadline = Date().addingTimeInterval(5)
    while answer == nil, Date() < deadline {
      usleep(2_000)
      session.drainInbox()
    }
    guard let answer else {
      XCTFail("no answer to \(line)", file: file, line: lineNumber)
      throw CommandFailure("no answer to \(line)")
    }
    return try answer.get()
  }

  private func failure(_ session: Session, _ line: String) -> String? {
    do {
      _ = try answer(session, line)
      return nil
    } catch {
      return "\(error)"
    }
  }

  private func makeFiles(_ names: String...) throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-ctl-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    for name in names {
      FileManager.default.createFile(
        atPath: folder.appendingPathComponent(name).path, contents: nil)
    }
    return folder
  }

  func testCreateAddMoveRemoveRenameDeleteRoundTrip() throws {
    let library = try temporaryLibrary()
    let session = makeSession(library)
    let folder = try makeFiles("one.mp3", "two.mp3", "three.mp3")

    XCTAssertEqual(
      try answer(session, "playlist create 밤 노래"), #"{"id":1,"name":"밤 노래","tracks":0}"#)
    for name in ["one", "two", "three"] {
      XCTAssertEqual(try answer(session, "playlist add 1 \(folder.path)/\(name).mp3"), "ok")
    }
    XCTAssertEqual(try answer(session, "playlist move 1 3 1"), "ok")
    XCTAssertEqual(try answer(session, "playlist remove 1 2"), "ok")
    XCTAssertEqual(try library.entries(inPlaylist: 1).map(\.track.title), ["three", "two"])
    let shown = try answer(session, "playlist show 1")
    let entries = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [[String: Any]], shown)
    XCTAssertEqual(entries.count, 2, shown)
    XCTAssertEqual(
      Set(entries[0].keys), ["position", "title", "artist", "provider", "id"], shown)
    XCTAssertEqual(entries[0]["position"] as? Int, 1, shown)
    XCTAssertEqual(entries[0]["title"] as? String, "three", shown)
    XCTAssertTrue(entries[0]["artist"] is NSNull, "an unknown artist is null: \(shown)")
    XCTAssertEqual(entries[0]["provider"] as? String, "file", shown)
    XCTAssertEqual(entries[1]["position"] as? Int, 2, shown)
    XCTAssertEqual(entries[1]["title"] as? String, "two", shown)
    XCTAssertFalse(shown.contains("\n"), "one line")
    XCTAssertEqual(try answer(session, "playlist rename 1 Rain"), "ok")
    XCTAssertEqual(try answer(session, "playlist list"), #"[{"id":1,"name":"Rain","tracks":2}]"#)
    XCTAssertEqual(try answer(session, "playlist delete 1"), "ok")
    XCTAssertEqual(try answer(session, "playlist list"), "[]")
  }

  func testMistakesAreOneLineReasonsAndChangeNothing() throws {
    let library = try temporaryLibrary()
    let session = makeSession(library)
    let folder = try makeFiles("one.mp3")
    _ = try answer(session, "playlist create Mix")
    _ = try answer(session, "playlist add 1 \(folder.path)/one.mp3")

    XCTAssertEqual(
      failure(session, "playlist add 9 \(folder.path)/one.mp3"), "playlist 9 no longer exists")
    XCTAssertEqual(
      failure(session, "playlist add 1 \(folder.path)/missing.mp3"),
      "no such file: \(folder.path)/missing.mp3")
    XCTAssertEqual(
      failure(session, "playlist remove 1 2"), "position 2 is outside the playlist (it has 1 track)"
    )
    XCTAssertEqual(
      failure(session, "playlist move 1 1 3"), "position 3 is outside the playlist (it has 1 track)"
    )
    XCTAssertEqual(failure(session, "playlist add 1 current"), "nothing is playing to add")
    XCTAssertEqual(
      failure(session, "playlist create  ")?.hasPrefix("expected 'playlist list|"), true)
    XCTAssertEqual(try library.entries(inPlaylist: 1).map(\.track.title), ["one"])
    XCTAssertEqual(try library.playlist(1).name, "Mix")
  }

  func testWithoutALibraryFileEditsAreRefused() throws {
    let session = makeSession(nil)
    XCTAssertEqual(failure(session, "playlist list"), "the library is not available")
  }

  func testQueueAddExpandsTheHomeFolder() {
    XCTAssertEqual(Session.expandingHome("~/Music/a.mp3"), NSHomeDirectory() + "/Music/a.mp3")
    XCTAssertEqual(Session.expandingHome("~"), NSHomeDirectory())
    XCTAssertEqual(Session.expandingHome("/x/~/y"), "/x/~/y")
    XCTAssertEqual(Session.expandingHome("~user/x"), "~user/x")
  }

  /// Runs finished background work until `condition` holds (about 5 s at most).
  private func drain(_ session: Session, until condition: () -> Bool) {
    let deadline = Date().addingTimeInterval(5)
    while !condition(), Date() < deadline {
      usleep(2_000)
      session.drainInbox()
    }
  }

  func testTheSavedSessionComesBackPausedWithItsModesAndPane() throws {
    let library = try temporaryLibrary()
    let first = makeSession(library)
    let tracks = ["Morning", "Noon", "Night"].map { title in
      CatalogTrack(
        id: title, provider: "demo", title: title, artist: "Refrain Band", duration: 30,
        streamURL: URL(fileURLWithPath: "/music/\(title).mp3"))
    }
    var played: Outcome?
    first.queueCommands.play(tracks, startAt: 1, position: 0) { outcome, _ in played = outcome }
    drain(first) { played != nil }
    XCTAssertEqual(played, .done(message: nil))
    first.playback.setVolume(40)
    first.playback.cycleRepeat()
    first.saveSession(openPane: "queue")
    first.libraryCalls?.waitForAll()

    let second = makeSession(library)
    var pane: String?
    second.restoreSession { saved in pane = saved.openPane }
    drain(second) { pane != nil && second.playback.queue.count == 3 }
    XCTAssertEqual(pane, "queue")
    XCTAssertEqual(second.playback.queue.tracks.map(\.title), ["Morning", "Noon", "Night"])
    XCTAssertEqual(second.playback.queue.current?.title, "Noon")
    XCTAssertEqual(second.playback.volume, 40)
    XCTAssertEqual(second.playback.queue.repeatMode, first.playback.queue.repeatMode)
    XCTAssertNotEqual(second.playback.state, .playing, "a restored session waits for space")
  }
}
