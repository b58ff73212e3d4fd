import RefrainCore
import XCTest

@testable import RefrainConfig

/// `[keys]`, `[keys.lists]` and `[keys.lyrics]`: bindings applied onto the standard key map.
final class KeyBindingConfigTests: XCTestCase {
  private func read(_ text: String) -> (
    configuration: RefrainConfiguration, problems: [ConfigProblem]
  ) {
    RefrainConfiguration.parse(text, file: "config.toml", environment: ["HOME": "/home/ada"])
  }

  private func key(_ name: String) -> Key {
    guard let key = Key(name: name) else {
      XCTFail("no key called \(name)")
      return .escape
    }
    return key
  }

  // MARK: - Applying bindings

  func testBindingsReplaceTheStandardOnes() {
    let result = read(
      """
      [keys]
      "ctrl-d" = "pagedown"
      F5 = "show queue"
      j = "seek +30"
      space = "pause"
      pgup = "volume +10"
      """)
    XCTAssertEqual(result.problems, [])
    let map = result.configuration.keyMap()
    XCTAssertEqual(map.command(for: .ctrl("d"), in: .global), .move(.pageDown))
    XCTAssertEqual(map.command(for: .function(5), in: .global), .show(.queue))
    XCTAssertEqual(map.command(for: key("j"), in: .global), .seek(.relative(30)))
    XCTAssertEqual(map.command(for: key("space"), in: .global), .pause)
    XCTAssertEqual(map.command(for: .pageUp, in: .lists), .volume(.relative(10)))
    XCTAssertEqual(map.command(for: key("k"), in: .global), .move(.up), "others stay")
    XCTAssertEqual(map.bindings.filter { $0.key == key("j") && $0.context == .global }.count, 1)
  }

  func testContextTablesBindOnlyThere() {
    let result = read(
      """
      [keys.lists]
      D = "delete"
      [keys.lyrics]
      "ctrl-l" = "follow"
      enter = "seekmode"
      """)
    XCTAssertEqual(result.problems, [])
    let map = result.configuration.keyMap()
    XCTAssertEqual(map.command(for: key("D"), in: .lists), .delete)
    XCTAssertNil(map.command(for: key("D"), in: .global))
    XCTAssertEqual(map.command(for: .ctrl("l"), in: .lyrics), .follow)
    XCTAssertEqual(map.command(for: .enter, in: .lyrics), .seekMode)
    XCTAssertEqual(map.command(for: .enter, in: .global), .open)
    XCTAssertEqual(
      result.configuration.keyBindings,
      [
        .init(key: key("D"), command: .delete, context: .lists),
        .init(key: .ctrl("l"), command: .follow, context: .lyrics),
        .init(key: .enter, command: .seekMode, context: .lyrics),
      ])
  }

  func testAnEmptyCommandRemovesTheBinding() {
    let result = read("[keys]\n\"?\" = \"\"\n[keys.lists]\nd = \" \"\n")
    XCTAssertEqual(result.problems, [])
    let map = result.configuration.keyMap()
    XCTAssertNil(map.command(for: key("?"), in: .global))
    XCTAssertNil(map.command(for: key("d"), in: .lists))
    XCTAssertEqual(map.command(for: key("/"), in: .global), .search(nil))
  }

  func testBindingsApplyInFileOrder() {
    let result = read("[keys]\n\" \" = \"next\"\nspace = \"prev\"\n")
    XCTAssertEqual(result.problems, [])
    XCTAssertEqual(result.configuration.keyMap().command(for: key("space"), in: .global), .previous)
  }

  func testTheStandardMapIsTheBaseByDefault() {
    XCTAssertEqual(RefrainConfiguration().keyMap().bindings, KeyMap.standard.bindings)
  }

  // MARK: - Mistakes

  func testBadKeyNamesAndCommandsAreReportedAndSkipped() {
    let result = read(
      """
      [keys]
      hyper-x = "next"
      n = "warp 9"
      m = 5
      "" = "next"
      p = "toggle"
      [keys.lists]
      x = "seek sideways"
      [keys.queue]
      x = "next"
      """)
    XCTAssertEqual(
      result.configuration.keyBindings,
      [.init(key: key("p"), command: .togglePlay, context: .global)])
    XCTAssertEqual(
      result.problems.map(\.key),
      ["keys.hyper-x", "keys.n", "keys.m", "keys.", "keys.lists.x", "keys.queue"])
    XCTAssertEqual(result.problems.map(\.line), [2, 3, 4, 5, 8, 9])
    XCTAssertTrue(result.problems[0].message.contains("is not a key name"))
    XCTAssertTrue(result.problems[1].message.contains("unknown command 'warp'"))
    XCTAssertTrue(result.problems[2].message.contains("found an integer"))
    XCTAssertTrue(result.problems[4].message.contains("expected 'seek"))
    XCTAssertTrue(result.problems[5].message.contains("unknown key"))
  }

  func testKeysMustBeATable() {
    let result = read("keys = \"vim\"")
    XCTAssertEqual(result.problems.map(\.key), ["keys"])
    XCTAssertEqual(result.configuration.keyBindings, [])
  }
}
