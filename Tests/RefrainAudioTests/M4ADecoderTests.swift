import Foundation
import RefrainCore
import XCTest

@testable import RefrainAudio

/// The faad2 decoder on M4A files made by ffmpeg's AAC encoder: exact lengths after the
/// gapless trim (edit list and iTunSMPB), sample-exact seeks, refused codecs, broken files.
final class M4ADecoderTests: XCTestCase {
  /// Decodes from the current position to the end, returning the interleaved samples.
  private func decodeAll(_ decoder: any AudioDecoder, chunk: Int = 4_608) throws -> [Int16] {
    var samples: [Int16] = []
    var buffer = [UInt8](repeating: 0, count: chunk)
    while true {
      let count = try buffer.withUnsafeMutableBytes { try decoder.read(into: $0) { false } }
      if count == 0 { break }
      buffer.withUnsafeBytes { raw in
        samples.append(contentsOf: raw.bindMemory(to: Int16.self).prefix(count / 2))
      }
    }
    return samples
  }

  /// Reads `frames` stereo frames (fewer at the end).
  private func decode(_ decoder: any AudioDecoder, frames: Int) throws -> [Int16] {
    var samples: [Int16] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while samples.count < frames * 2 {
      let want = min(buffer.count, (frames * 2 - samples.count) * 2)
      let count = try buffer.withUnsafeMutableBytes {
        try decoder.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<want])) { false }
      }
      if count == 0 { break }
      buffer.withUnsafeBytes { raw in
        samples.append(contentsOf: raw.bindMemory(to: Int16.self).prefix(count / 2))
      }
    }
    return samples
  }

  /// The frequency of the left channel of interleaved stereo `samples`, from zero crossings.
  private func frequency(_ samples: [Int16], rate: Int) -> Double {
    let left = stride(from: 0, to: samples.count, by: 2).map { Double(samples[$0]) }
    var crossings = 0
    for index in 1..<left.count where (left[index - 1] < 0) != (left[index] < 0) {
      crossings += 1
    }
    return Double(crossings) / 2 / (Double(left.count) / Double(rate))
  }

  // MARK: - Whole files

  func testStepsDecodeToExactlyTheSourceLengthAfterTheEditList() throws {
    let decoder = try M4ADecoder(path: M4AFixtures.path("steps.m4a"))
    XCTAssertEqual(decoder.format, PCMFormat(sampleRate: 44_100, channels: 2))
    XCTAssertEqual(try XCTUnwrap(decoder.duration), 10, accuracy: 0.001)
    // ffmpeg's encoder delay, and the padding to whole 1024-sample frames.
    XCTAssertEqual(decoder.gaplessTrim.start, 1024)
    XCTAssertEqual((441_000 + 1024 + decoder.gaplessTrim.end) % 1024, 0)
    let samples = try decodeAll(decoder)
    XCTAssertEqual(samples.count / 2, 441_000, "the source's 10 s at 44.1 kHz")
    XCTAssertTrue(decoder.isAtEnd)
    XCTAssertEqual(decoder.position, 10, accuracy: 0.001)
    XCTAssertEqual(decoder.warningCount, 0)
    for second in [0, 4, 9] {
      let part = Array(samples[(second * 44_100 + 4_410) * 2..<(second * 44_100 + 39_690) * 2])
      XCTAssertEqual(frequency(part, rate: 44_100), Double(300 + 50 * second), accuracy: 5)
    }
  }

  func testTheEncoderDelayIsDroppedSoTheToneStartsAtOnce() throws {
    let decoder = try M4ADecoder(path: M4AFixtures.path("steps.m4a"))
    let start = try decode(decoder, frames: 441)
    // The source starts at phase 0 of a 300 Hz sine at -6 dBFS: within 10 ms it is loud.
    XCTAssertGreaterThan(start.map { abs(Int($0)) }.max() ?? 0, 8_000)
  }

  func testITunSMPBGivesTheTrimWhenThereIsNoEditList() throws {
    let decoder = try M4ADecoder(path: M4AFixtures.path("smpb.m4a"))
    XCTAssertEqual(decoder.gaplessTrim.start, 1024)
    XCTAssertEqual(try XCTUnwrap(decoder.duration), 2, accuracy: 0.001)
    let samples = try decodeAll(decoder)
    XCTAssertEqual(samples.count / 2, 88_200)
    XCTAssertEqual(frequency(samples, rate: 44_100), 440, accuracy: 3)
  }

  func testMono22kHzIsDecodedAsStereoAtTheRateFaad2Gives() throws {
    let decoder = try M4ADecoder(path: M4AFixtures.path("mono22k.m4a"))
    XCTAssertEqual(decoder.format.channels, 2)
    // faad2 may decode AAC-LC at 24 kHz or less at twice the rate (implicit SBR); this one
    // does not, but the decoder follows whichever rate faad2 gives.
    let rate = decoder.format.sampleRate
    XCTAssertTrue([22_050, 44_100].contains(rate), "\(rate)")
    XCTAssertEqual(try XCTUnwrap(decoder.duration), 3, accuracy: 0.05)
    let samples = try decodeAll(decoder)
    XCTAssertEqual(Double(samples.count / 2) / Double(rate), 3, accuracy: 0.05)
    let middle = Array(samples[samples.count / 8 * 2..<samples.count / 8 * 6])
    XCTAssertEqual(frequency(middle, rate: rate), 660, accuracy: 5)
    XCTAssertEqual(middle[0], middle[1], "mono is copied to both channels")
  }

  // MARK: - Seeking

  /// A seek lands on the sample: what follows is the unbroken decoding's, up to noise.
  ///
  /// ffmpeg's encoder codes the quiet high bands with perceptual noise substitution, whose
  /// noise comes from a generator in the decoder: a seek restarts it, so the noise (at most
  /// a unit or two here) differs from an unbroken decoding's. A sample off would differ by
  /// hundreds: the tones change by 10 % of full scale or more from one sample to the next.
  func testSeekToAnOddSampleGivesWhatAnUnbrokenDecodingGivesThere() throws {
    let whole = try decodeAll(try M4ADecoder(path: M4AFixtures.path("steps.m4a")))
    let decoder = try M4ADecoder(path: M4AFixtures.path("steps.m4a"))
    for sample in [123_457, 1, 1023, 1024, 0, 440_999, 300_001] {
      let reached = try decoder.seek(to: Double(sample) / 44_100)
      XCTAssertEqual(reached, Double(sample) / 44_100, accuracy: 0.5 / 44_100)
      XCTAssertEqual(decoder.position, reached, accuracy: 1e-9)
      let frames = min(5_000, 441_000 - sample)
      let part = try decode(decoder, frames: frames)
      XCTAssertEqual(part.count, frames * 2, "at \(sample)")
      let expected = whole[sample * 2..<(sample + frames) * 2]
      let difference = zip(part, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
      XCTAssertLessThanOrEqual(difference, 4, "at \(sample)")
    }
    // From the first frames on, the decoding is the unbroken one, noise and all.
    try decoder.seek(to: 1023.0 / 44_100)
    XCTAssertTrue(try decode(decoder, frames: 3_000) == Array(whole[2_046..<8_046]))
  }

  func testSeekLandsOnTheRightToneAndPastTheEndEnds() throws {
    let decoder = try M4ADecoder(path: M4AFixtures.path("steps.m4a"))
    try decoder.seek(to: 7.25)
    XCTAssertEqual(frequency(try decode(decoder, frames: 8_820), rate: 44_100), 650, accuracy: 5)
    let reached = try decoder.seek(to: 60)
    XCTAssertEqual(reached, 10, accuracy: 0.001)
    XCTAssertEqual(try decodeAll(decoder).count, 0)
    XCTAssertTrue(decoder.isAtEnd)
    try decoder.seek(to: 0)
    XCTAssertFalse(decoder.isAtEnd)
    XCTAssertEqual(try decodeAll(decoder).count / 2, 441_000)
  }

  // MARK: - Chosen by content

  func testAnM4ANamedMP3PlaysAsM4AAndAnMP3NamedM4APlaysAsMP3() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-m4a-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let m4a = folder.appendingPathComponent("song.mp3")
    let mp3 = folder.appendingPathComponent("song.m4a")
    try FileManager.default.copyItem(atPath: try M4AFixtures.path("smpb.m4a"), toPath: m4a.path)
    try FileManager.default.copyItem(atPath: try Fixtures.path("tone440.mp3"), toPath: mp3.path)
    let first = try AudioDecoders.open(path: m4a.path)
    XCTAssertTrue(first is M4ADecoder)
    XCTAssertEqual(try decodeAll(first).count / 2, 88_200)
    let second = try AudioDecoders.open(path: mp3.path)
    XCTAssertTrue(second is MP3Decoder)
    XCTAssertEqual(Double(try decodeAll(second).count / 2) / 44_100, 6, accuracy: 0.05)
    XCTAssertEqual(
      AudioDecoders.formatName(ofHead: Array(try Data(contentsOf: m4a).prefix(64))), "M4A")
  }

  // MARK: - Refused and broken files

  func testALACIsRefusedByName() throws {
    let path = try M4AFixtures.path("alac.m4a")
    XCTAssertThrowsError(try AudioDecoders.open(path: path)) { error in
      XCTAssertEqual(error as? AudioError, .unsupportedCodec(name: path, codec: "ALAC"))
      XCTAssertEqual(
        "\(error)",
        "\(path) holds ALAC audio, which Refrain cannot decode yet: "
          + "convert it to FLAC, Opus, AAC or MP3 to play it"
      )
    }
  }

  func testOtherAACKindsAndMP3InsideMP4AreRefusedByName() throws {
    let original = [UInt8](
      try Data(contentsOf: URL(fileURLWithPath: M4AFixtures.path("smpb.m4a"))))
    let esds = try XCTUnwrap(
      (0..<original.count - 4).first { original[$0..<$0 + 4].elementsEqual("esds".utf8) })
    /// Where descriptor `tag` (written by ffmpeg with a 4-byte length) starts its contents.
    func contents(of tag: UInt8) throws -> Int {
      try XCTUnwrap(
        (esds..<original.count - 5).first {
          original[$0..<$0 + 4].elementsEqual([tag, 0x80, 0x80, 0x80])
        }) + 5
    }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-m4a-kinds-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // AAC-LD: audio object type 23 in the AudioSpecificConfig's first 5 bits; MP3: object
    // type indication 0x6B in the decoder configuration.
    let config = try contents(of: 5)
    let decoderConfig = try contents(of: 4)
    for (codec, index, value) in [
      ("AAC-LD", config, 23 << 3 | original[config] & 0x7), ("MP3", decoderConfig, 0x6B),
    ] {
      var bytes = original
      bytes[index] = value
      let file = folder.appendingPathComponent("\(codec).m4a")
      try Data(bytes).write(to: file)
      XCTAssertThrowsError(try AudioDecoders.open(path: file.path)) { error in
        XCTAssertEqual(error as? AudioError, .unsupportedCodec(name: file.path, codec: codec))
      }
    }
  }

  func testAFileCutBeforeItsMoovBoxSaysSo() throws {
    let path = try M4AFixtures.path("cut-moov.m4a")
    XCTAssertThrowsError(try M4ADecoder(path: path)) { error in
      guard case .notPlayable(let name, "M4A", let detail) = error as? AudioError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(name, path)
      XCTAssertTrue(detail.contains("cut short"), detail)
      XCTAssertTrue("\(error)".hasPrefix("\(path) is not playable M4A audio"), "\(error)")
    }
  }

  func testAFileCutInsideItsAudioPlaysWhatIsThereThenSaysWhere() throws {
    let decoder = try M4ADecoder(path: M4AFixtures.path("cut-audio.m4a"))
    XCTAssertEqual(try XCTUnwrap(decoder.duration), 10, accuracy: 0.001, "as the moov box says")
    var frames = 0
    var buffer = [UInt8](repeating: 0, count: 4_608)
    do {
      while true {
        let count = try buffer.withUnsafeMutableBytes { try decoder.read(into: $0) { false } }
        if count == 0 { return XCTFail("the end was reached without an error") }
        frames += count / 4
      }
    } catch {
      guard case .decodeFailed(_, let at, let detail) = error as? AudioError else {
        return XCTFail("\(error)")
      }
      XCTAssertTrue(detail.contains("cut short"), detail)
      // Half the file: a little under 5 s of its audio.
      XCTAssertEqual(Double(frames) / 44_100, 5, accuracy: 0.6)
      XCTAssertEqual(at, Double(frames) / 44_100, accuracy: 0.03)
    }
    XCTAssertTrue(decoder.isAtEnd)
  }

  func testBitFlippedAudioPlaysToTheEndWithSilenceForFramesThatDoNotDecode() throws {
    let decoder = try M4ADecoder(path: M4AFixtures.path("bitflip.m4a"))
    let samples = try decodeAll(decoder)
    // Nothing slips: each frame that does not decode is as long in silence.
    XCTAssertEqual(samples.count / 2, 441_000)
    XCTAssertGreaterThan(decoder.warningCount, 0)
    XCTAssertTrue(decoder.isAtEnd)
  }

  func testEmptyAndMissingFilesAreReportedAsForMP3() throws {
    XCTAssertThrowsError(try M4ADecoder(path: "/nowhere/song.m4a")) { error in
      XCTAssertEqual(
        error as? AudioError, .fileNotReadable(path: "/nowhere/song.m4a", reason: "no such file"))
    }
    let empty = try Fixtures.path("empty.mp3")
    XCTAssertThrowsError(try M4ADecoder(path: empty)) { error in
      XCTAssertEqual(error as? AudioError, .emptyFile(path: empty))
    }
  }

  func testCloseEndsReading() throws {
    let decoder = try M4ADecoder(path: M4AFixtures.path("smpb.m4a"))
    decoder.close()
    XCTAssertEqual(try decodeAll(decoder).count, 0)
    XCTAssertTrue(decoder.isAtEnd)
  }
}

/// The M4A decoder on real files whose `moov` box (the tables the decoder trusts) is
/// mangled at random: it never traps, and it either refuses the file with an `AudioError`
/// or decodes it with its position and duration in agreement.
final class M4ADecoderFuzzTests: XCTestCase {
  func testMangledTablesAreRefusedOrDecodedNeverTrappedOn() throws {
    let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: M4AFixtures.path("smpb.m4a"))))
    // ffmpeg writes moov last: mangle only what follows the audio.
    let moov = try XCTUnwrap(
      (0..<original.count - 8).last { original[$0 + 4..<$0 + 8].elementsEqual("moov".utf8) })
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("refrain-m4a-fuzz-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("mangled.m4a")
    var refused = 0
    var decoded = 0
    for seed in UInt64(1)...150 {
      var random = SeededRandom(seed: seed)
      var bytes = original
      for _ in 0..<Int.random(in: 1...4, using: &random) where moov < bytes.count {
        let index = Int.random(in: moov..<bytes.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: bytes[index] ^= 1 << UInt8.random(in: 0...7, using: &random)
        case 1: bytes[index] = [0, 0xFF, 0x7F, 0x80].randomElement(using: &random) ?? 0
        default: bytes.removeSubrange(index...)
        }
      }
      try Data(bytes).write(to: file)
      let decoder: M4ADecoder
      do {
        decoder = try M4ADecoder(path: file.path)
      } catch {
        XCTAssertNotNil(error as? AudioError, "seed \(seed): \(error)")
        refused += 1
        continue
      }
      var buffer = [UInt8](repeating: 0, count: 4_608)
      var frames = 0
      do {
        while true {
          let count = try buffer.withUnsafeMutableBytes { try decoder.read(into: $0) { false } }
          if count == 0 { break }
          frames += count / 4
        }
        XCTAssertEqual(
          decoder.position, Double(frames) / Double(decoder.format.sampleRate), accuracy: 1e-6,
          "seed \(seed)")
        XCTAssertEqual(
          try XCTUnwrap(decoder.duration), decoder.position, accuracy: 1e-6, "seed \(seed)")
        decoded += 1
      } catch {
        XCTAssertNotNil(error as? AudioError, "seed \(seed): \(error)")
      }
    }
    XCTAssertGreaterThan(refused, 0)
    XCTAssertGreaterThan(decoded, 0)
  }
}
