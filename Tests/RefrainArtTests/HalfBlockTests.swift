import Foundation
import RefrainArt
import XCTest

/// The cells and escape sequences a user's terminal receives, the fit into a box, the
/// 256-colour quantiser and the colour capability rules.
final class HalfBlockTests: XCTestCase {
  private let esc = "\u{1B}"

  // MARK: - Cells from a real PNG

  func testFourByFourPNGBecomesFourByTwoCellsWithExactColours() throws {
    let folder = try TemporaryFolder()
    let png = try ImageMagick.fourByFour("", output: "PNG24:four.png", in: folder)
    let cover = try HalfBlockCover(decoding: png, in: CellSize(columns: 4, rows: 2))
    XCTAssertEqual(cover.columns, 4)
    XCTAssertEqual(cover.rows, 2)
    let colours = ImageMagick.fourByFour
    for y in 0..<2 {
      for x in 0..<4 {
        XCTAssertEqual(cover[x, y].top, colours[y * 2][x], "top of \(x),\(y)")
        XCTAssertEqual(cover[x, y].bottom, colours[y * 2 + 1][x], "bottom of \(x),\(y)")
      }
    }
    XCTAssertEqual(
      cover.encodedRows(.trueColor),
      [
        "\(esc)[38;2;255;0;0;48;2;0;0;0m▀\(esc)[38;2;0;255;0;48;2;128;128;128m▀"
          + "\(esc)[38;2;0;0;255;48;2;255;255;0m▀\(esc)[38;2;255;255;255;48;2;0;255;255m▀\(esc)[0m",
        // The foreground repeats (red, red; blue, blue): only the background is sent again.
        "\(esc)[38;2;255;0;0;48;2;10;20;30m▀\(esc)[48;2;40;50;60m▀"
          + "\(esc)[38;2;0;0;255;48;2;70;80;90m▀\(esc)[48;2;200;100;50m▀\(esc)[0m",
      ])
    XCTAssertEqual(
      cover.encodedRows(.palette256)[0],
      "\(esc)[38;5;196;48;5;16m▀\(esc)[38;5;46;48;5;244m▀\(esc)[38;5;21;48;5;226m▀"
        + "\(esc)[38;5;231;48;5;51m▀\(esc)[0m")
    XCTAssertEqual(cover.encodedRows(.none), ["", ""])
  }

  func testSolidCellsAreSpacesOnTheBackgroundAndRepeatsSendNoColour() {
    let grey = RGB(50, 50, 50)
    let image = RGBImage(width: 3, height: 2, pixels: Array(repeating: 50, count: 18))
    let cover = HalfBlockCover(image: image)
    XCTAssertEqual(cover.cells, Array(repeating: .init(top: grey, bottom: grey), count: 3))
    XCTAssertEqual(cover.encodedRows(.trueColor), ["\(esc)[48;2;50;50;50m   \(esc)[0m"])
  }

  func testOddHeightGetsTheBackgroundBelowTheLastRow() {
    let image = RGBImage(width: 1, height: 3, pixels: [1, 1, 1, 2, 2, 2, 3, 3, 3])
    let cover = HalfBlockCover(image: image, background: RGB(9, 9, 9))
    XCTAssertEqual(cover.rows, 2)
    XCTAssertEqual(cover[0, 1], .init(top: RGB(3, 3, 3), bottom: RGB(9, 9, 9)))
  }

  // MARK: - Fit and scaling

  func testFitKeepsTheAspectRatioWithCellsTwiceAsTallAsWide() {
    let box = CellSize(columns: 30, rows: 15)
    XCTAssertEqual(CellSize.fitting(imageWidth: 1000, imageHeight: 1000, in: box), box)
    XCTAssertEqual(
      CellSize.fitting(imageWidth: 200, imageHeight: 100, in: box), CellSize(columns: 30, rows: 8))
    XCTAssertEqual(
      CellSize.fitting(imageWidth: 100, imageHeight: 200, in: box), CellSize(columns: 15, rows: 15))
    XCTAssertEqual(
      CellSize.fitting(imageWidth: 1, imageHeight: 1000, in: box), CellSize(columns: 1, rows: 15))
    XCTAssertEqual(
      CellSize.fitting(imageWidth: 1000, imageHeight: 1, in: box), CellSize(columns: 30, rows: 1))
    XCTAssertEqual(
      CellSize.fitting(imageWidth: 10, imageHeight: 10, in: CellSize(columns: 0, rows: 5)),
      CellSize(columns: 0, rows: 0))
  }

  func testBoxFilterAveragesTheAreaEachPixelCovers() {
    // 4×1 → 2×1: (0,100) and (200,255) average to 50 and 228 (227.5 rounded).
    let wide = RGBImage(
      width: 4, height: 1, pixels: [0, 0, 0, 100, 100, 100, 200, 200, 200, 255, 255, 255])
    XCTAssertEqual(
      ImageScaler.scaled(wide, width: 2, height: 1).pixels, [50, 50, 50, 228, 228, 228])
    // 3×1 → 2×1: each output covers 1.5 pixels: (0 + 0.5·90)/1.5 = 30, (0.5·90 + 180)/1.5 = 150.
    let three = RGBImage(width: 3, height: 1, pixels: [0, 0, 0, 90, 90, 90, 180, 180, 180])
    XCTAssertEqual(
      ImageScaler.scaled(three, width: 2, height: 1).pixels, [30, 30, 30, 150, 150, 150])
    // A flat image stays flat at any size.
    let flat = RGBImage(width: 7, height: 5, pixels: Array(repeating: 77, count: 105))
    XCTAssertEqual(
      Set(ImageScaler.scaled(flat, width: 3, height: 2).pixels), [77])
    XCTAssertEqual(ImageScaler.scaled(flat, width: 9, height: 11).width, 9)
  }

  func testASquareCoverInA30By15BoxIs30By15Cells() throws {
    let folder = try TemporaryFolder()
    let jpeg = try ImageMagick.convert(
      "-size 300x300 gradient:red-blue", output: "sq.jpg", in: folder)
    let cover = try HalfBlockCover(decoding: jpeg, in: CellSize(columns: 30, rows: 15))
    XCTAssertEqual(cover.columns, 30)
    XCTAssertEqual(cover.rows, 15)
    assertColor(cover[15, 0].top, RGB(255, 0, 0), tolerance: 20)
    assertColor(cover[15, 14].bottom, RGB(0, 0, 255), tolerance: 20)
  }

  // MARK: - xterm-256

  func testQuantiserVectors() {
    // Checked by hand against the cube levels (0, 95, 135, 175, 215, 255) and the grey ramp.
    let vectors: [(RGB, UInt8)] = [
      (RGB(255, 0, 0), 196), (RGB(0, 255, 0), 46), (RGB(0, 0, 255), 21), (RGB(0, 0, 0), 16),
      (RGB(255, 255, 255), 231), (RGB(255, 255, 0), 226), (RGB(0, 255, 255), 51),
      (RGB(128, 128, 128), 244),  // grey 8 + 10·12 exactly; the cube's 135 is 7 away
      (RGB(8, 8, 8), 232), (RGB(238, 238, 238), 255), (RGB(100, 100, 100), 241),  // grey 98
      (RGB(95, 135, 175), 67),  // exactly cube (1, 2, 3)
      (RGB(255, 128, 0), 208),  // cube (5, 2, 0): 128 is nearer 135 than 95
      (RGB(0, 0, 1), 16), (RGB(250, 5, 3), 196),
    ]
    for (colour, index) in vectors {
      XCTAssertEqual(XTerm256.index(for: colour), index, "\(colour)")
    }
    XCTAssertEqual(XTerm256.color(of: 67), RGB(95, 135, 175))
    XCTAssertEqual(XTerm256.color(of: 244), RGB(128, 128, 128))
    // Every palette colour maps to itself; nothing maps into the 16 system colours.
    for index in UInt8(16)...255 {
      XCTAssertEqual(XTerm256.index(for: XTerm256.color(of: index)), index)
    }
  }

  // MARK: - Capability

  func testColourCapabilityFromEnvironmentAndReportedColours() {
    XCTAssertEqual(
      TerminalColors.detect(environment: ["COLORTERM": "truecolor"], reportedColors: 8), .trueColor)
    XCTAssertEqual(
      TerminalColors.detect(environment: ["COLORTERM": "24bit"], reportedColors: 256), .trueColor)
    XCTAssertEqual(
      TerminalColors.detect(environment: ["TERM": "xterm-direct"], reportedColors: 256), .trueColor)
    XCTAssertEqual(
      TerminalColors.detect(environment: ["TERM": "tmux-256color"], reportedColors: 256),
      .palette256)
    XCTAssertEqual(
      TerminalColors.detect(environment: ["TERM": "xterm"], reportedColors: 8), TerminalColors.none)
    XCTAssertEqual(
      TerminalColors.detect(
        environment: ["NO_COLOR": "1", "COLORTERM": "truecolor"], reportedColors: 256),
      TerminalColors.none)
    XCTAssertEqual(
      TerminalColors.detect(environment: ["NO_COLOR": ""], reportedColors: 256), .palette256)
  }
}
