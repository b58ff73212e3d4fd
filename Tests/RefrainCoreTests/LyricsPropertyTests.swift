import Foundation
import RefrainCore
import XCTest

/// Property tests with a seeded generator: whatever file a user opens, parsing never crashes,
/// output stays sorted, and the timeline's binary searches agree with a plain linear scan.
///
/// The random and mutated-file tests run 3,000 and 1,000 cases, a hundred times as many
/// under `make fuzz` (see `FuzzScale`).
final class LyricsPropertyTests: XCTestCase {
  // MARK: - Random input

  /// Pieces that random LRC lines are assembled from: valid and broken syntax, CJK, noise.
  private static let fragments = [
    "[00:01.00]", "[1:2]", "[00:16:200]", "[123:45.67]", "[1:02:33.45]", "[ 1 : 00 ]",
    "[01:60.00]", "[-1:00]", "[00:01.", "[", "]", "<", ">", "<00:01.50>", "<1:02.3>", "[ar:",
    "[offset:", "+500", "-99999999999999999999", "[:]", "[tt]", "[tr:ja]", "eng||", ":", ".",
    ",", "0", "59", "99", "12345678901", " ", "  ", "\t", "\n", "\r", "\r\n", "\u{FEFF}",
    "la", "words", "연주", "銀の龍", "é", "\u{1B}", "\0",
  ]

  private func randomLRC(_ random: inout LyricsSeededGenerator) -> String {
    let count = Int.random(in: 0...60, using: &random)
    return (0..<count).map { _ in
      Self.fragments.randomElement(using: &random) ?? ""
    }.joined()
  }

  private func randomSyncedLRC(_ random: inout LyricsSeededGenerator) -> String {
    let count = Int.random(in: 1...40, using: &random)
    return (0..<count).map { index in
      let ms = Int.random(in: 0...400_000, using: &random)
      let stamp = String(format: "[%02d:%02d.%03d]", ms / 60_000, ms / 1000 % 60, ms % 1000)
      guard Bool.random(using: &random) else { return stamp + "line \(index)" }
      let words = (0..<Int.random(in: 1...4, using: &random)).map { word in
        let wordMs = ms + Int.random(in: -500...3_000, using: &random)
        let clamped = max(0, wordMs)
        let tag = String(
          format: "<%02d:%02d.%02d>", clamped / 60_000, clamped / 1000 % 60, clamped % 1000 / 10)
        return tag + "w\(word) "
      }
      return stamp + words.joined()
    }.joined(separator: Bool.random(using: &random) ? "\n" : "\r\n")
  }

  /// Tokens that mutations insert into real LRC files: tag openers and numbers near limits.
  private static let mutationTokens = [
    "[0:", "[", "]", "<", ">", ":", ".", "[00:01.00]", "<00:01.50>", "[offset:", "-",
    "999999999", "9999999999", "\n", "\r", "\u{FEFF}", "\0",
  ]

  func test_randomInput_neverCrashesAndStaysSorted() {
    for seed in FuzzScale.seeds(3_000, from: 0x5EED_0001_0000_0000) {
      var random = LyricsSeededGenerator(seed: seed)
      let lrc = randomLRC(&random)
      assertLyricsWellFormed(LRCParser.parse(lrc), "seed \(seed): \(lrc.debugDescription)")
    }
  }

  func test_mutatedFixtures_neverCrashAndStaySorted() throws {
    let sources = try LyricsFixtures.realLRCFiles().map { [UInt8](try Data(contentsOf: $0)) }
    for seed in FuzzScale.seeds(1_000, from: 0x5EED_0002_0000_0000) {
      var random = LyricsSeededGenerator(seed: seed)
      var bytes = sources[Int(seed % UInt64(sources.count))]
      for _ in 0..<Int.random(in: 1...12, using: &random) {
        FuzzMutation.mutate(
          &bytes, tokens: Self.mutationTokens, donors: sources, using: &random)
      }
      // `load` parses LRC as `LRCParser.parse(data:)` does, unless the file opens with `{`.
      do {
        assertLyricsWellFormed(try LyricsDocument.load(data: Data(bytes)), "seed \(seed)")
      } catch {
        guard case .invalidFLOSong = error as? LyricsError else {
          return XCTFail("seed \(seed): unexpected \(error)")
        }
        assertLyricsWellFormed(LRCParser.parse(data: Data(bytes)), "seed \(seed)")
      }
    }
  }

  func test_renderedTimeline_parsesBackToTheSameLines() {
    var random = LyricsSeededGenerator(seed: 0x5EED_0003)
    for _ in 0..<300 {
      let document = LRCParser.parse(randomSyncedLRC(&random))
      let plainLines = document.lines.map { LyricLine(ms: $0.ms, text: $0.text) }
      XCTAssertEqual(LRCParser.parse(document.timelineText()).lines, plainLines)
    }
  }

  // MARK: - Timeline against a linear scan

  /// Effective start times in seconds, computed the slow and obvious way.
  private func linearTimes(_ document: LyricsDocument, userOffsetMs: Int) -> [Double] {
    document.lines.map { Double($0.ms - document.offsetMs - userOffsetMs) / 1000 }
  }

  /// Every line and word start, with word times never going back within a line.
  private func linearChanges(_ document: LyricsDocument, userOffsetMs: Int) -> [Double] {
    var changes = linearTimes(document, userOffsetMs: userOffsetMs)
    for line in document.lines {
      var latest = -Double.infinity
      for word in line.words ?? [] {
        latest = max(latest, Double(word.ms - document.offsetMs - userOffsetMs) / 1000)
        changes.append(latest)
      }
    }
    return changes
  }

  func test_timeline_agreesWithLinearScan() {
    var random = LyricsSeededGenerator(seed: 0x5EED_0004)
    for _ in 0..<300 {
      var lrc = randomSyncedLRC(&random)
      if Bool.random(using: &random) {
        lrc = "[offset:\(Int.random(in: -3_000...3_000, using: &random))]\n" + lrc
      }
      let document = LRCParser.parse(lrc)
      let userOffsetMs = Int.random(in: -2_000...2_000, using: &random)
      let timeline = LyricTimeline(document: document, userOffsetMs: userOffsetMs)
      let times = linearTimes(document, userOffsetMs: userOffsetMs)
      let changes = linearChanges(document, userOffsetMs: userOffsetMs)

      var probes = (0..<40).map { _ in Double.random(in: -5...420, using: &random) }
      probes += times + times.map { $0.nextDown } + times.map { $0.nextUp }
      for t in probes {
        XCTAssertEqual(timeline.index(at: t), times.lastIndex { $0 <= t }, "index at \(t)")
        XCTAssertEqual(timeline.nextChange(after: t), times.filter { $0 > t }.min(), "after \(t)")
        XCTAssertEqual(
          timeline.nextChange(after: t, includeWords: true), changes.filter { $0 > t }.min(),
          "words after \(t)")
        if let line = timeline.index(at: t) {
          var latest = -Double.infinity
          let wordTimes = (document.lines[line].words ?? []).map { word -> Double in
            latest = max(latest, Double(word.ms - document.offsetMs - userOffsetMs) / 1000)
            return latest
          }
          XCTAssertEqual(
            timeline.wordIndex(line: line, at: t), wordTimes.lastIndex { $0 <= t }, "word at \(t)")
        }
      }
    }
  }
}
