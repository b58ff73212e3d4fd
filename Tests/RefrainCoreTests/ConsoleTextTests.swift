import Foundation
import XCTest

@testable import RefrainCore

/// What a command prints: text through the one cleaner with its lines kept, and JSON with
/// every control escaped (issue 35).
final class ConsoleTextTests: XCTestCase {
  /// A line from a hostile lyrics file: OSC 52 (sets the clipboard), a screen clear, C1 CSI,
  /// a right-to-left override, DEL and a bell.
  private let hostile =
    "[00:01.00]a\u{1B}]52;c;ZXZpbA==\u{07}b\u{1B}[2Jc\u{9B}31md\u{202E}e\u{7F}f\u{07}g"

  private func assertInert(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
    for scalar in text.unicodeScalars where scalar != "\n" && scalar != "\t" {
      XCTAssertFalse(
        TerminalSanitizer.isControl(scalar), "U+\(String(scalar.value, radix: 16)) in \(text)",
        file: file, line: line)
    }
  }

  // MARK: - Text

  func test_keepingLines_removesControlsButKeepsNewlinesAndTabs() {
    let text = hostile + "\nsecond\tcolumn\r\nthird\rfourth"
    let clean = TerminalSanitizer.cleanKeepingLines(text)
    XCTAssertEqual(clean, "[00:01.00]abcdefg\nsecond\tcolumn\nthird\nfourth")
    assertInert(clean)
  }

  func test_oneLine_stillTurnsBreaksIntoSpaces() {
    XCTAssertEqual(TerminalSanitizer.clean("a\nb\tc"), "a b c")
    XCTAssertEqual(TerminalSanitizer.clean(hostile), "[00:01.00]abcdefg")
  }

  func test_bidiControlsAndIsolatesAreRemoved() {
    let marks =
      (0x202A...0x202E).map { Unicode.Scalar($0)! } + (0x2066...0x2069).map { Unicode.Scalar($0)! }
    let text = "x" + String(String.UnicodeScalarView(marks)) + "y"
    XCTAssertEqual(TerminalSanitizer.cleanKeepingLines(text), "xy")
  }

  // MARK: - JSON

  func test_json_escapesC1AndBidiControlsAsUnicodeEscapes() {
    let line = JSONOutput.line(["text": "a\u{9B}31mb\u{202E}c\u{2066}d\u{7F}e\u{1B}[2J"])
    XCTAssertEqual(line.lowercased(), #"{"text":"a\u009b31mb\u202ec\u2066d\u007fe\u001b[2j"}"#)
    assertInert(line)
  }

  func test_json_keepsTheValueWhole() throws {
    let value = ["title": "우산\u{9B}\u{202E}🎵 \u{FEFF}/"]
    let decoded = try JSONDecoder().decode(
      [String: String].self, from: Data(JSONOutput.line(value).utf8))
    XCTAssertEqual(decoded, value)
  }

  func test_json_cleaningALineLeavesItAsItWas() {
    let line = JSONOutput.line(["a": hostile])
    XCTAssertEqual(TerminalSanitizer.cleanKeepingLines(line), line)
  }

  // MARK: - MP4 box types in messages

  func test_aBoxTypeWithControlBytesNamesThemInHex() {
    XCTAssertEqual(FourCC(rawValue: 0x1B5B_324A).description, #"\x1b[2J"#)
    XCTAssertEqual(FourCC("©nam").description, "©nam")
  }
}
