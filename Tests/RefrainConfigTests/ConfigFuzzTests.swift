import Foundation
import RefrainCore
import XCTest

@testable import RefrainConfig

/// The reader under random and mangled TOML: it never traps or hangs, it reports problems.
///
/// Every case is seeded, so a failure names a seed that reproduces it. Set
/// `REFRAIN_FUZZ_SCALE=50` to run fifty times as many cases.
final class ConfigFuzzTests: XCTestCase {
  /// How many times the standard number of cases to run.
  private let scale = max(
    Int(ProcessInfo.processInfo.environment["REFRAIN_FUZZ_SCALE"] ?? "") ?? 1, 1)

  /// A config that sets every key, to mutate.
  private static let fullFile = """
    [catalog]
    provider = "local"
    music_folders = ["~/Music", "/srv/music"]
    [audio]
    output = "null"
    pulse_server = "tcp:192.168.1.20:4713"
    pulse_sink = "usb"
    buffer_ms = 200
    [lyrics]
    sources = ["online", "sidecar"]
    offset_ms = -250
    [online]
    deezer_url = "http://127.0.0.1:8080"
    lrclib_url = ""
    [display]
    colors = false
    theme = "mono"
    cover_art = false
    mouse = true
    [keys]
    "ctrl-d" = "pagedown"
    F5 = "show queue"
    [keys.lists]
    D = "delete"
    [keys.lyrics]
    "ctrl-l" = "follow"
    """

  /// Pieces that TOML and Refrain's keys are made of.
  private static let tokens = [
    "[", "]", "[[", "]]", "{", "}", "=", "\"", "'", "\"\"\"", "'''", ".", ",", "#", "\n", "\r\n",
    " ", "\t", "\\", "\\u0000", "\\u", "\\U0010FFFF", "0x", "1e400", "-", "+", "inf", "nan",
    "true", "false", "1979-05-27T07:32:00Z", "07:32:00", "9223372036854775807",
    "99999999999999999999", "catalog", "audio", "lyrics", "online", "display", "keys", "lists",
    "provider", "buffer_ms", "sources", "theme", "mouse", "ctrl-d", "seek +5", "비", "🎵",
    "\u{7F}", "\u{1B}[2J", "\u{FEFF}", "\0", "a", "Z", "7", "_", "\u{85}", "\u{2028}", "\u{A0}",
    "\r", "\u{B}", "\\n", "\\\"",
  ]

  // MARK: - Random text

  func testRandomTokenSoupNeverTraps() {
    for seed in 0..<UInt64(2000 * scale) {
      var random = SeededRandom(seed: seed)
      var text = ""
      for _ in 0..<Int.random(in: 0...60, using: &random) {
        text += Self.tokens.randomElement(using: &random) ?? ""
      }
      check(text, seed: seed)
    }
  }

  func testRandomBytesNeverTrap() {
    for seed in 0..<UInt64(500 * scale) {
      var random = SeededRandom(seed: 1_000_000 + seed)
      let bytes = (0..<Int.random(in: 0...300, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
      check(String(decoding: bytes, as: UTF8.self), seed: seed)
    }
  }

  // MARK: - Mutated files

  func testMutatedFilesNeverTrapAndKeepDefaultsForWhatBroke() {
    let sources = [Self.fullFile, RefrainConfiguration.defaultFileText]
    for seed in 0..<UInt64(2000 * scale) {
      var random = SeededRandom(seed: 2_000_000 + seed)
      var scalars = Array(sources[Int(seed) % sources.count].unicodeScalars)
      for _ in 0..<Int.random(in: 1...6, using: &random) {
        mutate(&scalars, using: &random)
      }
      var text = ""
      text.unicodeScalars.append(contentsOf: scalars)
      check(text, seed: seed)
    }
  }

  // MARK: - Well-formed files with random values

  func testRandomValuesEitherApplyOrAreReportedByKey() {
    let values = [
      "\"demo\"", "\"local\"", "\"null\"", "\"pulse\"", "\"mono\"", "\"x\"", "\"\"", "0", "20",
      "2000", "2001", "-1", "60000", "-60001", "true", "false", "1.5", "[]", "[\"sidecar\"]",
      "[\"cache\", \"cache\"]", "[1, 2]", "[\"~/a\", \"/b\"]", "[\"rel\"]", "{ a = 1 }",
      "\"http://127.0.0.1:1\"", "\"ftp://x\"", "1979-05-27", "\"seek +5\"", "\"warp\"",
    ]
    for seed in 0..<UInt64(1000 * scale) {
      var random = SeededRandom(seed: 3_000_000 + seed)
      let chosen = ConfigKey.all.shuffled(using: &random).prefix(
        Int.random(in: 1...6, using: &random))
      var text = ""
      for table in ConfigKey.tables where chosen.contains(where: { $0.table == table.name }) {
        text += "[\(table.name)]\n"
        for key in chosen where key.table == table.name {
          text += "\(key.name) = \(values.randomElement(using: &random) ?? "0")\n"
        }
      }
      let result = check(text, seed: seed)
      for problem in result.problems {
        XCTAssertNotNil(problem.key, "seed \(seed): \(problem)")
        XCTAssertNotNil(problem.line, "seed \(seed): \(problem)")
      }
    }
  }

  // MARK: - Helpers

  /// Reads `text`, checking that the answer is sane and came back quickly.
  @discardableResult
  private func check(_ text: String, seed: UInt64) -> (
    configuration: RefrainConfiguration, problems: [ConfigProblem]
  ) {
    let start = Date()
    let result = RefrainConfiguration.parse(text, file: "fuzz.toml", environment: ["HOME": "/h"])
    XCTAssertLessThan(Date().timeIntervalSince(start), 1, "seed \(seed) took too long")
    let lineCount = text.reduce(1) { $1 == "\n" || $1 == "\r\n" ? $0 + 1 : $0 }
    for problem in result.problems {
      XCTAssertEqual(problem.file, "fuzz.toml", "seed \(seed)")
      if let line = problem.line {
        XCTAssertTrue((1...lineCount + 1).contains(line), "seed \(seed): line \(line)")
      }
      XCTAssertFalse(problem.message.isEmpty, "seed \(seed)")
    }
    let configuration = result.configuration
    XCTAssertTrue(RefrainConfiguration.bufferRange.contains(configuration.bufferMs))
    XCTAssertLessThanOrEqual(
      abs(configuration.lyricOffsetMs), RefrainConfiguration.maxLyricOffsetMs)
    XCTAssertEqual(Set(configuration.lyricsSources).count, configuration.lyricsSources.count)
    XCTAssertTrue(configuration.musicFolders.allSatisfy { $0.hasPrefix("/") })
    _ = configuration.keyMap()
    return result
  }

  /// One random edit: delete, duplicate, insert a token, or swap two spans.
  private func mutate(_ scalars: inout [Unicode.Scalar], using random: inout SeededRandom) {
    guard !scalars.isEmpty else { return }
    let start = Int.random(in: 0..<scalars.count, using: &random)
    let end = min(scalars.count, start + Int.random(in: 1...12, using: &random))
    switch Int.random(in: 0..<4, using: &random) {
    case 0:
      scalars.removeSubrange(start..<end)
    case 1:
      scalars.insert(contentsOf: scalars[start..<end], at: end)
    case 2:
      let token = Self.tokens.randomElement(using: &random) ?? ""
      scalars.insert(contentsOf: token.unicodeScalars, at: start)
    default:
      let other = Int.random(in: 0..<scalars.count, using: &random)
      scalars.swapAt(start, other)
    }
  }
}
