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
    .queueAdd("/music/a song.mp3"), .queueClear, .status, .queueList, .queueRemove(3),
    .queueMove(from: 4, to: 1), .queuePlay(2), .setShuffle(true), .setShuffle(false),
    .setRepeat(.off), .setRepeat(.all), .setRepeat(.one), .room(.leave), .room(.play(entry: 4)),
    .room(.join(url: "ws://127.0.0.1:7700/rooms/den")), .playItem("/music/a song.mp3"),
    .playItem("http://127.0.0.1:8000/stream"), .publishLyrics, .publishLyricsNow,
    .syncNudge(line: 3, ms: 50), .syncNudge(line: 0, ms: -50), .syncCheck(line: 7),
  ]

  // MARK: - Round trip

  func testEveryCommandParsesBackFromItsPrintedForm() throws {
    for command in every {
      XCTAssertEqual(try CommandParser.parse(command.description), command, "\(command)")
    }
  }

  // MARK: - Forms people type

  func testSyncEditsRefuseImpossibleNumbers() {
    for text in [
      "lyrics sync nudge", "lyrics sync nudge 3", "lyrics sync nudge -1 +50",
      "lyrics sync nudge 3 +99999999", "lyrics sync check", "lyrics sync check x",
    ] {
      XCTAssertThrowsError(try CommandParser.parse(text), text)
    }
  }

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
      ("lyrics line x", "expected 'lyrics', 'lyrics line N'"),
      ("lyrics sync later", "expected 'lyrics sync start|here|words|stamp|undo|save|cancel'"),
      ("queue shuffle", "expected 'queue', 'queue add"),
      ("queue remove 0", "(positions from 1)"),
      ("queue move 2", "'queue move N M'"),
      ("shuffle maybe", "expected 'shuffle', 'shuffle on'"),
      ("repeat twice", "'repeat off|all|one'"),
      ("room join", "expected 'room join URL'"),
      ("nudge lots", "expected 'nudge ±MS'"),
    ]
    for (input, expected) in cases {
      XCTAssertThrowsError(try CommandParser.parse(input), input) { error in
        XCTAssertTrue("\(error)".contains(expected), "\(input): \(error)")
      }
    }
  }

  // MARK: - Fuzz

  /// Lines that parse, to mutate: every printed command, typed variants and playlist edits.
  private var validLines: [String] {
    every.map(\.description) + [
      "seek 1:23", "seek 1:02:03", "  SEEK   -5 ", "vol +10", "q", "previous", "volume -100",
      "nudge -60000", "lyrics line 0", "queue add  http://host/a.mp3", "playlist list",
      "playlist show 3", "playlist create Road trip", "playlist rename 2 New name",
      "playlist delete 4", "playlist add 1 current", "playlist add 1 /music/a.mp3",
      "playlist remove 2 5", "playlist move 2 1 3",
    ]
  }

  /// Pieces that mutations insert: separators, signs, numbers at and past each limit.
  private static let mutationTokens = [
    " ", "  ", "\t", "\n", "\u{A0}", "\u{3000}", "+", "-", ":", ".", "e", "E", "0", "1", "9",
    "59", "60", "99", "100", "101", "1e308", "1e400", "inf", "nan", "0x1p4", "86400", "86401",
    "60000", "60001", "1000000", "1000001", "9223372036854775807", "-9223372036854775808",
    "9223372036854775808", "current", "line", "add", "clear", "show", "move", "é", "한",
    "\u{1B}", "\u{0}", "\u{301}",
  ]

  /// Checks that `text` parses or throws a message, and that a parsed command prints
  /// itself in a form that parses back to the same command.
  private func assertRoundTrips(_ text: String, seed: UInt64) {
    do {
      let command = try CommandParser.parse(text)
      XCTAssertEqual(
        try? CommandParser.parse(command.description), command,
        "seed \(seed): \(text.debugDescription) printed as \(command.description.debugDescription)")
    } catch {
      XCTAssertFalse(error.message.isEmpty, "seed \(seed): \(text.debugDescription)")
    }
  }

  func testRandomInputNeverCrashes() {
    let alphabet = Array(
      "seek volume lyrics line queue add +-:0123456789 abc\u{1B}[]한".unicodeScalars)
    for seed in FuzzScale.seeds(3_000, from: 7 << 32) {
      var generator = SeededRandom(seed: seed)
      let length = Int.random(in: 0..<24, using: &generator)
      var text = ""
      for _ in 0..<length {
        text.unicodeScalars.append(alphabet.randomElement(using: &generator) ?? " ")
      }
      assertRoundTrips(text, seed: seed)
    }
  }

  func testRandomInputMutatedFromValidLines() {
    let lines = validLines.map { Array($0.unicodeScalars) }
    for seed in FuzzScale.seeds(3_000, from: 8 << 32) {
      var generator = SeededRandom(seed: seed)
      var scalars = lines[Int(seed % UInt64(lines.count))]
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        let index = Int.random(in: 0...scalars.count, using: &generator)
        switch Int.random(in: 0..<6, using: &generator) {
        case 0 where index < scalars.count: scalars.remove(at: index)
        case 1 where index < scalars.count:
          scalars[index] = scalars.randomElement(using: &generator) ?? " "
        case 2: scalars.removeSubrange(index...)
        case 3:
          let other = lines.randomElement(using: &generator) ?? []
          scalars.insert(
            contentsOf: other.suffix(Int.random(in: 0...8, using: &generator)), at: index)
        case 4 where index < scalars.count:
          scalars[index] =
            Unicode.Scalar(scalars[index].properties.uppercaseMapping) ?? scalars[index]
        default:
          let token = Self.mutationTokens.randomElement(using: &generator) ?? ""
          scalars.insert(contentsOf: token.unicodeScalars, at: index)
        }
      }
      var text = ""
      text.unicodeScalars.append(contentsOf: scalars)
      assertRoundTrips(text, seed: seed)
    }
  }
}
