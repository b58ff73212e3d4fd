import Foundation
import RefrainArt
import RefrainCore
import XCTest

@testable import RefrainTUI

/// A cover source that answers from memory and counts what it was asked.
final class FakeCovers: CoverProvider, @unchecked Sendable {
  private let lock = NSLock()
  private var asked: [(track: String, box: CellSize, png: Bool)] = []
  let color: RGB
  let fails: Bool

  init(color: RGB = RGB(200, 40, 20), fails: Bool = false) {
    self.color = color
    self.fails = fails
  }

  var requests: [(track: String, box: CellSize, png: Bool)] { lock.withLock { asked } }

  func cover(for track: Track, fitting box: CellSize, png: Bool) async throws -> ScaledCover {
    lock.withLock { asked.append((track.id, box, png)) }
    if fails { throw CoverError.corrupt(detail: "the test's picture is broken") }
    // A square picture in one colour, fitted into the box.
    let image = RGBImage(
      width: 8, height: 8,
      pixels: Array(repeating: [color.r, color.g, color.b], count: 64).flatMap { $0 })
    return ScaledCover(
      cells: HalfBlockCover(fitting: image, in: box), png: png ? Data([0x89, 0x50]) : nil)
  }
}

/// The Player pane's cover: asked for once per track and size, in the background, drawn as
/// a picture where the box was, and the box again when there is none.
final class AppCoverTests: XCTestCase {
  private func harness(_ covers: FakeCovers, output: PictureOutput) -> TUIHarness {
    let harness = TUIHarness(covers: covers)
    harness.app.pictureOutput = output
    harness.waitForHome()
    harness.playFromHome("우산 하나", duration: 32.7)
    harness.size = (80, 24)
    harness.press("4")
    return harness
  }

  func testThePlayerPaneShowsTheCoverAsAPictureWhereTheBoxWas() {
    let covers = FakeCovers()
    let harness = harness(covers, output: .halfBlocks(.trueColor))
    harness.waitFor("the cover") { !harness.redraw().pictures.isEmpty }
    let grid = harness.redraw()
    let picture = grid.pictures[0]
    // 80×24: a content area of 21 rows leaves 14 rows for the cover, 28 columns square.
    XCTAssertEqual(picture.rect, Rect(x: 2, y: 2, width: 28, height: 14))
    XCTAssertEqual(picture.cells[0, 0].top, RGB(200, 40, 20))
    XCTAssertFalse(grid.text.contains("cover"), "no placeholder under the picture")
    XCTAssertEqual(grid.row(2).prefix(32).trimmingCharacters(in: .whitespaces), "")
    XCTAssertTrue(grid.row(2).hasSuffix("우산 하나"), "the title beside it")
    XCTAssertEqual(covers.requests.count, 1)
    XCTAssertEqual(covers.requests.first?.box, CellSize(columns: 28, rows: 14))
    XCTAssertEqual(covers.requests.first?.png, false, "half blocks need no PNG")
    for _ in 0..<5 { harness.redraw() }
    XCTAssertEqual(covers.requests.count, 1, "asked once per track and size")
  }

  func testAResizeAsksForTheCoverAtTheNewSize() {
    let covers = FakeCovers()
    let harness = harness(covers, output: .halfBlocks(.palette256))
    harness.waitFor("the cover") { !harness.redraw().pictures.isEmpty }
    harness.size = (100, 30)
    harness.waitFor("the bigger cover") {
      harness.redraw().pictures.first?.rect.width == 40
    }
    XCTAssertEqual(covers.requests.map(\.box.rows), [14, 20])
  }

  func testWithoutACoverTheBoxStaysAndTheReasonGoesToTheLog() {
    let covers = FakeCovers(fails: true)
    let harness = harness(covers, output: .halfBlocks(.trueColor))
    harness.waitFor("the answer") {
      covers.requests.count == 1 && harness.app.covers.player.isSettled
    }
    let grid = harness.redraw()
    XCTAssertTrue(grid.pictures.isEmpty)
    XCTAssertTrue(grid.text.contains("cover"), "the placeholder box")
    harness.waitFor("the log line") { !harness.logged.isEmpty }
    XCTAssertEqual(harness.logged.count, 1)
    XCTAssertTrue(harness.logged[0].contains("the test's picture is broken"), harness.logged[0])
  }

  func testATerminalWithoutPicturesNeverAsksForACover() {
    let covers = FakeCovers()
    let harness = harness(covers, output: .none)
    for _ in 0..<3 { harness.redraw() }
    XCTAssertTrue(covers.requests.isEmpty)
    XCTAssertTrue(harness.redraw().text.contains("cover"), "the placeholder box")
  }

  func testGraphicsProtocolsAskForAPNGAndTheHelpBoxHidesThePicture() {
    let covers = FakeCovers()
    let harness = harness(covers, output: .kitty(tmux: false))
    harness.waitFor("the cover") { !harness.redraw().pictures.isEmpty }
    XCTAssertEqual(covers.requests.first?.png, true)
    XCTAssertNotNil(harness.redraw().pictures.first?.png)
    harness.press("?")
    XCTAssertTrue(harness.redraw().pictures.isEmpty, "the help box is drawn over the pane")
    harness.press("?")
    XCTAssertFalse(harness.redraw().pictures.isEmpty, "and the cover returns")
  }

  func testAnAlbumsDetailViewShowsASmallCoverInItsHeader() {
    let covers = FakeCovers(color: RGB(30, 90, 200))
    let harness = TUIHarness(covers: covers)
    harness.app.pictureOutput = .halfBlocks(.trueColor)
    harness.waitForHome()
    harness.size = (80, 24)
    harness.press("1", "g")
    harness.select("◉ 밤의 편지")
    harness.press("enter")
    harness.waitFor("the album's cover") { !harness.redraw().pictures.isEmpty }
    let grid = harness.redraw()
    XCTAssertEqual(grid.pictures.first?.rect, Rect(x: 2, y: 2, width: 12, height: 6))
    XCTAssertEqual(grid.pictures.first?.cells[0, 0].top, RGB(30, 90, 200))
    XCTAssertEqual(grid.row(3).trimmingCharacters(in: .whitespaces), "밤의 편지")
    XCTAssertEqual(grid.row(4).trimmingCharacters(in: .whitespaces), "달빛 우체국")
    XCTAssertTrue(grid.row(5).contains("2025 · "), grid.row(5))
    XCTAssertEqual(covers.requests.first?.box, CellSize(columns: 12, rows: 6))
    XCTAssertEqual(harness.selectedRow, "▶ Play all", "the list starts below the header")
  }

  // MARK: - Choosing the output

  func testTheOutputFollowsTheModeTheTerminalAndTmux() {
    let truecolor = ["COLORTERM": "truecolor", "TERM": "xterm-256color"]
    let tmux = ["TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color"]
    func choose(
      _ mode: CoverArtMode, _ environment: [String: String], colors: Bool = true,
      reported: Int = 256, kitty: Bool = false, passthrough: Bool = false
    ) -> PictureOutput {
      PictureOutput.choose(
        mode: mode, environment: environment, colors: colors, reportedColors: reported,
        kittyReplied: kitty, tmuxPassthrough: passthrough)
    }
    XCTAssertEqual(choose(.auto, truecolor), .halfBlocks(.trueColor))
    XCTAssertEqual(choose(.auto, truecolor, kitty: true), .kitty(tmux: false))
    XCTAssertEqual(choose(.auto, ["TERM_PROGRAM": "iTerm.app"]), .iTerm(tmux: false))
    XCTAssertEqual(choose(.auto, tmux, kitty: true), .halfBlocks(.palette256), "tmux: blocks")
    XCTAssertEqual(choose(.kitty, tmux), .halfBlocks(.palette256), "no passthrough: blocks")
    XCTAssertEqual(choose(.kitty, tmux, passthrough: true), .kitty(tmux: true))
    XCTAssertEqual(choose(.kitty, truecolor), .halfBlocks(.trueColor), "no answer: blocks")
    XCTAssertEqual(
      choose(.blocks, ["TERM": "xterm-direct"], reported: 16_777_216), .halfBlocks(.trueColor))
    XCTAssertEqual(choose(.blocks, ["TERM": "xterm"], reported: 16), .none, "16 colours: the box")
    XCTAssertEqual(choose(.blocks, truecolor, colors: false), .none, "colours off: the box")
    XCTAssertEqual(choose(.auto, truecolor.merging(["NO_COLOR": "1"]) { $1 }), .none)
    XCTAssertEqual(choose(.off, truecolor, kitty: true), .none)
    XCTAssertFalse(PictureOutput.shouldQueryKitty(mode: .auto, environment: tmux))
    XCTAssertTrue(PictureOutput.shouldQueryKitty(mode: .auto, environment: truecolor))
    XCTAssertFalse(PictureOutput.shouldQueryKitty(mode: .blocks, environment: truecolor))
  }

  func testTheProbeWaitsForTheDeviceAttributesAnswer() {
    XCTAssertFalse(GraphicsProbe.containsDeviceAttributes(Array("\u{1B}_Gi=31;OK\u{1B}\\".utf8)))
    XCTAssertTrue(
      GraphicsProbe.containsDeviceAttributes(Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;22c".utf8)))
    XCTAssertFalse(GraphicsProbe.containsDeviceAttributes(Array("\u{1B}[?62;2".utf8)), "not yet")
  }
}
