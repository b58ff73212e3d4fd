import RefrainCore
import XCTest

/// The sanitizer against hostile titles: nothing that can steer a terminal survives.
final class TerminalSanitizerTests: XCTestCase {
  /// Fails when `text` still holds a C0 control, DEL, a C1 control or a bidi control.
  private func assertInert(
    _ text: String, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
  ) {
    let bidi: Set<UInt32> = [
      0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068,
      0x2069,
    ]
    for scalar in text.unicodeScalars {
      let value = scalar.value
      if value < 0x20 || (0x7F...0x9F).contains(value) || bidi.contains(value) || value == 0xFEFF {
        XCTFail(
          "U+\(String(value, radix: 16, uppercase: true)) survived in \(text.debugDescription) \(message())",
          file: file, line: line)
        return
      }
    }
  }

  private func clean(_ text: String) -> String {
    let out = TerminalSanitizer.clean(text)
    assertInert(out, "from \(text.debugDescription)")
    return out
  }

  // MARK: - Escape sequences

  func testCSIColourAndCursorSequencesAreRemovedWithTheirParameters() {
    XCTAssertEqual(clean("\u{1B}[31mRed Alert\u{1B}[0m"), "Red Alert")
    XCTAssertEqual(clean("Clear\u{1B}[2J\u{1B}[HScreen"), "ClearScreen")
    XCTAssertEqual(clean("a\u{1B}[38;5;196;1mb"), "ab")
    XCTAssertEqual(clean("x\u{1B}[?1049hy\u{1B}[?25lz"), "xyz")
  }

  func testOSCWindowTitleWithBELIsRemoved() {
    XCTAssertEqual(clean("\u{1B}]0;pwned\u{07}Window Title"), "Window Title")
    XCTAssertEqual(clean("before\u{1B}]2;evil title\u{07}after"), "beforeafter")
  }

  func testOSC52ClipboardWritesAreRemovedWithBELAndSTTerminators() {
    XCTAssertEqual(clean("\u{1B}]52;c;ZXZpbA==\u{07}Clipboard"), "Clipboard")
    XCTAssertEqual(clean("Clip\u{1B}]52;c;cm0gLXJmIH4=\u{1B}\\board"), "Clipboard")
    // The 8-bit forms: C1 OSC ... C1 ST.
    XCTAssertEqual(clean("Clip\u{9D}52;c;ZXZpbA==\u{9C}board"), "Clipboard")
  }

  func testDCSAndOtherControlStringsAreRemoved() {
    XCTAssertEqual(clean("a\u{1B}P1$r0m\u{1B}\\b"), "ab")
    XCTAssertEqual(clean("a\u{1B}_apc payload\u{1B}\\b"), "ab")
    XCTAssertEqual(clean("a\u{1B}^privacy message\u{1B}\\b"), "ab")
    XCTAssertEqual(clean("a\u{90}q#0;2;0;0;0\u{9C}b"), "ab")
  }

  func testEightBitCSIIsRemovedWithItsParameters() {
    XCTAssertEqual(clean("Red\u{9B}31m Alert"), "Red Alert")
  }

  func testShortEscapesAndCharacterSetSelectionsAreRemoved() {
    XCTAssertEqual(clean("re\u{1B}cset"), "reset")  // ESC c: full reset
    XCTAssertEqual(clean("sa\u{1B}7ve"), "save")  // ESC 7: save cursor
    XCTAssertEqual(clean("line\u{1B}(0drawing"), "linedrawing")  // ESC ( 0: DEC graphics
    XCTAssertEqual(clean("trailing escape\u{1B}"), "trailing escape")
  }

  func testAnUnterminatedStringKeepsTheTextBeforeIt() {
    XCTAssertEqual(clean("Title\u{1B}]52;c;ZXZpbA=="), "Title")
  }

  func testMalformedCSIStopsAtTheFirstCharacterThatCannotBelongToIt() {
    XCTAssertEqual(clean("\u{1B}[12;가나"), "가나")
  }

  // MARK: - Single controls

  func testEveryC0ControlAndDELIsDropped() {
    for value in UInt32(0x00)...0x1F where ![0x09, 0x0A, 0x0D, 0x1B].contains(value) {
      let text = "left\(Character(Unicode.Scalar(value)!))right"
      XCTAssertEqual(clean(text), "leftright", "U+\(String(value, radix: 16))")
    }
    XCTAssertEqual(clean("Bell\u{07}\u{07} Song"), "Bell Song")
    XCTAssertEqual(clean("del\u{7F}ete"), "delete")
    XCTAssertEqual(clean("nul\u{0}l"), "null")
  }

  func testC1ControlsThatStartNothingAreDroppedAndTheTextAroundThemKept() {
    let starters: Set<UInt32> = [0x90, 0x98, 0x9B, 0x9D, 0x9E, 0x9F]
    for value in UInt32(0x80)...0x9F where !starters.contains(value) {
      let text = "left\(Character(Unicode.Scalar(value)!))right"
      XCTAssertEqual(clean(text), "leftright", "U+\(String(value, radix: 16))")
    }
  }

  func testC1StringStartersNeverLeaveAControlBehind() {
    for value: UInt32 in [0x90, 0x98, 0x9B, 0x9D, 0x9E, 0x9F] {
      let text = "left\(Character(Unicode.Scalar(value)!))payload\u{9C}right"
      let out = clean(text)
      XCTAssertTrue(out.hasPrefix("left"), "U+\(String(value, radix: 16)): \(out)")
      XCTAssertTrue(out.hasSuffix("right"), "U+\(String(value, radix: 16)): \(out)")
    }
  }

  func testTabsAndNewlinesBecomeOneSpaceSoATitleStaysOneLine() {
    XCTAssertEqual(clean("Tab\tand\nNewline"), "Tab and Newline")
    XCTAssertEqual(clean("a\r\nb"), "a b")
    XCTAssertEqual(clean("a\t\t\n\nb"), "a b")
  }

  // MARK: - Bidi and invisible marks

  func testBidiOverridesEmbeddingsAndIsolatesAreRemoved() {
    // "evil‮txt.exe" would show as "evilexe.txt" under the override.
    XCTAssertEqual(clean("evil\u{202E}txt.exe"), "eviltxt.exe")
    XCTAssertEqual(clean("a\u{202A}b\u{202B}c\u{202C}d\u{202D}e"), "abcde")
    XCTAssertEqual(
      clean("\u{2066}one\u{2069} \u{2067}two\u{2069} \u{2068}three\u{2069}"), "one two three")
    XCTAssertEqual(clean("l\u{200E}r\u{200F}m\u{061C}"), "lrm")
  }

  func testByteOrderMarksAreRemoved() {
    XCTAssertEqual(clean("\u{FEFF}우산 하나"), "우산 하나")
    XCTAssertEqual(clean("in\u{FEFF}side"), "inside")
  }

  // MARK: - Text that must survive

  func testPrintableTextInEveryScriptIsKeptAsItIs() {
    let titles = [
      "우산 하나", "夜のトラム", "小城的灯", "Crème Brûlée Morning", "ソーダ水の月", "مرحبا", "שלום",
      "e\u{301}", "👩‍👩‍👧 family", "[00:12.34] brackets ; semicolons ] and \\ backslashes",
    ]
    for title in titles {
      XCTAssertEqual(clean(title), title)
    }
  }

  func testAHostileTitleFromTheLibraryFixtureKeepsItsWords() {
    let title = "\u{1B}[31m빨간\u{1B}[0m \u{1B}]0;pwned\u{07}경보\u{202E} \u{9B}2J끝"
    XCTAssertEqual(clean(title), "빨간 경보 끝")
  }

  // MARK: - Long and mixed input

  func testTenThousandCharacterStrings() {
    let plain = String(repeating: "가나다 abc ", count: 1250)
    XCTAssertEqual(plain.count, 10_000)
    XCTAssertEqual(clean(plain), plain)

    let coloured = String(repeating: "\u{1B}[31m가\u{1B}[0m", count: 2000)
    XCTAssertEqual(clean(coloured), String(repeating: "가", count: 2000))

    let unterminated = "title" + "\u{1B}]52;c;" + String(repeating: "A", count: 10_000)
    XCTAssertEqual(clean(unterminated), "title")

    var controls = String.UnicodeScalarView()
    for index in 0..<10_000 { controls.append(Unicode.Scalar(UInt32(0x80 + index % 0x20))!) }
    assertInert(TerminalSanitizer.clean(String(controls)))
  }

  func testRandomMixesOfControlsNeverLeaveAControlBehind() {
    var generator = SystemRandomNumberGenerator()
    let pieces = [
      "\u{1B}", "[", "]", "P", "\\", "\u{07}", "\u{9B}", "\u{9C}", "\u{9D}", "\u{90}", "\u{85}",
      "\u{7F}", "\u{0}", "\n", "\t", "\u{202E}", "\u{2066}", "\u{FEFF}", "52;c;", "31m", "가",
      "a", ";", "?", "~", "@",
    ]
    for _ in 0..<2000 {
      let text = (0..<Int.random(in: 1...30, using: &generator)).map { _ in
        pieces.randomElement(using: &generator)!
      }.joined()
      assertInert(TerminalSanitizer.clean(text), "from \(text.debugDescription)")
    }
  }
}
