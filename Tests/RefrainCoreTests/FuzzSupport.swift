import Foundation
import RefrainCore
import XCTest

/// How many cases Refrain's fuzz and property tests run.
///
/// `make test` runs each test's base count; `make fuzz` sets `REFRAIN_FUZZ_SCALE=100` to run
/// a hundred times as many. Every case has its own seed, so a failure names the seed that
/// reproduces it.
enum FuzzScale {
  /// The multiplier from `REFRAIN_FUZZ_SCALE`; 1 when it is unset or not a positive number.
  static let factor = max(
    Int(ProcessInfo.processInfo.environment["REFRAIN_FUZZ_SCALE"] ?? "") ?? 1, 1)

  /// The seeds for a test whose `make test` count is `base`: `first`, `first + 1`, and so on.
  static func seeds(_ base: Int, from first: UInt64) -> Range<UInt64> {
    first..<first + UInt64(base * factor)
  }
}

/// Byte-level mutations shared by the lyrics fuzz tests.
enum FuzzMutation {
  /// Applies one random edit to `bytes`: a bit flip, a changed, inserted or deleted byte,
  /// a truncation, a duplicated run, a spliced run from `donors` or an inserted `token`.
  static func mutate(
    _ bytes: inout [UInt8], tokens: [String], donors: [[UInt8]],
    using random: inout LyricsSeededGenerator
  ) {
    let index = Int.random(in: 0...bytes.count, using: &random)
    let inside = bytes.isEmpty ? nil : min(index, bytes.count - 1)
    switch Int.random(in: 0..<8, using: &random) {
    case 0:
      if let inside { bytes[inside] ^= 1 << UInt8.random(in: 0...7, using: &random) }
    case 1:
      if let inside { bytes[inside] = UInt8.random(in: 0...255, using: &random) }
    case 2:
      if let inside { bytes.remove(at: inside) }
    case 3:
      bytes.insert(UInt8.random(in: 0...255, using: &random), at: index)
    case 4:
      bytes.removeSubrange(index...)
    case 5:
      let end = min(bytes.count, index + Int.random(in: 1...64, using: &random))
      bytes.insert(contentsOf: bytes[index..<end], at: index)
    case 6:
      guard let donor = donors.randomElement(using: &random), !donor.isEmpty else { return }
      let start = Int.random(in: 0..<donor.count, using: &random)
      let end = min(donor.count, start + Int.random(in: 1...256, using: &random))
      bytes.insert(contentsOf: donor[start..<end], at: index)
    default:
      bytes.insert(contentsOf: Array((tokens.randomElement(using: &random) ?? "").utf8), at: index)
    }
  }
}

/// Checks the invariants every lyrics document keeps, however broken its file was.
///
/// Lines are sorted by time with no negative times, word lists are never empty, plain
/// lyrics sit at 0 ms with nothing skipped, the offset is within range and the document
/// renders as valid JSON.
func assertLyricsWellFormed(
  _ document: LyricsDocument, _ input: @autoclosure () -> String,
  file: StaticString = #filePath, line: UInt = #line
) {
  let times = document.lines.map(\.ms)
  XCTAssertTrue(
    zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, input(), file: file, line: line)
  XCTAssertTrue(times.allSatisfy { $0 >= 0 }, input(), file: file, line: line)
  XCTAssertGreaterThanOrEqual(document.skipped, 0, input(), file: file, line: line)
  XCTAssertLessThanOrEqual(
    abs(document.offsetMs), LRCParser.maxOffsetMs, input(), file: file, line: line)
  XCTAssertTrue(
    document.lines.allSatisfy { $0.words.map { !$0.isEmpty } ?? true }, input(),
    file: file, line: line)
  if !document.isSynced {
    XCTAssertEqual(document.skipped, 0, input(), file: file, line: line)
    XCTAssertTrue(times.allSatisfy { $0 == 0 }, input(), file: file, line: line)
  }
  XCTAssertNoThrow(
    try JSONSerialization.jsonObject(with: document.jsonData()), input(), file: file, line: line)
}
