import RefrainCore
import XCTest

/// The one command grammar shared by key bindings, the `:` prompt and `refrain ctl`.
final class CommandParserTests: XCTestCase {
  private let every: [Command] = [
    .togglePlay, .play, .pause, .stop, .next, .previous, .seek(.relative(5)),
    .seek(.relative(-10)), .seek(.relative(2.5)), .seek(.absolute(83)), .volume(.relative(5)),
    .volume(.relative(-5)), .volume(.absolute(40)), .shuffle, .repeat, .lyrics, .seekMode,
    .follow, .nudge(100), .nudge(-100), .lyricLine(12), .show(.home), .show(.search),
    .show(.library), .show(.player), .show(.queue), .nextPane, .move(.up), .move(.down),
    .move(.pageUp), .move(.pageDown), .move(.top), .move(.bottom), .move(.left), .move(.right),
    .open, .back, .quit, .search(nil), .search("비 오는 날"), .help, .prompt, .add,
    .addToPlaylist, .save, .newPlaylist(nil), .newPlaylist("Road trip"), .rename(nil),
    .rename("Mornings"), .delete, .remove, .moveItemUp, .moveItemDown, .playAll,
    .queueAdd("/music/a song.mp3"), .queueClear, .status,
  ]

  // MARK: - Round trip

  func testEveryCommandParsesBackFromItsPrintedForm() throws {
    for command in every {
      XCTAssertEqual(try CommandParser.parse(command.description), command, "\(command)")
    }
  }

  // MARK: - Forms people type

  func testSeekForms() throws {
    XCTAssertEqual(try CommandParser.parse("seek 1:23"), .seek(.absolute(83)))
    XCTAssertEqual(try CommandParser.parse("seek 1:02:03"), .seek(.absolute(3723)))
    XCTAssertEqual(try CommandParser.parse("seek 42"), .seek(.absolute(42)))
    XCTAssertEqual(try CommandParser.parse("  SEEK   -5 "), .seek(.relative(-5)))
  }

  func testAliases() throws {
    XCTAssertEqual(try CommandParser.parse("previous"), .previous)
    XCTAssertEqual(try CommandParser.parse("q"), .quit)
    XCTAssertEqual(try CommandParser.parse("vol +10"), .volume(.relative(10)))
  }

  // MARK: - Errors name what was expected

  func testErrors() {
    let cases: [(String, String)] = [
      ("", "empty command"),
      ("dance", "unknown command 'dance'"),
      ("seek", "expected 'seek ±SEC'"),
      ("seek 1:75", "expected 'seek ±SEC'"),
      ("seek +abc", "expected 'seek ±SEC'"),
      ("volume 150", "expected 'volume ±N'"),
      ("show nowhere", "expected 'show' and one of"),
      ("pause now", "'pause' takes no argument"),
      ("lyrics line x", "expected 'lyrics' or 'lyrics line N'"),
      ("queue shuffle", "expected 'queue add"),
      ("nudge lots", "expected 'nudge ±MS'"),
    ]
    for (input, expected) in cases {
      XCTAssertThrowsError(try CommandParser.parse(input), input) { error in
        XCTAssertTrue("\(error)".contains(expected), "\(input): \(error)")
      }
    }
  }

  func testRandomInputNeverCrashes() {
    var generator = SeededRandom(seed: 7)
    let alphabet = Array("seek volume lyrics line queue add +-:0123456789 abc\u{1B}[]한".unicodeScalars)
    for _ in 0..<3_000 {
      let length = Int.random(in: 0..<24, using: &generator)
      var text = ""
      for _ in 0..<length { text.unicodeScalars.append(alphabet.randomElement(using: &generator) ?? " ") }
      if let command = try? CommandParser.parse(text) {
        XCTAssertEqual(try? CommandParser.parse(command.description), command, text)
      }
    }
  }
}
