import Foundation
import RefrainCatalog
import RefrainCore
import RefrainSession
import XCTest

@testable import RefrainTUI

/// Playlist edits by ID, as `refrain ctl playlist …` sends them, on a real library file.
final class AppControlTests: XCTestCase {
  /// Sends `line` as `refrain ctl` does and waits for the answer the socket would write.
  private func answer(
    _ harness: TUIHarness, _ line: String, file: StaticString = #filePath, lineNumber: UInt = #line
  ) throws -> String {
    var answer: App.RemoteAnswer?
    harness.app.answer(remote: try CommandParser.parse(line)) { answer = $0 }
    harness.waitFor("the answer to \(line)", file: file, line: lineNumber) { answer != nil }
    guard let answer else { throw CommandFailure("no answer to \(line)") }
    return try answer.get()
  }

  private func failure(_ harness: TUIHarness, _ line: String) -> String? {
    do {
      _ = try answer(harness, line)
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
    let library = try TUIHarness.temporaryLibrary(self)
    let harness = TUIHarness(library: library)
    let folder = try makeFiles("one.mp3", "two.mp3", "three.mp3")

    XCTAssertEqual(
      try answer(harness, "playlist create 밤 노래"), #"{"id":1,"name":"밤 노래","tracks":0}"#)
    for name in ["one", "two", "three"] {
      XCTAssertEqual(try answer(harness, "playlist add 1 \(folder.path)/\(name).mp3"), "ok")
    }
    XCTAssertEqual(try answer(harness, "playlist move 1 3 1"), "ok")
    XCTAssertEqual(try answer(harness, "playlist remove 1 2"), "ok")
    XCTAssertEqual(try library.entries(inPlaylist: 1).map(\.track.title), ["three", "two"])
    let shown = try answer(harness, "playlist show 1")
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
    XCTAssertEqual(try answer(harness, "playlist rename 1 Rain"), "ok")
    XCTAssertEqual(try answer(harness, "playlist list"), #"[{"id":1,"name":"Rain","tracks":2}]"#)
    XCTAssertEqual(try answer(harness, "playlist delete 1"), "ok")
    XCTAssertEqual(try answer(harness, "playlist list"), "[]")
  }

  func testMistakesAreOneLineReasonsAndChangeNothing() throws {
    let library = try TUIHarness.temporaryLibrary(self)
    let harness = TUIHarness(library: library)
    let folder = try makeFiles("one.mp3")
    _ = try answer(harness, "playlist create Mix")
    _ = try answer(harness, "playlist add 1 \(folder.path)/one.mp3")

    XCTAssertEqual(
      failure(harness, "playlist add 9 \(folder.path)/one.mp3"), "playlist 9 no longer exists")
    XCTAssertEqual(
      failure(harness, "playlist add 1 \(folder.path)/missing.mp3"),
      "no such file: \(folder.path)/missing.mp3")
    XCTAssertEqual(
      failure(harness, "playlist remove 1 2"), "position 2 is outside the playlist (it has 1 track)"
    )
    XCTAssertEqual(
      failure(harness, "playlist move 1 1 3"), "position 3 is outside the playlist (it has 1 track)"
    )
    XCTAssertEqual(failure(harness, "playlist add 1 current"), "nothing is playing to add")
    XCTAssertEqual(
      failure(harness, "playlist create  ")?.hasPrefix("expected 'playlist list|"), true)
    XCTAssertEqual(try library.entries(inPlaylist: 1).map(\.track.title), ["one"])
    XCTAssertEqual(try library.playlist(1).name, "Mix")
  }

  func testWithoutALibraryFileEditsAreRefused() throws {
    let harness = TUIHarness(library: nil)
    XCTAssertEqual(failure(harness, "playlist list"), "the library is not available")
  }

  func testThePromptReportsOnTheStatusLine() throws {
    let library = try TUIHarness.temporaryLibrary(self)
    let harness = TUIHarness(library: library)
    harness.waitForHome()
    harness.press(":")
    harness.type("playlist create Drive")
    harness.press("enter")
    harness.waitForLibrary()
    XCTAssertEqual(try library.playlists().map(\.name), ["Drive"])
    XCTAssertEqual(harness.app.status?.text, #"{"id":1,"name":"Drive","tracks":0}"#)
    harness.press(":")
    harness.type("playlist delete 7")
    harness.press("enter")
    harness.waitForLibrary()
    XCTAssertTrue(harness.screen().contains("playlist 7 no longer exists"), harness.screen())
  }

  func testQueueAddExpandsTheHomeFolder() {
    XCTAssertEqual(Session.expandingHome("~/Music/a.mp3"), NSHomeDirectory() + "/Music/a.mp3")
    XCTAssertEqual(Session.expandingHome("~"), NSHomeDirectory())
    XCTAssertEqual(Session.expandingHome("/x/~/y"), "/x/~/y")
    XCTAssertEqual(Session.expandingHome("~user/x"), "~user/x")
  }
}
