import RefrainCore
import XCTest

/// The `playlist …` commands `refrain ctl` and the `:` prompt use to edit playlists by ID.
final class CommandPlaylistTests: XCTestCase {
  func testEveryFormParsesAndPrintsBack() throws {
    let cases: [(String, Command.PlaylistEdit)] = [
      ("playlist list", .list),
      ("playlist show 3", .show("3")),
      ("playlist create Night drive", .create("Night drive")),
      ("playlist create 밤 노래", .create("밤 노래")),
      ("playlist rename 3 비 오는 날", .rename("3", "비 오는 날")),
      ("playlist delete 12", .delete("12")),
      ("playlist add 3 /music/a song.mp3", .add("3", "/music/a song.mp3")),
      ("playlist add 3 current", .add("3", "current")),
      ("playlist remove 3 1", .remove("3", 1)),
      ("playlist move 3 4 1", .move("3", from: 4, to: 1)),
      // A Subsonic server's ids are its own text.
      (
        "playlist show 3f2b8c1e-0d4a-4e8e-9a51-6c1f0e2d7b90",
        .show("3f2b8c1e-0d4a-4e8e-9a51-6c1f0e2d7b90")
      ),
      ("playlist rename pl-7 Mix", .rename("pl-7", "Mix")),
    ]
    for (text, edit) in cases {
      XCTAssertEqual(try CommandParser.parse(text), .playlist(edit), text)
      XCTAssertEqual(Command.playlist(edit).description, text)
    }
    XCTAssertEqual(try CommandParser.parse("  playlist  create   Mix  "), .playlist(.create("Mix")))
    XCTAssertTrue(CommandParser.words.contains("playlist"))
  }

  func testBadFormsSayWhatWasExpected() {
    for text in [
      "playlist", "playlist list 3", "playlist show", "playlist create", "playlist rename 3",
      "playlist add 3",
      "playlist remove 3", "playlist remove 3 0", "playlist remove 3 two", "playlist move 3 1",
      "playlist move 3 1 2 3", "playlist delete 3 now", "playlist sort 3",
    ] {
      XCTAssertThrowsError(try CommandParser.parse(text), text) { error in
        XCTAssertTrue("\(error)".hasPrefix("expected 'playlist list|show ID"), "\(text): \(error)")
      }
    }
  }
}
