import Foundation
import RefrainCore
import XCTest

/// The FLO song reader under random and mangled JSON: it never traps or hangs, a song it
/// accepts gives well-formed lyrics, and anything else is a `LyricsError` that says why.
///
/// Each test runs 1,000 cases under `make test` and a hundred times as many under
/// `make fuzz` (see `FuzzScale`); a failure names the seed that reproduces it.
final class FLOFuzzTests: XCTestCase {
  /// A JSON value to build songs from; `raw` is written as is, valid JSON or not.
  private enum Value {
    case raw(String)
    case string(String)
    case array([Value])
    case object([Field])

    /// The value as JSON text.
    var text: String {
      switch self {
      case .raw(let text): return text
      case .string(let string): return FLOFuzzTests.quoted(string)
      case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
      case .object(let fields): return FLOFuzzTests.objectText(fields)
      }
    }
  }

  /// One `"key": value` member of a JSON object.
  private struct Field {
    var key: String
    var value: Value
  }

  // MARK: - Building blocks

  /// Numbers and number-like words, valid JSON or not: limits, overflow, NaN spellings.
  private static let numbers = [
    "0", "-0", "1", "-1", "198", "12.6", "0.5", "-0.5", "-198", "999999999.4", "999999999.5",
    "1e9", "-1e9", "1e308", "1.7976931348623157e308", "1e309", "1e400", "-1e400", "4.9e-324",
    "1e-400", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
    "123456789012345678901234567890", "1E2", "0.1e1", "-", "01", "1.", ".5", "+1", "0x10",
    "NaN", "-Infinity", "Infinity", "nan", "1e", "--1",
  ]

  /// Strings a field might hold instead of what Refrain expects.
  private static let strings = [
    "", " ", "NaN", "-Infinity", "inf", "1e400", "198", "-1", "\u{0}", "\u{FEFF}", "\u{1B}[2J",
    "銀の龍", "연주", "🎵", "\\", "\"", "[00:01:000]", "[00:01:000]a\n[00:00:500]b", "\r\n",
  ]

  /// Keys of a FLO song, near misses and strangers.
  private static let keys = [
    "singer", "album", "title", "duration", "image", "file", "lyrics", "Lyrics", "lyrics ",
    "", "lyr\u{0}ics", "extra", "💿",
  ]

  /// Time tags that are broken, negative, huge or out of range.
  private static let oddTimeTags = [
    "[-00:01:000]", "[-1:00:000]", "[NaN:00:000]", "[00:NaN:000]", "[inf:00:000]",
    "[99999999999:00:000]", "[999999999:59:999]", "[00:60:000]", "[00:01:-100]", "[1e3:00:000]",
    "[00:01:000", "[0:0:0]", "[00:00:000]", "[00:01.50]", "<00:01:000>", "[]", "[:]", "[",
    "[offset:+500]", "[offset:-99999999999]", "[ar:Someone]", "[00:01:000][00:00:500]",
  ]

  /// Text that follows a time tag.
  private static let lyricTexts = [
    "la", "", " ", "we wish you a merry christmas", "연주", "<00:01.50>word <00:02.00>next",
    "<00:01:000>w <99:00:000>", "\u{0}", "\t", "\u{FEFF}x", "]", "\\n",
  ]

  /// Pieces that random token soup is made of.
  private static let tokens =
    [
      "{", "}", "[", "]", ":", ",", " ", "\n", "\t", "\"", "\\", "\\u", "\\ud800", "\\u0000",
      "true", "false", "null", "\u{FEFF}", "\u{0}", "\"lyrics\"", "\"duration\"", "\"singer\"",
      "\"[00:01:000]a\\n[00:02:000]b\"",
    ]
    + numbers + keys.map(quoted) + oddTimeTags.map(quoted)

  /// JSON text for a string, escaping what JSON requires.
  private static func quoted(_ string: String) -> String {
    var text = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    return text + "\""
  }

  /// JSON text for an object with these members, duplicates and all.
  private static func objectText(_ fields: [Field]) -> String {
    "{" + fields.map { quoted($0.key) + ":" + $0.value.text }.joined(separator: ",") + "}"
  }

  /// A FLO time tag, `[mm:ss:SSS]`.
  private static func floTime(_ ms: Int) -> String {
    func padded(_ value: Int, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "[\(padded(ms / 60_000, 2)):\(padded(ms / 1000 % 60, 2)):\(padded(ms % 1000, 3))]"
  }

  /// The fixture song's members, in the order the file writes them.
  private static func fields(of song: FLOSong) -> [Field] {
    [
      Field(key: "singer", value: .string(song.singer)),
      Field(key: "album", value: .string(song.album)),
      Field(key: "title", value: .string(song.title)),
      Field(key: "duration", value: .raw(String(song.duration))),
      Field(key: "image", value: .string(song.image)),
      Field(key: "file", value: .string(song.file)),
      Field(key: "lyrics", value: .string(song.lyrics)),
    ]
  }

  private func randomLyrics(_ random: inout LyricsSeededGenerator) -> String {
    let separator = ["\n", "\r\n", "\r", ""].randomElement(using: &random) ?? "\n"
    return (0..<Int.random(in: 0...30, using: &random)).map { _ in
      let tag =
        Int.random(in: 0..<4, using: &random) == 0
        ? Self.oddTimeTags.randomElement(using: &random) ?? ""
        : Self.floTime(Int.random(in: 0...600_000, using: &random))
      return tag + (Self.lyricTexts.randomElement(using: &random) ?? "")
    }.joined(separator: separator)
  }

  /// Lyrics lines swapped, dropped, repeated or given broken time tags.
  private func mutatedLyrics(_ lyrics: String, _ random: inout LyricsSeededGenerator) -> String {
    var lines = lyrics.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for _ in 0..<Int.random(in: 1...6, using: &random) {
      guard !lines.isEmpty else { return randomLyrics(&random) }
      let index = Int.random(in: 0..<lines.count, using: &random)
      let tag = Self.oddTimeTags.randomElement(using: &random) ?? ""
      switch Int.random(in: 0..<5, using: &random) {
      case 0: lines.swapAt(index, Int.random(in: 0..<lines.count, using: &random))
      case 1: lines.remove(at: index)
      case 2: lines.insert(lines[index], at: Int.random(in: 0...lines.count, using: &random))
      case 3:
        let text = lines[index].drop { $0 != "]" }.dropFirst()
        lines[index] = tag + text
      default: lines[index] = tag + lines[index]
      }
    }
    return lines.joined(separator: "\n")
  }

  private func randomValue(_ random: inout LyricsSeededGenerator, depth: Int = 0) -> Value {
    switch Int.random(in: 0..<(depth < 3 ? 6 : 4), using: &random) {
    case 0: return .raw(Self.numbers.randomElement(using: &random) ?? "0")
    case 1: return .raw(["true", "false", "null"].randomElement(using: &random) ?? "null")
    case 2: return .string(Self.strings.randomElement(using: &random) ?? "")
    case 3: return .string(randomLyrics(&random))
    case 4:
      let count = Int.random(in: 0...4, using: &random)
      return .array((0..<count).map { _ in randomValue(&random, depth: depth + 1) })
    default:
      let count = Int.random(in: 0...4, using: &random)
      return .object(
        (0..<count).map { _ in
          Field(
            key: Self.keys.randomElement(using: &random) ?? "",
            value: randomValue(&random, depth: depth + 1))
        })
    }
  }

  /// A value inside a few hundred or thousand arrays or objects, around JSON's depth limits.
  private func deeplyNested(_ value: Value, _ random: inout LyricsSeededGenerator) -> Value {
    let depth = [1, 10, 100, 511, 512, 513, 2_000, 10_000].randomElement(using: &random) ?? 1
    let inner = value.text
    if Bool.random(using: &random) {
      return .raw(
        String(repeating: "[", count: depth) + inner + String(repeating: "]", count: depth))
    }
    return .raw(
      String(repeating: "{\"lyrics\":", count: depth) + inner + String(repeating: "}", count: depth)
    )
  }

  /// Applies one structural change to a song's members.
  private func mutate(_ fields: inout [Field], _ random: inout LyricsSeededGenerator) {
    let index = fields.isEmpty ? nil : Int.random(in: 0..<fields.count, using: &random)
    switch Int.random(in: 0..<9, using: &random) {
    case 0:
      if let index { fields.remove(at: index) }
    case 1:
      if let index {
        fields.insert(fields[index], at: Int.random(in: 0...fields.count, using: &random))
      }
    case 2:
      if let index { fields[index].value = randomValue(&random) }
    case 3:
      let duration: Value =
        Bool.random(using: &random)
        ? .raw(Self.numbers.randomElement(using: &random) ?? "0")
        : .string(Self.strings.randomElement(using: &random) ?? "")
      fields.removeAll { $0.key == "duration" }
      fields.insert(
        Field(key: "duration", value: duration),
        at: Int.random(in: 0...fields.count, using: &random))
    case 4:
      guard let lyrics = fields.firstIndex(where: { $0.key == "lyrics" }) else { return }
      if case .string(let text) = fields[lyrics].value {
        fields[lyrics].value = .string(mutatedLyrics(text, &random))
      } else {
        fields[lyrics].value = .string(randomLyrics(&random))
      }
    case 5:
      if let index { fields[index].value = deeplyNested(fields[index].value, &random) }
    case 6:
      fields.insert(
        Field(key: Self.keys.randomElement(using: &random) ?? "", value: randomValue(&random)),
        at: Int.random(in: 0...fields.count, using: &random))
    case 7:
      fields.shuffle(using: &random)
    default:
      if let index { fields[index].key = Self.keys.randomElement(using: &random) ?? "" }
    }
  }

  // MARK: - Invariants

  /// Reads `bytes` as Refrain does and checks what comes back; returns whether they held a
  /// FLO song.
  @discardableResult
  private func check(
    _ bytes: [UInt8], seed: UInt64, file: StaticString = #filePath, line: UInt = #line
  ) -> Bool {
    let data = Data(bytes)
    let song = try? JSONDecoder().decode(FLOSong.self, from: data)
    let songDocument = song?.lyricsDocument
    if let song {
      XCTAssertTrue(
        (0..<1_000_000_000).contains(song.duration), "seed \(seed): duration \(song.duration)",
        file: file, line: line)
    }
    // Valid UTF-8 reaches the JSON decoder unchanged, so both readers must agree on it.
    let sameBytes = String(validating: bytes, as: UTF8.self) != nil
    do {
      let document = try LyricsDocument.load(data: data)
      assertLyricsWellFormed(document, "seed \(seed)", file: file, line: line)
      if let songDocument, sameBytes {
        XCTAssertEqual(document, songDocument, "seed \(seed)", file: file, line: line)
      } else if let songDocument {
        assertLyricsWellFormed(songDocument, "seed \(seed)", file: file, line: line)
      }
    } catch {
      if let songDocument {
        assertLyricsWellFormed(songDocument, "seed \(seed)", file: file, line: line)
      }
      guard case .invalidFLOSong(let reason) = error as? LyricsError else {
        XCTFail("seed \(seed): unexpected \(error)", file: file, line: line)
        return false
      }
      XCTAssertFalse(reason.isEmpty, "seed \(seed)", file: file, line: line)
      XCTAssertTrue("\(error)".contains(reason), "seed \(seed)", file: file, line: line)
      XCTAssertFalse(
        song != nil && sameBytes, "seed \(seed): a song the decoder reads was refused: \(reason)",
        file: file, line: line)
    }
    return song != nil
  }

  // MARK: - Regressions

  /// The fuzzer's first finds: `-0.5` read as -1 s, `-1` and `-198` kept as negative lengths,
  /// and `999999999.5` rounded up to a billion past the bound the reader checked.
  func test_negativeOrHugeDuration_readsAsUnknown() throws {
    let cases: [(duration: String, seconds: Int)] = [
      ("-0.5", 0), ("-1", 0), ("-198", 0), ("999999999.5", 0), ("-0.4", 0),
      ("999999999.4", 999_999_999), ("12.6", 13), ("1e300", 0),
    ]
    for (duration, seconds) in cases {
      let json = #"{"duration":\#(duration),"lyrics":"[00:01:000]a"}"#
      let song = try JSONDecoder().decode(FLOSong.self, from: Data(json.utf8))
      XCTAssertEqual(song.duration, seconds, duration)
    }
  }

  // MARK: - Random input

  func test_randomBytes_neverTrap() {
    let openings: [[UInt8]] = [
      [], [0x7B], [0x20, 0x0A, 0x7B], [0xEF, 0xBB, 0xBF, 0x7B], [0xFF, 0xFE, 0x7B, 0x00],
      [0x00, 0x7B],
    ]
    let jsonBytes = Array("{}[]\":,\\ 0123456789-+.eEtrufalsn\n".utf8)
    for seed in FuzzScale.seeds(1_000, from: 0xF10_0001_0000_0000) {
      var random = LyricsSeededGenerator(seed: seed)
      var bytes = openings.randomElement(using: &random) ?? []
      let wellFormedBias = Bool.random(using: &random)
      for _ in 0..<Int.random(in: 0...256, using: &random) {
        bytes.append(
          wellFormedBias
            ? jsonBytes.randomElement(using: &random) ?? 0
            : UInt8.random(in: 0...255, using: &random))
      }
      check(bytes, seed: seed)
    }
  }

  func test_randomTokenSoup_neverTraps() {
    for seed in FuzzScale.seeds(1_000, from: 0xF10_0002_0000_0000) {
      var random = LyricsSeededGenerator(seed: seed)
      let count = Int.random(in: 0...60, using: &random)
      let soup = (0..<count).map { _ in Self.tokens.randomElement(using: &random) ?? "" }
      let closing = Bool.random(using: &random) ? "}" : ""
      check(Array(("{" + soup.joined() + closing).utf8), seed: seed)
    }
  }

  func test_randomSongs_readOrReportWhy() {
    var songs = 0
    let seeds = FuzzScale.seeds(1_000, from: 0xF10_0003_0000_0000)
    for seed in seeds {
      var random = LyricsSeededGenerator(seed: seed)
      var fields: [Field] = []
      for key in ["singer", "album", "title", "duration", "image", "file", "lyrics"]
      where Int.random(in: 0..<8, using: &random) > 0 {
        let value: Value
        switch (key, Int.random(in: 0..<6, using: &random)) {
        case (_, 0): value = randomValue(&random)
        case ("duration", _): value = .raw(Self.numbers.randomElement(using: &random) ?? "0")
        case ("lyrics", _): value = .string(randomLyrics(&random))
        default: value = .string(Self.strings.randomElement(using: &random) ?? "")
        }
        fields.append(Field(key: key, value: value))
      }
      if check(Array(Self.objectText(fields).utf8), seed: seed) { songs += 1 }
    }
    // Most cases should be songs, or the success invariants are barely exercised.
    XCTAssertGreaterThan(songs, seeds.count / 4)
  }

  // MARK: - Mutated fixture

  func test_mutatedFixture_readOrReportWhy() throws {
    let original = try LyricsFixtures.data("flo/song.json")
    let song = try JSONDecoder().decode(FLOSong.self, from: original)
    let donors = [[UInt8](original)]
    var songs = 0
    let seeds = FuzzScale.seeds(1_000, from: 0xF10_0004_0000_0000)
    for seed in seeds {
      var random = LyricsSeededGenerator(seed: seed)
      var fields = Self.fields(of: song)
      for _ in 0..<Int.random(in: 0...4, using: &random) {
        mutate(&fields, &random)
      }
      var bytes = Array(Self.objectText(fields).utf8)
      if Bool.random(using: &random) {
        for _ in 0..<Int.random(in: 1...8, using: &random) {
          FuzzMutation.mutate(&bytes, tokens: Self.tokens, donors: donors, using: &random)
        }
      }
      if check(bytes, seed: seed) { songs += 1 }
    }
    XCTAssertGreaterThan(songs, seeds.count / 4)
  }
}
