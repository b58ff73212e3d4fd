import Foundation
import RefrainArt
import XCTest

/// A temporary folder for one test, removed when the test ends.
final class TemporaryFolder {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "refrain-art-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  func write(_ name: String, _ data: Data) throws -> URL {
    let file = url.appendingPathComponent(name)
    try data.write(to: file)
    return file
  }
}

/// Test images made by ImageMagick (`convert`, from `scripts/install-deps test`) at test time.
enum ImageMagick {
  /// The 4×4 test picture, as exact pixels (a plain PPM that `convert` reads losslessly).
  static let fourByFour: [[RGB]] = [
    [RGB(255, 0, 0), RGB(0, 255, 0), RGB(0, 0, 255), RGB(255, 255, 255)],
    [RGB(0, 0, 0), RGB(128, 128, 128), RGB(255, 255, 0), RGB(0, 255, 255)],
    [RGB(255, 0, 0), RGB(255, 0, 0), RGB(0, 0, 255), RGB(0, 0, 255)],
    [RGB(10, 20, 30), RGB(40, 50, 60), RGB(70, 80, 90), RGB(200, 100, 50)],
  ]

  /// `fourByFour` as a plain PPM.
  static var fourByFourPPM: Data {
    let rows = fourByFour.map { $0.map { "\($0.r) \($0.g) \($0.b)" }.joined(separator: "  ") }
    return Data(("P3\n4 4\n255\n" + rows.joined(separator: "\n") + "\n").utf8)
  }

  /// A 16×16 picture of four flat 8×8 quadrants (red, blue / lime, white), aligned with JPEG
  /// blocks so lossy formats keep the colours within a few levels.
  static let quadrants =
    "-size 16x16 xc:red -fill blue -draw 'rectangle 8,0 15,7' -fill lime -draw 'rectangle 0,8 7,15' -fill white -draw 'rectangle 8,8 15,15'"

  /// Runs `convert` with `arguments` (a shell word list) in `folder` and returns the bytes of
  /// `output` (which may start with a format, as in `PNG8:name.png`).
  static func convert(_ arguments: String, output: String, in folder: TemporaryFolder) throws
    -> Data
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "convert \(arguments) \(output)"]
    process.currentDirectoryURL = folder.url
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let message = String(
        decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      throw NSError(
        domain: "ImageMagick", code: Int(process.terminationStatus),
        userInfo: [
          NSLocalizedDescriptionKey:
            "convert \(arguments) failed (install imagemagick: scripts/install-deps test): \(message)"
        ])
    }
    // "PNG24:name.png" names the format, then the file.
    let name = output.split(separator: ":").last.map(String.init) ?? output
    return try Data(contentsOf: folder.url.appendingPathComponent(name))
  }

  /// Converts the 4×4 PPM with `arguments` between input and output.
  static func fourByFour(_ arguments: String, output: String, in folder: TemporaryFolder) throws
    -> Data
  {
    _ = try folder.write("four.ppm", fourByFourPPM)
    return try convert("four.ppm \(arguments)", output: output, in: folder)
  }
}

/// Asserts each channel of `actual` is within `tolerance` of `expected`.
func assertColor(
  _ actual: RGB, _ expected: RGB, tolerance: Int = 0, _ message: String = "",
  file: StaticString = #filePath, line: UInt = #line
) {
  let close =
    abs(Int(actual.r) - Int(expected.r)) <= tolerance
    && abs(Int(actual.g) - Int(expected.g)) <= tolerance
    && abs(Int(actual.b) - Int(expected.b)) <= tolerance
  XCTAssertTrue(
    close, "\(actual) is not \(expected) ±\(tolerance) \(message)", file: file, line: line)
}

/// SplitMix64: a small seeded generator, so every fuzz run mutates the same way.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// How many cases the fuzz tests run: the base count times `REFRAIN_FUZZ_SCALE` (`make fuzz`
/// sets 100).
enum FuzzScale {
  static let factor = max(
    Int(ProcessInfo.processInfo.environment["REFRAIN_FUZZ_SCALE"] ?? "") ?? 1, 1)
}
