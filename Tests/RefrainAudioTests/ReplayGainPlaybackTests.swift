import Foundation
import RefrainCore
import RefrainTestSupport
import XCTest

@testable import RefrainAudio

/// ReplayGain as heard: the player scales by gain and volume in one multiply, and the
/// loudness meter gives ReplayGain 2 values for tones of known level.
final class ReplayGainPlaybackTests: XCTestCase {
  private static let folder: URL = {
    let folder = TestMedia.folder("replaygain-playback")
    func tone(_ name: String, level: String, seconds: String = "3") {
      TestMedia.run(
        "sox",
        [
          "-n", "-r", "44100", "-c", "2", "-b", "16", folder.appendingPathComponent(name).path,
          "synth", seconds, "sine", "1000", "vol", level,
        ])
    }
    tone("half.wav", level: "0.5")
    tone("minus20.wav", level: "-20dB")
    tone("minus26.wav", level: "-26dB")
    return folder
  }()

  override class func tearDown() {
    try? FileManager.default.removeItem(at: folder)
    super.tearDown()
  }

  /// The highest absolute sample of a 16-bit WAV file written by ``WavOutput``.
  private func peak(ofWAV path: String) throws -> Int {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return data.dropFirst(44).withUnsafeBytes { raw in
      raw.bindMemory(to: Int16.self).reduce(0) { max($0, abs(Int($1))) }
    }
  }

  private func play(_ name: String, gain: ReplayGain?, volume: Int, mode: ReplayGainMode) throws
    -> (peak: Int, applied: Double?)
  {
    let source = try TestMedia.path(name, in: Self.folder)
    let out = Self.folder.appendingPathComponent("out-\(UUID().uuidString).wav").path
    defer { try? FileManager.default.removeItem(atPath: out) }
    let policy = ReplayGainPolicy(settings: ReplayGainSettings(mode: mode)) { _ in gain }
    let engine = PlayerEngine(output: WavOutput(path: out), replayGain: policy)
    engine.setVolume(volume)
    engine.play(Track(argument: source), startAt: 0)
    var applied: Double?
    var ended = false
    waitUntil("the end", timeout: 10) {
      if engine.state == .playing { applied = engine.appliedGain ?? applied }
      ended =
        ended || engine.drainEvents().contains { if case .trackEnded = $0 { true } else { false } }
      return ended
    }
    engine.shutdown()
    return (try peak(ofWAV: out), applied)
  }

  func testTheGainAndTheVolumeScaleTogetherAndOffChangesNothing() throws {
    let unchanged = try play(
      "half.wav", gain: ReplayGain(trackGain: -6.0206), volume: 100, mode: .off)
    XCTAssertEqual(Double(unchanged.peak), 16_384, accuracy: 2)
    XCTAssertNil(unchanged.applied)
    let halved = try play(
      "half.wav", gain: ReplayGain(trackGain: -6.0206), volume: 100, mode: .track)
    XCTAssertEqual(Double(halved.peak), 8_192, accuracy: 2)
    XCTAssertEqual(halved.applied ?? 0, -6.0206, accuracy: 1e-6)
    // Half the volume and -6 dB: a quarter, from one multiply (no double rounding).
    let both = try play("half.wav", gain: ReplayGain(trackGain: -6.0206), volume: 50, mode: .track)
    XCTAssertEqual(Double(both.peak), 4_096, accuracy: 2)
    // An untagged file plays unchanged.
    let untagged = try play("half.wav", gain: nil, volume: 100, mode: .track)
    XCTAssertEqual(Double(untagged.peak), 16_384, accuracy: 2)
    XCTAssertNil(untagged.applied)
  }

  func testAGainAboveFullScaleIsClampedNotWrapped() throws {
    let loud = try play("half.wav", gain: ReplayGain(trackGain: 12), volume: 100, mode: .track)
    XCTAssertEqual(loud.peak, 32_768)
  }

  func testTheMeterGivesReplayGain2ValuesForTonesOfKnownLevel() throws {
    // A stereo 1 kHz sine peaking at -20 dBFS measures -20 LUFS: +2 dB to reach -18.
    let quiet = try LoudnessMeter.measure(path: try TestMedia.path("minus20.wav", in: Self.folder))
    XCTAssertEqual(quiet.gain.trackGain ?? 0, 2, accuracy: 0.2)
    XCTAssertEqual(quiet.gain.trackPeak ?? 0, 0.1, accuracy: 0.002)
    let quieter = try LoudnessMeter.measure(
      path: try TestMedia.path("minus26.wav", in: Self.folder))
    XCTAssertEqual(quieter.gain.trackGain ?? 0, 8, accuracy: 0.2)
    // Together: the energy average, 10·log10((10^-2 + 10^-2.6) / 2) = -22.04 LUFS.
    let album = try XCTUnwrap(LoudnessMeter.album([quiet, quieter]))
    XCTAssertEqual(album.gain, 4.04, accuracy: 0.2)
    XCTAssertEqual(album.peak, 0.1, accuracy: 0.002)
  }

  func testTheMeterRefusesAFileItCannotDecode() throws {
    let junk = Self.folder.appendingPathComponent("junk.flac")
    try Data("fLaC but nothing else".utf8).write(to: junk)
    XCTAssertThrowsError(try LoudnessMeter.measure(path: junk.path))
  }
}
