import Foundation
import RefrainArt
import XCTest

/// Hostile input ends in an image or a `CoverError`, never a crash.
///
/// Declared sizes past the pixel cap, pictures past the byte cap, bogus markers, truncation,
/// and seeded mutations.
final class DecoderLimitsTests: XCTestCase {
  // MARK: - Hand-made headers

  /// CRC-32 (the PNG chunk checksum), bit by bit.
  private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  private func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }

  /// A PNG signature and a valid IHDR declaring `width × height` RGB, then an empty IDAT.
  private func pngHeader(width: UInt32, height: UInt32) -> Data {
    let ihdr = Array("IHDR".utf8) + bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
    let idat = Array("IDAT".utf8)
    return Data(
      [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bigEndian(13) + ihdr
        + bigEndian(crc32(ihdr)) + bigEndian(0) + idat + bigEndian(crc32(idat)))
  }

  func testPNGDeclaring100000By100000IsRefusedFromItsHeader() {
    XCTAssertThrowsError(try ImageDecoder.decode(pngHeader(width: 100_000, height: 100_000))) {
      XCTAssertEqual($0 as? CoverError, .tooLarge(width: 100_000, height: 100_000))
      XCTAssertEqual(
        ($0 as? CoverError)?.description,
        "cover art: the image is 100000×100000 pixels, more than allowed")
    }
    // Within the side limit but over the pixel count (8000 × 6000 = 48 MP > 40 MP).
    XCTAssertThrowsError(try ImageDecoder.decode(pngHeader(width: 8000, height: 6000))) {
      XCTAssertEqual($0 as? CoverError, .tooLarge(width: 8000, height: 6000))
    }
    // A side over 20,000 even when the pixel count is small.
    XCTAssertThrowsError(try ImageDecoder.decode(pngHeader(width: 30_000, height: 1))) {
      XCTAssertEqual($0 as? CoverError, .tooLarge(width: 30_000, height: 1))
    }
  }

  func testJPEGWhoseSOFDeclares60000By60000IsRefused() throws {
    let folder = try TemporaryFolder()
    var jpeg = [UInt8](try ImageMagick.convert("-size 16x16 xc:red", output: "red.jpg", in: folder))
    let sof = try XCTUnwrap(
      (0..<jpeg.count - 1).first {
        jpeg[$0] == 0xFF && (jpeg[$0 + 1] == 0xC0 || jpeg[$0 + 1] == 0xC2)
      })
    // FF C0, length (2), precision (1), height (2), width (2).
    jpeg[sof + 5] = 0xEA
    jpeg[sof + 6] = 0x60
    jpeg[sof + 7] = 0xEA
    jpeg[sof + 8] = 0x60
    XCTAssertThrowsError(try ImageDecoder.decode(Data(jpeg))) {
      XCTAssertEqual($0 as? CoverError, .tooLarge(width: 60_000, height: 60_000))
    }
  }

  func testPictureOverTheByteCapIsRefusedBeforeDecoding() {
    var big = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    big.append(Data(count: 33 << 20))
    XCTAssertThrowsError(try ImageDecoder.decode(big)) {
      XCTAssertEqual($0 as? CoverError, .tooManyBytes(count: big.count, limit: 32 << 20))
    }
    let small = CoverLimits(maxBytes: 100)
    XCTAssertThrowsError(
      try ImageDecoder.decode(pngHeader(width: 1, height: 1) + Data(count: 100), limits: small)
    ) {
      XCTAssertEqual($0 as? CoverError, .tooManyBytes(count: 145, limit: 100))
    }
  }

  // MARK: - Damaged files

  func testBogusJPEGMarkersAreCorrupt() {
    // A scan before any frame header.
    let scanFirst = Data([
      0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0xFF, 0xD9,
    ])
    // A marker segment whose length (1) is shorter than its own length field.
    let shortSegment = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01, 0x00, 0xFF, 0xD9])
    // A marker code libjpeg does not know.
    let unknown = Data([0xFF, 0xD8, 0xFF, 0x4F, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xD9])
    for (name, data) in [
      ("scan first", scanFirst), ("short segment", shortSegment), ("unknown", unknown),
    ] {
      XCTAssertThrowsError(try ImageDecoder.decode(data), name) { error in
        guard case .corrupt = error as? CoverError else {
          return XCTFail("\(name): \(error) is not corrupt")
        }
      }
    }
  }

  func testTruncatedFilesSayTruncated() throws {
    let folder = try TemporaryFolder()
    let png = try ImageMagick.convert(
      "-seed 3 -size 64x64 plasma:fractal", output: "PNG24:p.png", in: folder)
    let jpeg = try ImageMagick.convert(
      "-seed 3 -size 64x64 plasma:fractal", output: "j.jpg", in: folder)
    for data in [png, jpeg] {
      for cut in [data.count / 2, 30, 4] {
        XCTAssertThrowsError(try ImageDecoder.decode(data.prefix(cut)), "cut at \(cut)") {
          XCTAssertEqual($0 as? CoverError, .truncated, "cut at \(cut) of \(data.count)")
        }
      }
    }
  }

  // MARK: - Seeded mutations

  /// One random edit: flip a bit, change, insert or delete a byte, cut the end, or overwrite a
  /// run with 0xFF (a marker storm for JPEG).
  private func mutate(_ bytes: inout [UInt8], using random: inout SplitMix64) {
    let index = Int.random(in: 0..<bytes.count, using: &random)
    switch Int.random(in: 0..<6, using: &random) {
    case 0: bytes[index] ^= 1 << UInt8.random(in: 0...7, using: &random)
    case 1: bytes[index] = UInt8.random(in: 0...255, using: &random)
    case 2: bytes.insert(UInt8.random(in: 0...255, using: &random), at: index)
    case 3: if bytes.count > 8 { bytes.remove(at: index) }
    case 4: bytes.removeSubrange(max(8, index)..<bytes.count)
    default:
      for i in index..<min(bytes.count, index + 4) { bytes[i] = 0xFF }
    }
  }

  func testMutatedPNGsAndJPEGsDecodeOrFailCleanly() throws {
    let folder = try TemporaryFolder()
    let sources = [
      try ImageMagick.convert(
        "-seed 5 -size 48x32 plasma:fractal", output: "PNG24:f.png", in: folder),
      try ImageMagick.convert(
        "-seed 5 -size 48x32 plasma:fractal -colors 64 -interlace PNG", output: "PNG8:g.png",
        in: folder),
      try ImageMagick.convert("-seed 5 -size 48x32 plasma:fractal", output: "f.jpg", in: folder),
      try ImageMagick.convert(
        "-seed 5 -size 48x32 plasma:fractal -interlace JPEG", output: "g.jpg", in: folder),
    ].map { [UInt8]($0) }
    let cases = 150 * FuzzScale.factor
    var outcomes: [String: Int] = [:]
    for (number, source) in sources.enumerated() {
      for seed in 0..<UInt64(cases) {
        var random = SplitMix64(state: seed &* 7919 &+ UInt64(number))
        var bytes = source
        for _ in 0..<Int.random(in: 1...4, using: &random) { mutate(&bytes, using: &random) }
        do {
          let image = try ImageDecoder.decode(
            Data(bytes), limits: CoverLimits(maxPixels: 1 << 20, maxSide: 4096))
          XCTAssertEqual(image.pixels.count, image.width * image.height * 3)
          XCTAssertLessThanOrEqual(image.width * image.height, 1 << 20)
          outcomes["image", default: 0] += 1
        } catch {
          outcomes[String(describing: error).prefix(24).description, default: 0] += 1
        }
      }
    }
    // Both kinds of outcome happen: the mutations neither all break nor all miss the data.
    XCTAssertGreaterThan(outcomes["image"] ?? 0, 0)
    XCTAssertGreaterThan(outcomes.values.reduce(0, +) - (outcomes["image"] ?? 0), 0)
  }
}
