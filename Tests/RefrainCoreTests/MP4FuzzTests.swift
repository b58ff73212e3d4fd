import Foundation
import XCTest

@testable import RefrainCore

/// The MP4 box reader under random and mangled files: it never traps or hangs, and what it
/// accepts is consistent (covers and samples lie inside the file, positions agree however
/// they are found, gapless numbers are never negative).
///
/// Each test runs its base count of cases under `make test` and a hundred times as many
/// under `make fuzz` (see `FuzzScale`); a failure names the seed that reproduces it.
final class MP4FuzzTests: XCTestCase {
  /// Box types and sizes that mutations insert.
  private static let tokens = [
    "moov", "trak", "mdia", "minf", "stbl", "stsd", "mp4a", "esds", "stsz", "stz2", "stco",
    "co64", "stsc", "stts", "edts", "elst", "udta", "meta", "ilst", "data", "----", "covr",
    "mean", "name", "hdlr", "soun", "\u{0}\u{0}\u{0}\u{1}", "\u{0}\u{0}\u{0}\u{0}",
    "\u{0}\u{0}\u{0}\u{8}", "\u{0}\u{0}\u{0}\u{10}", "\u{7F}\u{7F}\u{7F}\u{7F}",
  ]

  /// A well-formed movie with random tables, edits and tags.
  private static func randomMovie(_ random: inout LyricsSeededGenerator) -> MP4Build.Movie {
    var movie = MP4Build.Movie()
    movie.codec = ["mp4a", "mp4a", "mp4a", "alac"].randomElement(using: &random) ?? "mp4a"
    movie.objectType = [0x40, 0x40, 0x67, 0x6B].randomElement(using: &random) ?? 0x40
    movie.sizes = (0..<Int.random(in: 0...40, using: &random)).map { _ in
      UInt32.random(in: 0...300, using: &random)
    }
    var first: UInt32 = 1
    movie.chunkRuns = (0..<Int.random(in: 1...4, using: &random)).map { _ in
      defer { first += UInt32.random(in: 1...3, using: &random) }
      return (first, UInt32.random(in: 1...8, using: &random))
    }
    movie.largeOffsets = Bool.random(using: &random)
    movie.longEdits = Bool.random(using: &random)
    movie.edits = (0..<Int.random(in: 0...3, using: &random)).map { _ in
      (UInt64.random(in: 0...2_000, using: &random), Int64.random(in: -1...3_000, using: &random))
    }
    movie.mediaDuration = UInt64.random(in: 0...60_000, using: &random)
    movie.plainMeta = Bool.random(using: &random)
    movie.fragmented = Int.random(in: 0..<8, using: &random) == 0
    let items: [[UInt8]] = [
      MP4Build.text("©nam", "제목"), MP4Build.text("©lyr", "[00:01.00]a"),
      MP4Build.pair("trkn", 3, 10), MP4Build.freeform("ISRC", "USRC17607839"),
      MP4Build.freeform("iTunSMPB", " 00000000 00000840 000001CA 0000000000002710"),
      MP4Build.item("covr", dataType: 14, [0x89, 0x50, 0x4E, 0x47, 1, 2, 3]),
      MP4Build.item("trkn", dataType: 1, Array("4/9".utf8)),
    ]
    movie.items = items.filter { _ in Bool.random(using: &random) }
    return movie
  }

  /// What reading `bytes` came to.
  private enum Outcome {
    case refused
    case tagsOnly
    case samples
  }

  /// Reads everything the player and the tag readers read, checking what they rely on.
  private func exercise(_ bytes: [UInt8], seed: UInt64) -> Outcome {
    let reader = MP4BoxReader(MP4MemorySource(bytes))
    let length = UInt64(bytes.count)
    let movie: MP4Movie
    do {
      let (read, tags) = try MP4Metadata.read(from: reader)
      movie = read
      if let cover = tags.cover {
        XCTAssertLessThanOrEqual(cover.offset + cover.size, length, "seed \(seed)")
      }
    } catch {
      return .refused
    }
    guard let audio = movie.audio else { return .tagsOnly }
    for rate in [8_000, 44_100, 96_000] {
      let gapless = audio.gapless(movieTimescale: movie.timescale, outputRate: rate, iTunSMPB: nil)
      XCTAssertGreaterThanOrEqual(gapless.delay, 0, "seed \(seed)")
      XCTAssertGreaterThanOrEqual(gapless.length, 0, "seed \(seed)")
    }
    guard let table = try? MP4SampleTable.read(audio, from: reader) else { return .tagsOnly }
    XCTAssertLessThanOrEqual(table.count, MP4SampleTable.maxSamples, "seed \(seed)")
    let available = table.availableSamples(within: length)
    XCTAssertLessThanOrEqual(available, table.count, "seed \(seed)")
    guard table.count > 0 else { return .samples }
    var position = table.position(of: 0)
    for sample in 0..<min(available, 2_000) {
      XCTAssertEqual(position, table.position(of: sample), "seed \(seed)")
      XCTAssertLessThanOrEqual(
        position.offset + UInt64(table.size(of: sample)), length, "seed \(seed)")
      table.advance(&position)
    }
    return .samples
  }

  func testMangledMoviesNeverTrapAndWhatIsReadLiesInsideTheFile() {
    var outcomes: [Outcome: Int] = [:]
    for seed in FuzzScale.seeds(600, from: 0x4D50_3400) {
      var random = LyricsSeededGenerator(seed: seed)
      let donor = Self.randomMovie(&random).bytes()
      var bytes = Self.randomMovie(&random).bytes()
      for _ in 0..<Int.random(in: 0...6, using: &random) {
        FuzzMutation.mutate(&bytes, tokens: Self.tokens, donors: [donor], using: &random)
      }
      outcomes[exercise(bytes, seed: seed), default: 0] += 1
    }
    // The generator reaches every outcome: refused files, tags alone, whole sample tables.
    XCTAssertGreaterThan(outcomes[.refused, default: 0], 0, "\(outcomes)")
    XCTAssertGreaterThan(outcomes[.tagsOnly, default: 0], 0, "\(outcomes)")
    XCTAssertGreaterThan(outcomes[.samples, default: 0], 0, "\(outcomes)")
  }

  func testRandomBytesAfterAnFtypBoxNeverTrap() {
    var refused = 0
    for seed in FuzzScale.seeds(300, from: 0x4D50_3500) {
      var random = LyricsSeededGenerator(seed: seed)
      var bytes = MP4Build.box("ftyp", Array("M4A ".utf8))
      for _ in 0..<Int.random(in: 0...12, using: &random) {
        let kind = Self.tokens.randomElement(using: &random) ?? "moov"
        let payload = (0..<Int.random(in: 0...64, using: &random)).map { _ in
          UInt8.random(in: 0...255, using: &random)
        }
        bytes += Bool.random(using: &random) ? MP4Build.box(kind, payload) : payload
      }
      if exercise(bytes, seed: seed) == .refused { refused += 1 }
    }
    XCTAssertGreaterThan(refused, 0)
  }
}
