import Foundation
import RefrainArt
import XCTest

/// The kitty and iTerm2 sequences, tmux passthrough and the protocol choice.
final class GraphicsProtocolTests: XCTestCase {
  private let esc = "\u{1B}"

  func testKittyQueryAndReplies() {
    XCTAssertEqual(KittyGraphics.query(), "\(esc)_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\(esc)\\")
    let reply = KittyGraphics.parseReply(Array("x\(esc)_Gi=31;OK\(esc)\\\(esc)[?62c".utf8))
    XCTAssertEqual(reply?.id, 31)
    XCTAssertEqual(reply?.isOK, true)
    let failed = KittyGraphics.parseReply(Array("\(esc)_Gi=31;EINVAL:bad format\(esc)\\".utf8))
    XCTAssertEqual(failed?.message, "EINVAL:bad format")
    XCTAssertEqual(failed?.isOK, false)
    XCTAssertNil(KittyGraphics.parseReply(Array("\(esc)_Gi=31;OK".utf8)), "incomplete")
    XCTAssertNil(KittyGraphics.parseReply(Array("\(esc)[?62;4c".utf8)), "a DA1 reply only")
  }

  func testKittyTransmitsInChunksOfAtMost4096() throws {
    let pixels = (0..<(40 * 40 * 3)).map { UInt8($0 % 251) }
    let image = RGBImage(width: 40, height: 40, pixels: pixels)
    let sequence = KittyGraphics.transmit(id: 7, .rgb(image))
    let commands = sequence.components(separatedBy: "\(esc)\\").filter { !$0.isEmpty }
    XCTAssertEqual(commands.count, 2)  // 4800 bytes → 6400 base64 characters
    XCTAssertTrue(commands[0].hasPrefix("\(esc)_Ga=t,i=7,f=24,s=40,v=40,t=d,q=2,m=1;"))
    XCTAssertTrue(commands[1].hasPrefix("\(esc)_Gm=0,q=2;"))
    var payload = ""
    for command in commands {
      let chunk = command[command.index(after: try XCTUnwrap(command.firstIndex(of: ";")))...]
      XCTAssertLessThanOrEqual(chunk.count, 4096)
      payload += chunk
    }
    XCTAssertEqual(Data(base64Encoded: payload), Data(pixels))

    let png = Data([1, 2, 3])
    XCTAssertEqual(
      KittyGraphics.transmit(id: 8, .png(png)), "\(esc)_Ga=t,i=8,f=100,t=d,q=2,m=0;AQID\(esc)\\")
    XCTAssertEqual(
      KittyGraphics.place(id: 7, columns: 30, rows: 15), "\(esc)_Ga=p,i=7,c=30,r=15,C=1,q=2\(esc)\\"
    )
    XCTAssertEqual(KittyGraphics.delete(id: 7), "\(esc)_Ga=d,d=I,i=7,q=2\(esc)\\")
  }

  func testTmuxPassthroughDoublesEveryEscape() {
    XCTAssertEqual(
      TmuxPassthrough.wrap("\(esc)_Ga=d\(esc)\\"),
      "\(esc)Ptmux;\(esc)\(esc)_Ga=d\(esc)\(esc)\\\(esc)\\")
  }

  func testITermInlineImage() throws {
    let image = RGBImage(width: 2, height: 2, pixels: Array(repeating: 200, count: 12))
    let png = try PNGEncoder.encode(image)
    let sequence = ITermInlineImage.sequence(png: png, columns: 30, rows: 15)
    XCTAssertTrue(
      sequence.hasPrefix(
        "\(esc)]1337;File=inline=1;size=\(png.count);width=30;height=15;preserveAspectRatio=1:"))
    XCTAssertTrue(sequence.hasSuffix("\u{07}"))
    let base64 = sequence.dropFirst(
      sequence.distance(from: sequence.startIndex, to: try XCTUnwrap(sequence.firstIndex(of: ":")))
        + 1
    ).dropLast()
    XCTAssertEqual(
      try ImageDecoder.decode(try XCTUnwrap(Data(base64Encoded: String(base64)))), image)
  }

  func testProtocolChoice() {
    XCTAssertEqual(
      GraphicsProtocol.detect(environment: [:], kittyReplied: true, tmuxPassthrough: false), .kitty)
    XCTAssertEqual(
      GraphicsProtocol.detect(
        environment: ["TERM_PROGRAM": "iTerm.app"], kittyReplied: false, tmuxPassthrough: false),
      .iTerm)
    XCTAssertEqual(
      GraphicsProtocol.detect(
        environment: ["TERM_PROGRAM": "WezTerm"], kittyReplied: false, tmuxPassthrough: false),
      .iTerm)
    XCTAssertEqual(
      GraphicsProtocol.detect(
        environment: ["TERM_PROGRAM": "Apple_Terminal"], kittyReplied: false, tmuxPassthrough: false
      ),
      .halfBlocks)
    XCTAssertEqual(
      GraphicsProtocol.detect(
        environment: ["TMUX": "/tmp/tmux-0/default,1,0"], kittyReplied: true, tmuxPassthrough: false
      ),
      .halfBlocks)
    XCTAssertEqual(
      GraphicsProtocol.detect(
        environment: ["TMUX": "/tmp/tmux-0/default,1,0"], kittyReplied: true, tmuxPassthrough: true),
      .kitty)
  }
}
