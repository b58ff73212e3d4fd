import Foundation
import RefrainArt
import XCTest

/// Every decoder variant on images ImageMagick makes at test time, checked pixel by pixel.
final class ImageDecoderTests: XCTestCase {
  // MARK: - PNG

  /// The PNG colour type byte of the IHDR, to prove the file is the variant under test.
  private func pngColorType(_ data: Data) -> (depth: UInt8, type: UInt8, interlace: UInt8) {
    (data[24], data[25], data[28])
  }

  private func assertFourByFour(
    _ image: RGBImage, replacing transparent: RGB? = nil, with background: RGB = .black,
    tolerance: Int = 0, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertEqual(image.width, 4, file: file, line: line)
    XCTAssertEqual(image.height, 4, file: file, line: line)
    for y in 0..<4 {
      for x in 0..<4 {
        var expected = ImageMagick.fourByFour[y][x]
        if expected == transparent { expected = background }
        assertColor(
          image[x, y], expected, tolerance: tolerance, "at \(x),\(y)", file: file, line: line)
      }
    }
  }

  func testPlainRGBPNGDecodesExactly() throws {
    let folder = try TemporaryFolder()
    let png = try ImageMagick.fourByFour("", output: "PNG24:plain.png", in: folder)
    XCTAssertEqual(pngColorType(png).type, 2)
    assertFourByFour(try ImageDecoder.decode(png))
  }

  func testPalettePNGWithTransparencyCompositesOverTheBackground() throws {
    let folder = try TemporaryFolder()
    let png = try ImageMagick.fourByFour(
      "-transparent '#ff0000'", output: "PNG8:pal.png", in: folder)
    XCTAssertEqual(pngColorType(png).type, 3)
    XCTAssertNotNil(png.range(of: Data("tRNS".utf8)))
    let background = RGB(1, 2, 3)
    assertFourByFour(
      try ImageDecoder.decode(png, background: background), replacing: RGB(255, 0, 0),
      with: background)
    assertFourByFour(try ImageDecoder.decode(png), replacing: RGB(255, 0, 0), with: .black)
  }

  func testSixteenBitPNGScalesToEightBits() throws {
    let folder = try TemporaryFolder()
    let png = try ImageMagick.fourByFour("-depth 16", output: "PNG48:deep.png", in: folder)
    XCTAssertEqual(pngColorType(png).depth, 16)
    assertFourByFour(try ImageDecoder.decode(png))
  }

  func testInterlacedPNGDecodesExactly() throws {
    let folder = try TemporaryFolder()
    let png = try ImageMagick.fourByFour("-interlace PNG", output: "PNG24:adam7.png", in: folder)
    XCTAssertEqual(pngColorType(png).interlace, 1)
    assertFourByFour(try ImageDecoder.decode(png))
  }

  func testGreyAlphaPNGCompositesHalfGreyOverTheBackground() throws {
    let folder = try TemporaryFolder()
    let png = try ImageMagick.convert(
      "-size 4x4 xc:gray50 -alpha set -channel A -evaluate set 50% +channel -define png:color-type=4",
      output: "ga.png", in: folder)
    XCTAssertEqual(pngColorType(png).type, 4)
    // 50 % grey (128) at 50 % alpha over white: 128·0.5 + 255·0.5 ≈ 191; over black ≈ 64.
    let overWhite = try ImageDecoder.decode(png, background: RGB(255, 255, 255))
    assertColor(overWhite[3, 3], RGB(191, 191, 191), tolerance: 1)
    let overBlack = try ImageDecoder.decode(png)
    assertColor(overBlack[0, 0], RGB(64, 64, 64), tolerance: 1)
  }

  // MARK: - JPEG

  private func assertQuadrants(
    _ image: RGBImage, grey: Bool = false, tolerance: Int = 6,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertEqual(image.width, 16, file: file, line: line)
    XCTAssertEqual(image.height, 16, file: file, line: line)
    // The middle of each quadrant, away from the edges where JPEG rings.
    let expected: [(Int, Int, RGB)] = [
      (3, 3, RGB(255, 0, 0)), (12, 3, RGB(0, 0, 255)), (3, 12, RGB(0, 255, 0)),
      (12, 12, RGB(255, 255, 255)),
    ]
    for (x, y, colour) in expected {
      // Rec. 709 luma, as ImageMagick's Gray (rounded): red 54, blue 18, lime 182, white 255.
      let r: Double = 0.2126 * Double(colour.r)
      let g: Double = 0.7152 * Double(colour.g)
      let b: Double = 0.0722 * Double(colour.b)
      let luma = UInt8((r + g + b).rounded())
      let want = grey ? RGB(luma, luma, luma) : colour
      assertColor(
        image[x, y], want, tolerance: tolerance, "at \(x),\(y)", file: file, line: line)
    }
  }

  func testBaselineJPEG() throws {
    let folder = try TemporaryFolder()
    let jpeg = try ImageMagick.convert(
      "\(ImageMagick.quadrants) -sampling-factor 1x1 -quality 95", output: "base.jpg", in: folder)
    XCTAssertNotNil(jpeg.firstRange(of: Data([0xFF, 0xC0])), "a baseline SOF0")
    assertQuadrants(try ImageDecoder.decode(jpeg))
  }

  func testProgressiveJPEG() throws {
    let folder = try TemporaryFolder()
    let jpeg = try ImageMagick.convert(
      "\(ImageMagick.quadrants) -sampling-factor 1x1 -quality 95 -interlace JPEG",
      output: "prog.jpg", in: folder)
    XCTAssertNotNil(jpeg.firstRange(of: Data([0xFF, 0xC2])), "a progressive SOF2")
    assertQuadrants(try ImageDecoder.decode(jpeg))
  }

  func testGreyscaleJPEGBecomesGreyRGB() throws {
    let folder = try TemporaryFolder()
    let jpeg = try ImageMagick.convert(
      "\(ImageMagick.quadrants) -colorspace Gray -quality 95", output: "grey.jpg", in: folder)
    let image = try ImageDecoder.decode(jpeg)
    assertQuadrants(image, grey: true, tolerance: 8)
  }

  func testAdobeCMYKJPEGBecomesRGB() throws {
    let folder = try TemporaryFolder()
    let jpeg = try ImageMagick.convert(
      "\(ImageMagick.quadrants) -colorspace CMYK -sampling-factor 1x1 -quality 95",
      output: "cmyk.jpg", in: folder)
    XCTAssertNotNil(jpeg.firstRange(of: Data("Adobe".utf8)), "ImageMagick writes an Adobe marker")
    assertQuadrants(try ImageDecoder.decode(jpeg), tolerance: 8)
  }

  func testLargeJPEGIsDecodedAtAReducedDCTScaleForASmallBox() throws {
    let folder = try TemporaryFolder()
    let jpeg = try ImageMagick.convert(
      "-size 800x400 gradient:red-blue", output: "big.jpg", in: folder)
    // 800×400 into a 30×30 pixel box fits at 30×15; twice that needs 60 wide: 1/8 gives 100.
    let scaled = try ImageDecoder.decode(jpeg, box: (30, 30))
    XCTAssertEqual(scaled.width, 100)
    XCTAssertEqual(scaled.height, 50)
    let full = try ImageDecoder.decode(jpeg)
    XCTAssertEqual(full.width, 800)
  }

  // MARK: - Format detection

  func testFormatComesFromTheBytesNotTheName() throws {
    let folder = try TemporaryFolder()
    let png = try ImageMagick.fourByFour("", output: "PNG24:named.jpg", in: folder)
    XCTAssertEqual(ImageFormat.sniff(png), .png)
    XCTAssertEqual(try ImageDecoder.decode(png).width, 4)
    XCTAssertThrowsError(try ImageDecoder.decode(Data("GIF89a not supported".utf8))) {
      XCTAssertEqual($0 as? CoverError, .unsupportedFormat)
    }
    XCTAssertThrowsError(try ImageDecoder.decode(Data())) {
      XCTAssertEqual($0 as? CoverError, .unsupportedFormat)
    }
  }

  // MARK: - PNG encoding

  func testPNGEncoderRoundTrips() throws {
    var pixels: [UInt8] = []
    for row in ImageMagick.fourByFour { for c in row { pixels += [c.r, c.g, c.b] } }
    let image = RGBImage(width: 4, height: 4, pixels: pixels)
    let png = try PNGEncoder.encode(image)
    XCTAssertEqual(ImageFormat.sniff(png), .png)
    XCTAssertEqual(try ImageDecoder.decode(png), image)
  }
}
