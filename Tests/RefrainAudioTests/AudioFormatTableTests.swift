import Foundation
import RefrainCore
import RefrainTags
import RefrainTestSupport
import XCTest

@testable import RefrainAudio

/// RefrainCore's `AudioFormat` table and its wiring: every row that is played has a decoder, a
/// tag reader and a tag format; every row's signature recognises a real file of its format
/// (made by the real encoder) and only that; extensions name one format each; and
/// scripts/install-deps installs the Debian package of every decoder.
final class AudioFormatTableTests: XCTestCase {
  /// One short file of each played format, made by the encoders the suite installs.
  private static let folder: URL = {
    let folder = TestMedia.folder("format-table")
    func out(_ name: String) -> String { folder.appendingPathComponent(name).path }
    let wav = out("tone.wav")
    TestMedia.run(
      "sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "1", "sine", "440"])
    TestMedia.run("flac", ["-s", "-f", "-o", out("tone.flac"), wav])
    TestMedia.run("oggenc", ["-Q", "-o", out("tone.ogg"), wav])
    TestMedia.run("opusenc", ["--quiet", wav, out("tone.opus")])
    TestMedia.run("ffmpeg", ["-v", "quiet", "-y", "-i", wav, "-c:a", "aac", out("tone.m4a")])
    TestMedia.run("lame", ["--quiet", "-b", "128", wav, out("tone.mp3")])
    return folder
  }()

  /// A real file of every played format.
  private static let samples: [AudioFormat: String] = [
    .flac: "tone.flac", .oggVorbis: "tone.ogg", .opus: "tone.opus", .wav: "tone.wav",
    .m4a: "tone.m4a", .mp3: "tone.mp3",
  ]

  private func head(_ format: AudioFormat) throws -> [UInt8] {
    let name = try XCTUnwrap(Self.samples[format], "no sample file for \(format)")
    let path = try TestMedia.path(name, in: Self.folder)
    return Array(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(64))
  }

  func testEveryPlayedFormatHasADecoderATagReaderAndASample() throws {
    let played = AudioFormat.allCases.filter { $0.decoder != nil }
    XCTAssertEqual(Set(played), Set(Self.samples.keys), "a played format without a sample file")
    for format in AudioFormat.allCases {
      let decoder = format.decoder
      XCTAssertEqual(decoder != nil, format.tagReader() != nil, "\(format): decoder and tags")
      XCTAssertEqual(decoder != nil, format.tagFormat != nil, "\(format): embedded tags")
      if let decoder {
        XCTAssertEqual(decoder.formatName, format.row.name, "\(format): one name for messages")
      }
    }
  }

  func testEachSignatureRecognisesItsOwnFormatFirst() throws {
    for format in Self.samples.keys {
      XCTAssertEqual(AudioFormat.detect(head: try head(format)), format, "\(format)")
      XCTAssertTrue(format.row.signature(try head(format)), "\(format)")
    }
    XCTAssertNil(AudioFormat.detect(head: Array("shopping list\n".utf8)), "text is no format")
    XCTAssertEqual(AudioFormat.detect(head: Array("DSD ".utf8) + [28]), .dsd)
    XCTAssertEqual(AudioFormat.detect(head: [0xFF, 0xF1, 0x50, 0x80]), .adts, "ADTS, not MP3")
  }

  func testEachExtensionNamesOneFormat() {
    var seen: [String: AudioFormat] = [:]
    for format in AudioFormat.allCases {
      XCTAssertFalse(format.row.extensions.isEmpty, "\(format) has no extension")
      for name in format.row.extensions {
        XCTAssertEqual(name, name.lowercased(), "\(format): extensions are lower case")
        XCTAssertNil(
          seen[name], "\(name) is both \(seen[name].map { "\($0)" } ?? "") and \(format)")
        seen[name] = format
      }
    }
    XCTAssertEqual(AudioFormat.byExtension("FLAC"), .flac)
    XCTAssertTrue(AudioFormat.roomExtensions.isSubset(of: AudioFormat.scannedExtensions))
  }

  func testAPlayedFileIsOpenedByItsDecoderAndReadByItsTagReader() throws {
    for (format, name) in Self.samples {
      let path = try TestMedia.path(name, in: Self.folder)
      let decoder = try AudioDecoders.open(path: path)
      defer { decoder.close() }
      XCTAssertEqual(try XCTUnwrap(decoder.duration, name), 1, accuracy: 0.1, name)
      let info = try AudioTagReader().readTags(atPath: path)
      XCTAssertEqual(try XCTUnwrap(info.duration, name), 1, accuracy: 0.1, "\(format)")
    }
  }

  func testInstallDepsInstallsEveryDecodersDebianPackage() throws {
    let script = try String(
      contentsOf: TestMedia.repositoryRoot.appendingPathComponent("scripts/install-deps"),
      encoding: .utf8)
    let buildLine = try XCTUnwrap(
      script.range(of: #"build_pkgs=\([^)]*\)"#, options: .regularExpression).map { script[$0] })
    let packages = Set(
      buildLine.dropFirst("build_pkgs=(".count).dropLast().split { " \n".contains($0) })
    for format in AudioFormat.allCases {
      guard let package = format.row.debianPackage else { continue }
      XCTAssertTrue(
        packages.contains(Substring(package)), "install-deps lacks \(package) (\(format))")
    }
  }
}
