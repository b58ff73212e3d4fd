import Foundation
import RefrainTestSupport
import XCTest

@testable import RefrainAudio

/// Every format over HTTP from a real server on 127.0.0.1 (`Tests/Fixtures/ranges`): the
/// same decoder as for the local file, chosen by the bytes, gives the same PCM, with and
/// without range requests, and seeks land where the local decoder's do, also beyond what
/// has arrived.
final class HTTPDecodersTests: RangeServerTestCase {
  /// 20 s of a tone that rises a semitone a second, stereo, and its encodings by the real
  /// encoders; ffmpeg writes the M4A's `moov` after its audio.
  private static let folder: URL = {
    let folder = TestMedia.folder("http-decoders")
    let wav = folder.appendingPathComponent("steps.wav").path
    var parts: [String] = []
    for step in 0..<20 {
      let part = folder.appendingPathComponent("part\(step).wav").path
      let frequency = 440 * pow(2, Double(step) / 12)
      TestMedia.run(
        "sox",
        ["-n", "-r", "44100", "-c", "2", "-b", "16", part, "synth", "1", "sine", "\(frequency)"])
      parts.append(part)
    }
    // Quiet noise under the tones gives the lossy encoders something to spend bytes on.
    let tones = folder.appendingPathComponent("tones.wav").path
    let noise = folder.appendingPathComponent("noise.wav").path
    TestMedia.run("sox", parts + [tones])
    TestMedia.run(
      "sox",
      ["-n", "-r", "44100", "-c", "2", "-b", "16", noise, "synth", "20", "pinknoise", "vol", "0.1"])
    TestMedia.run("sox", ["-m", tones, noise, wav])
    for part in parts + [tones, noise] { try? FileManager.default.removeItem(atPath: part) }
    func out(_ name: String) -> String { folder.appendingPathComponent(name).path }
    TestMedia.run("flac", ["-s", "-f", "-o", out("steps.flac"), wav])
    TestMedia.run("oggenc", ["-Q", "-o", out("steps.ogg"), wav])
    TestMedia.run("opusenc", ["--quiet", wav, out("steps.opus")])
    TestMedia.run(
      "ffmpeg", ["-v", "quiet", "-y", "-i", wav, "-c:a", "aac", "-b:a", "128k", out("steps.m4a")])
    TestMedia.run("lame", ["--quiet", "-b", "192", wav, out("steps.mp3")])
    try? Data(Array("wvpk".utf8) + [UInt8](repeating: 0, count: 60)).write(
      to: URL(fileURLWithPath: out("song.wv.mp3")))
    if FileManager.default.fileExists(atPath: out("steps.flac")) {
      try? FileManager.default.copyItem(atPath: out("steps.flac"), toPath: out("really-flac.mp3"))
    }
    return folder
  }()

  /// The files, with the decoder each is opened with.
  private static let formats: [(String, String)] = [
    ("steps.flac", "FLACDecoder"), ("steps.ogg", "VorbisDecoder"), ("steps.opus", "OpusDecoder"),
    ("steps.wav", "WAVDecoder"), ("steps.m4a", "M4ADecoder"), ("steps.mp3", "MP3Decoder"),
  ]

  override class var media: URL { folder }

  override func setUpWithError() throws {
    for (name, _) in Self.formats { _ = try TestMedia.path(name, in: Self.folder) }
    try super.setUpWithError()
  }

  private func open(_ path: String) throws -> any AudioDecoder {
    try AudioDecoders.open(url: server.url(path), shouldStop: { false })
  }

  private func local(_ name: String) throws -> any AudioDecoder {
    try AudioDecoders.open(path: try TestMedia.path(name, in: Self.folder))
  }

  /// Up to `limit` samples the decoder gives from where it is, as 16-bit values.
  private func decode(_ decoder: any AudioDecoder, limit: Int = .max) throws -> [Int16] {
    var samples: [Int16] = []
    var buffer = [UInt8](repeating: 0, count: 8192)
    while samples.count < limit {
      let count = try buffer.withUnsafeMutableBytes {
        try decoder.read(into: $0, shouldStop: { false })
      }
      if count == 0 {
        if decoder.isAtEnd { break }
        continue
      }
      buffer.withUnsafeBytes { bytes in
        samples += (0..<count / 2).map {
          bytes.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self)
        }
      }
    }
    return Array(samples.prefix(limit))
  }

  // MARK: - Whole tracks

  func testEachFormatOverHTTPGivesThePCMOfTheLocalFile() throws {
    for (name, type) in Self.formats {
      let remote = try open("/files/\(name)")
      let file = try local(name)
      XCTAssertEqual("\(Swift.type(of: remote))", type, name)
      XCTAssertEqual(remote.format, file.format, name)
      XCTAssertEqual(
        try XCTUnwrap(remote.duration), try XCTUnwrap(file.duration), accuracy: 0.03, name)
      let heard = try decode(remote)
      let expected = try decode(file)
      XCTAssertEqual(heard.count, expected.count, name)
      XCTAssertTrue(heard == expected, "\(name): the PCM differs from the local decoding")
      XCTAssertTrue(remote.isAtEnd, name)
    }
  }

  func testAServerWithoutRangesPlaysEveryFormatToo() throws {
    for (name, _) in Self.formats {
      let heard = try decode(try open("/plain/\(name)"))
      XCTAssertTrue(heard == (try decode(try local(name))), "\(name) without ranges")
    }
  }

  func testAnOggStreamOfUnknownLengthPlaysToItsEndWithoutADuration() throws {
    // A server transcoding as it sends gives no length: the end is not where the bytes
    // stop when the decoder opens (libopusfile and libvorbisfile would take it so).
    for name in ["steps.opus", "steps.ogg"] {
      let remote = try open("/unsized/200000/\(name)")
      XCTAssertNil(remote.duration, name)
      XCTAssertThrowsError(try remote.seek(to: 15), "\(name): no bytes map to time")
      let heard = try decode(remote)
      XCTAssertTrue(heard == (try decode(try local(name))), "\(name) of unknown length")
      XCTAssertTrue(remote.isAtEnd, name)
    }
  }

  func testTheBytesChooseTheDecoderNotTheName() throws {
    XCTAssertTrue(try open("/files/really-flac.mp3") is FLACDecoder)
    let wavPack = server.url("/files/song.wv.mp3").absoluteString
    XCTAssertThrowsError(try open("/files/song.wv.mp3")) { error in
      XCTAssertEqual(error as? AudioError, .unsupportedCodec(name: wavPack, codec: "WavPack"))
    }
  }

  func testAMissingURLIsItsHTTPStatusNamingTheURL() {
    let url = server.url("/files/nothing.flac").absoluteString
    XCTAssertThrowsError(try open("/files/nothing.flac")) { error in
      XCTAssertEqual(error as? AudioError, .httpStatus(url: url, status: 404))
      XCTAssertTrue("\(error)".contains(url), "\(error)")
    }
  }

  // MARK: - Seeks

  func testASeekBeyondWhatHasArrivedLandsWhereTheLocalDecoderLands() throws {
    // FLAC, WAV and M4A find the bytes of 13.37 s from their seek table, header or sample
    // table, and ask for them at once, over a link three times as fast as the track's bit
    // rate (the bytes at 13.37 s would take 4.5 s to arrive in order). libvorbisfile and
    // libopusfile decide for themselves what to read: for these 200 KB files they read on
    // from the head, as from a file, so they seek over a fast link.
    let jumps = ["steps.flac", "steps.wav", "steps.m4a"]
    for (name, _) in Self.formats where name != "steps.mp3" {
      let size =
        try FileManager.default.attributesOfItem(
          atPath: try TestMedia.path(name, in: Self.folder))[.size] as? Int ?? 0
      let remote = try open(
        jumps.contains(name) ? "/slow/\(size * 3 / 20)/\(name)" : "/files/\(name)")
      let started = Date()
      let landed = try remote.seek(to: 13.37)
      let heard = try decode(remote, limit: 8192)
      let took = Date().timeIntervalSince(started)
      if jumps.contains(name) {
        XCTAssertLessThan(took, 1, "\(name): the seek waited for the bytes before it")
        XCTAssertTrue(
          try server.log().map(\.range).contains {
            $0.map { Self.start(of: $0) > size / 2 } ?? false
          },
          "\(name): no range request near the seek target")
      }
      let file = try local(name)
      XCTAssertEqual(landed, try file.seek(to: 13.37), accuracy: 1e-9, name)
      XCTAssertTrue(heard == (try decode(file, limit: 8192)), "\(name): the PCM after the seek")
      XCTAssertEqual(remote.position, file.position, accuracy: 1e-9, name)
    }
  }

  /// The first byte a `bytes=A-` range asks for.
  private static func start(of range: String) -> Int {
    Int(range.dropFirst("bytes=".count).prefix { $0 != "-" }) ?? 0
  }
}
