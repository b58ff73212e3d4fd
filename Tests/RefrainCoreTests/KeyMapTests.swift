import Foundation
import XCTest

@testable import RefrainCore

/// The key map: every binding is a command the prompt can read, and docs/keys.md matches it.
final class KeyMapTests: XCTestCase {
  /// The repository root, found from this file's path.
  private static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  // MARK: - Round trips

  func testEveryDefaultBindingsCommandPrintsAndParsesBack() throws {
    XCTAssertFalse(KeyMap.standard.bindings.isEmpty)
    for binding in KeyMap.standard.bindings {
      let printed = binding.command.description
      XCTAssertEqual(
        try CommandParser.parse(printed), binding.command,
        "`\(binding.key)` prints its command as `\(printed)`")
    }
  }

  func testEveryDefaultBindingsKeyNameParsesBack() {
    for binding in KeyMap.standard.bindings {
      XCTAssertEqual(Key(name: binding.key.description), binding.key, binding.key.description)
    }
  }

  func testNoKeyIsBoundTwiceInOneContext() {
    var seen: Set<String> = []
    for binding in KeyMap.standard.bindings {
      let id = "\(binding.context.rawValue) \(binding.key)"
      XCTAssertTrue(seen.insert(id).inserted, "\(id) is bound twice")
    }
  }

  func testEveryBindingHasHelpText() {
    for binding in KeyMap.standard.bindings {
      XCTAssertFalse(binding.help.isEmpty, "\(binding.key) has no help")
    }
  }

  // MARK: - Lookup

  func testContextBindingsComeBeforeGlobalOnes() {
    let map = KeyMap.standard
    XCTAssertEqual(map.command(for: .character("s"), in: .lyrics), .seekMode)
    XCTAssertNil(map.command(for: .character("s"), in: .lists))
    XCTAssertEqual(map.command(for: .enter, in: .lyrics), .open)
    XCTAssertEqual(map.command(for: .character("c"), in: .lists), .newPlaylist(nil))
    XCTAssertEqual(
      map.command(for: .character("j"), in: .lyrics), .move(.down), "falls back to global")
    XCTAssertEqual(map.command(for: .character(" "), in: .global), .togglePlay)
    XCTAssertNil(map.command(for: .character("w"), in: .global))
  }

  func testBindReplacesAKeyInItsContextOnly() {
    var map = KeyMap.standard
    map.bind(.character("s"), to: .shuffle)
    XCTAssertEqual(map.command(for: .character("s"), in: .lists), .shuffle)
    XCTAssertEqual(
      map.command(for: .character("s"), in: .lyrics), .seekMode, "the lyrics view keeps its own")
    map.bind(.character("n"), to: .previous)
    XCTAssertEqual(map.command(for: .character("n"), in: .global), .previous)
    XCTAssertEqual(map.bindings.filter { $0.key == .character("n") }.count, 1)
  }

  func testKeyNamesFromTheConfigParse() {
    XCTAssertEqual(Key(name: "ctrl-u"), .ctrl("u"))
    XCTAssertEqual(Key(name: "Space"), .character(" "))
    XCTAssertEqual(Key(name: "PageDown"), .pageDown)
    XCTAssertEqual(Key(name: "F1"), .function(1))
    XCTAssertEqual(Key(name: "f"), .character("f"))
    XCTAssertEqual(Key(name: "G"), .character("G"))
    XCTAssertEqual(Key(name: "가"), .character("가"))
    XCTAssertNil(Key(name: "hyper-x"))
  }

  // MARK: - Documentation

  func testDocsKeysMatchesTheKeyMap() throws {
    let url = Self.root.appendingPathComponent("docs/keys.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    let expected = KeyMap.standard.markdown() + "\n"
    if text != expected {
      XCTFail(
        "docs/keys.md is out of date: run `refrain keys --markdown > docs/keys.md`\n"
          + "first difference near: \(firstDifference(text, expected))")
    }
  }

  func testTheMarkdownListsEveryBindingOnce() {
    let markdown = KeyMap.standard.markdown()
    let rows = markdown.components(separatedBy: "\n").filter { $0.hasPrefix("| `") }
    XCTAssertEqual(rows.count, KeyMap.standard.bindings.count)
    XCTAssertTrue(markdown.contains("| `s` | `seekmode` | seek mode on / off |"))
    XCTAssertTrue(markdown.contains("| `right` | `seek +5` | seek forward 5 s |"))
  }

  private func firstDifference(_ a: String, _ b: String) -> String {
    let left = a.components(separatedBy: "\n")
    let right = b.components(separatedBy: "\n")
    for index in 0..<max(left.count, right.count) {
      let x = left.indices.contains(index) ? left[index] : "<end>"
      let y = right.indices.contains(index) ? right[index] : "<end>"
      if x != y {
        return
          "line \(index + 1): file has \(x.debugDescription), key map has \(y.debugDescription)"
      }
    }
    return "none"
  }
}
