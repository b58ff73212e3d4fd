import Foundation
import RefrainTestSupport
import XCTest

@testable import RefrainCore
@testable import RefrainTags

/// ReplayGain values: parsing every tag variant, the R128 offset, the mode's choice, the
/// preamp and clipping prevention, and the queue's album context for `auto`.
final class ReplayGainTests: XCTestCase {
  func testGainAndPeakTextsParse() {
    XCTAssertEqual(ReplayGain.gain("-6.20 dB"), -6.2)
    XCTAssertEqual(ReplayGain.gain("+1.50 dB"), 1.5)
    XCTAssertEqual(ReplayGain.gain(" 3 db "), 3)
    XCTAssertEqual(ReplayGain.gain("-7.5dB"), -7.5)
    XCTAssertNil(ReplayGain.gain("loud"))
    XCTAssertNil(ReplayGain.gain("-100 dB"))
    XCTAssertNil(ReplayGain.gain("nan"))
    XCTAssertEqual(ReplayGain.peak("0.988"), 0.988)
    XCTAssertNil(ReplayGain.peak("0"))
    XCTAssertNil(ReplayGain.peak("-1"))
  }

  func testR128GainsMoveFromMinus23ToMinus18LUFS() {
    // Q7.8: -1536 is -6 dB against -23 LUFS, so -1 dB against ReplayGain 2's -18 LUFS.
    XCTAssertEqual(ReplayGain.r128("-1536"), -1)
    XCTAssertEqual(ReplayGain.r128("0"), 5)
    XCTAssertEqual(ReplayGain.r128("256"), 6)
    XCTAssertNil(ReplayGain.r128("-6.0 dB"))
    XCTAssertNil(ReplayGain.r128("40000"))
    let opus = ReplayGain(fields: [
      (key: "R128_TRACK_GAIN", value: "-1536"), (key: "r128_album_gain", value: "-2048"),
    ])
    XCTAssertEqual(opus, ReplayGain(trackGain: -1, albumGain: -3))
  }

  func testReplayGainTagsWinOverR128AndTheFirstValueCounts() {
    let gains = ReplayGain(fields: [
      (key: "R128_TRACK_GAIN", value: "0"),
      (key: "replaygain_track_gain", value: "-4.00 dB"),
      (key: "REPLAYGAIN_TRACK_GAIN", value: "-9.00 dB"),
      (key: "REPLAYGAIN_TRACK_PEAK", value: "0.5"),
      (key: "REPLAYGAIN_ALBUM_GAIN", value: "garbage"),
    ])
    XCTAssertEqual(gains, ReplayGain(trackGain: -4, trackPeak: 0.5))
  }

  func testTheModeChoosesTheGainAndFallsBack() {
    let both = ReplayGain(trackGain: -6, trackPeak: 0.5, albumGain: -4, albumPeak: 0.6)
    let trackOnly = ReplayGain(trackGain: -6)
    let albumOnly = ReplayGain(albumGain: -4)
    func gain(_ mode: ReplayGainMode, _ gains: ReplayGain?, album: Bool = false) -> Double? {
      ReplayGainSettings(mode: mode).gain(for: gains, withinAlbum: album)
    }
    XCTAssertNil(gain(.off, both))
    XCTAssertEqual(gain(.track, both), -6)
    XCTAssertEqual(gain(.album, both), -4)
    XCTAssertEqual(gain(.auto, both), -6)
    XCTAssertEqual(gain(.auto, both, album: true), -4)
    XCTAssertEqual(gain(.album, trackOnly), -6)
    XCTAssertEqual(gain(.track, albumOnly), -4)
    XCTAssertNil(gain(.track, ReplayGain()))
    XCTAssertNil(gain(.track, nil))
    XCTAssertNil(gain(.track, ReplayGain(trackPeak: 0.9)))
  }

  func testThePreampAddsAndThePeakPreventsClipping() {
    let gains = ReplayGain(trackGain: 4, trackPeak: 0.8)
    let headroom = -20 * log10(0.8)  // 1.94 dB
    XCTAssertEqual(
      ReplayGainSettings(mode: .track).gain(for: gains, withinAlbum: false)!, headroom,
      accuracy: 1e-9)
    XCTAssertEqual(
      ReplayGainSettings(mode: .track, preventClipping: false).gain(for: gains, withinAlbum: false),
      4)
    XCTAssertEqual(
      ReplayGainSettings(mode: .track, preamp: -3).gain(for: gains, withinAlbum: false), 1)
    // A quiet gain is never raised to the peak's limit.
    XCTAssertEqual(
      ReplayGainSettings(mode: .track, preamp: 2).gain(
        for: ReplayGain(trackGain: -8, trackPeak: 1.0), withinAlbum: false), -6)
  }

  func testTheQueueTellsWhetherATrackPlaysWithinItsAlbum() {
    func track(_ name: String, album: String?) -> Track {
      Track(
        id: name, location: URL(fileURLWithPath: "/music/\(name).flac"), title: name,
        album: album)
    }
    var queue = PlayQueue(random: SeededRandom(seed: 7))
    queue.replaceAll(
      with: [
        track("a1", album: "Harbor"), track("a2", album: "Harbor"), track("x", album: "Other"),
        track("y", album: nil),
      ], startAt: 0)
    let tracks = queue.tracks
    XCTAssertEqual(queue.forPlayback(tracks[0])?.withinAlbum, true)
    XCTAssertEqual(queue.forPlayback(tracks[1])?.withinAlbum, true)
    XCTAssertEqual(queue.forPlayback(tracks[2])?.withinAlbum, false)
    XCTAssertEqual(queue.forPlayback(tracks[3])?.withinAlbum, false)
    queue.setShuffle(true)
    XCTAssertEqual(queue.forPlayback(tracks[0])?.withinAlbum, false)
    XCTAssertNil(queue.forPlayback(nil))
  }

  func testEveryTagFormatGivesItsGains() throws {
    let folder = TestMedia.folder("replaygain-tags")
    defer { try? FileManager.default.removeItem(at: folder) }
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    TestMedia.run(
      "sox",
      ["-n", "-r", "44100", "-c", "2", "-b", "16", path("tone.wav"), "synth", "1", "sine", "440"])
    TestMedia.run(
      "flac",
      [
        "-s", "-f", "--tag=REPLAYGAIN_TRACK_GAIN=-7.50 dB", "--tag=REPLAYGAIN_TRACK_PEAK=0.91",
        "--tag=REPLAYGAIN_ALBUM_GAIN=-6.00 dB", "--tag=REPLAYGAIN_ALBUM_PEAK=0.95", "-o",
        path("a.flac"), path("tone.wav"),
      ])
    TestMedia.run(
      "oggenc",
      ["-Q", "-c", "REPLAYGAIN_TRACK_GAIN=+2.25 dB", "-o", path("a.ogg"), path("tone.wav")])
    TestMedia.run(
      "opusenc",
      [
        "--quiet", "--comment", "R128_TRACK_GAIN=-1536", "--comment", "R128_ALBUM_GAIN=512",
        path("tone.wav"), path("a.opus"),
      ])
    TestMedia.run(
      "lame",
      [
        "--quiet", "--tv", "TXXX=REPLAYGAIN_TRACK_GAIN=-3.10 dB", "--tv",
        "TXXX=REPLAYGAIN_TRACK_PEAK=0.700000", path("tone.wav"), path("a.mp3"),
      ])
    let m4a = MP4Build.Movie(items: [
      MP4Build.freeform("replaygain_track_gain", "-4.40 dB"),
      MP4Build.freeform("replaygain_album_gain", "-5.00 dB"),
    ])
    try Data(m4a.bytes()).write(to: folder.appendingPathComponent("a.m4a"))
    func gains(_ name: String) throws -> ReplayGain {
      try TagFormats.replayGain(of: URL(fileURLWithPath: try TestMedia.path(name, in: folder)))
    }
    XCTAssertEqual(
      try gains("a.flac"),
      ReplayGain(trackGain: -7.5, trackPeak: 0.91, albumGain: -6, albumPeak: 0.95))
    XCTAssertEqual(try gains("a.ogg"), ReplayGain(trackGain: 2.25))
    XCTAssertEqual(try gains("a.opus"), ReplayGain(trackGain: -1, albumGain: 7))
    XCTAssertEqual(try gains("a.mp3"), ReplayGain(trackGain: -3.1, trackPeak: 0.7))
    XCTAssertEqual(try gains("a.m4a"), ReplayGain(trackGain: -4.4, albumGain: -5))
    XCTAssertEqual(try gains("tone.wav"), ReplayGain())
  }
}
