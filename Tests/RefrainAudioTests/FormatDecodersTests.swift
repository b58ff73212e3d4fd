import Foundation
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainAudio

/// FLAC, Ogg Vorbis, Opus and WAV, each decoded from a file the real encoder made: every
/// frame, exact seeks, damaged files, and names that lie.
final class FormatDecodersTests: XCTestCase {
  /// The media, made once: 2 s of a 440 Hz tone, stereo, and its encodings.
  private static let folder: URL = {
    let folder = TestMedia.folder("formats")
    let wav = folder.appendingPathComponent("tone.wav").path
    let wav24 = folder.appendingPathComponent("tone24.wav").path
    TestMedia.run(
      "sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "2", "sine", "440"])
    TestMedia.run(
      "sox", ["-n", "-r", "44100", "-c", "2", "-b", "24", wav24, "synth", "2", "sine", "440"])
    TestMedia.run(
      "flac", ["-s", "-f", "-o", folder.appendingPathComponent("tone.flac").path, wav24])
    TestMedia.run("oggenc", ["-Q", "-o", folder.appendingPathComponent("tone.ogg").path, wav])
    TestMedia.run("opusenc", ["--quiet", wav, folder.appendingPathComponent("tone.opus").path])
    return folder
  }()

  override class func tearDown() {
    try? FileManager.default.removeItem(at: folder)
    super.tearDown()
  }

  private func media(_ name: String) throws -> String { try TestMedia.path(name, in: Self.folder) }

  /// Every sample the decoder gives, as 16-bit values.
  private func decodeAll(_ decoder: any AudioDecoder, limit: Int = .max) throws -> [Int16] {
    var samples: [Int16] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while samples.count < limit {
      let count = try buffer.withUnsafeMutableBytes {
        try decoder.read(into: $0, shouldStop: { false })
      }
      if count == 0 { break }
      buffer.withUnsafeBytes { bytes in
        samples += (0..<count / 2).map {
          bytes.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self)
        }
      }
    }
    return Array(samples.prefix(limit))
  }

  func testEachFormatIsChosenByItsBytesAndDecodesEveryFrame() throws {
    let cases: [(String, String, Int, Int)] = [
      ("tone.flac", "FLACDecoder", 44_100, 88_200), ("tone.ogg", "VorbisDecoder", 44_100, 88_200),
      ("tone.opus", "OpusDecoder", 48_000, 96_000), ("tone.wav", "WAVDecoder", 44_100, 88_200),
      ("tone24.wav", "WAVDecoder", 44_100, 88_200),
    ]
    for (name, type, rate, frames) in cases {
      let decoder = try AudioDecoders.open(path: try media(name))
      XCTAssertEqual("\(Swift.type(of: decoder))", type, name)
      XCTAssertEqual(decoder.format.sampleRate, rate, name)
      XCTAssertEqual(decoder.format.channels, 2, name)
      XCTAssertEqual(
        try XCTUnwrap(decoder.duration), Double(frames) / Double(rate), accuracy: 0.01, name)
      let samples = try decodeAll(decoder)
      XCTAssertEqual(samples.count / 2, frames, "\(name): every frame, without padding")
      XCTAssertTrue(decoder.isAtEnd, name)
      let loudest = samples.dropFirst(20_000).prefix(20_000).map { abs(Int($0)) }.max() ?? 0
      XCTAssertGreaterThan(loudest, 10_000, "\(name) is heard (a full-scale tone)")
    }
  }

  func testASeekToAnOddSampleLandsOnThatSample() throws {
    for (name, exact) in [
      ("tone.flac", true), ("tone.wav", true), ("tone.ogg", false), ("tone.opus", false),
    ] {
      let whole = try decodeAll(try AudioDecoders.open(path: try media(name)))
      let decoder = try AudioDecoders.open(path: try media(name))
      let rate = Double(decoder.format.sampleRate)
      let target = 0.7371
      let landed = try decoder.seek(to: target)
      let frame = Int((target * rate).rounded())
      XCTAssertEqual(landed, Double(frame) / rate, accuracy: 1e-9, name)
      var buffer = [UInt8](repeating: 0, count: 1024)  // 256 frames
      var after: [Int16] = []
      while after.count < 512 {
        let count = try buffer.withUnsafeMutableBytes {
          try decoder.read(
            into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<(1024 - after.count * 2)]),
            shouldStop: { false })
        }
        guard count > 0 else { break }
        buffer.withUnsafeBytes { bytes in
          after += (0..<count / 2).map {
            bytes.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self)
          }
        }
      }
      if exact {
        let expected = Array(whole[(frame * 2)..<(frame * 2 + 512)])
        XCTAssertEqual(after, expected, "\(name): the seek lands on the sample")
      } else {
        // Lossy decoders start afresh after a seek: the tone heard is the one a whole decode
        // gives there, within a few samples (less than a tenth of a millisecond).
        let lag = (-48...48).min { lhs, rhs in
          func error(_ lag: Int) -> Int {
            (0..<200).map { abs(Int(after[$0 * 2]) - Int(whole[(frame + $0 + lag) * 2])) }.reduce(
              0, +)
          }
          return error(lhs) < error(rhs)
        }
        XCTAssertLessThanOrEqual(
          abs(lag ?? 99), 4, "\(name): the seek lands \(lag ?? 99) samples off")
      }
      XCTAssertEqual(decoder.position, Double(frame + 256) / rate, accuracy: 1e-6, name)
    }
  }

  func testANameThatLiesDoesNotMatter() throws {
    let lying = Self.folder.appendingPathComponent("really-flac.mp3")
    try? FileManager.default.removeItem(at: lying)
    try FileManager.default.copyItem(atPath: try media("tone.flac"), toPath: lying.path)
    XCTAssertTrue(try AudioDecoders.open(path: lying.path) is FLACDecoder)
    let opus = Self.folder.appendingPathComponent("really-opus.ogg")
    try? FileManager.default.removeItem(at: opus)
    try FileManager.default.copyItem(atPath: try media("tone.opus"), toPath: opus.path)
    XCTAssertTrue(try AudioDecoders.open(path: opus.path) is OpusDecoder)
  }

  func testDamagedAndTruncatedFilesGiveOneClearLineAndNeverTrap() throws {
    for name in ["tone.flac", "tone.ogg", "tone.opus", "tone.wav"] {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: try media(name)))
      // Cut in half: what is there plays, then the end.
      let half = Self.folder.appendingPathComponent("half-" + name)
      try bytes.prefix(bytes.count / 2).write(to: half)
      if let decoder = try? AudioDecoders.open(path: half.path) {
        let samples = (try? decodeAll(decoder)) ?? []
        XCTAssertLessThan(samples.count / 2, 96_000, name)
      }
      // Only the first bytes, then zeros: an error naming the format, or nothing to play.
      let broken = Self.folder.appendingPathComponent("broken-" + name)
      try (bytes.prefix(8) + Data(count: 4096)).write(to: broken)
      do {
        let decoder = try AudioDecoders.open(path: broken.path)
        XCTAssertEqual(try decodeAll(decoder).count, 0, name)
      } catch {
        XCTAssertFalse("\(error)".contains("\n"), "one line: \(error)")
        XCTAssertTrue("\(error)".hasPrefix(broken.path), "\(error)")
      }
    }
    // Seeded garbage after each format's signature never traps.
    var generator = SeededRandom(seed: 27)
    for signature in ["fLaC", "OggS", "RIFF"] {
      for round in 0..<20 {
        var bytes = Array(signature.utf8)
        if signature == "RIFF" { bytes += [0, 0, 0, 0] + Array("WAVEfmt ".utf8) }
        bytes += (0..<Int(generator.next() % 2048)).map { _ in
          UInt8(truncatingIfNeeded: generator.next())
        }
        let file = Self.folder.appendingPathComponent("fuzz-\(signature)-\(round)")
        try Data(bytes).write(to: file)
        if let decoder = try? AudioDecoders.open(path: file.path) {
          _ = try? decodeAll(decoder, limit: 1 << 20)
          _ = try? decoder.seek(to: 0.5)
        }
      }
    }
  }
}
