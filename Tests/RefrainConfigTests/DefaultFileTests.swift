import Foundation
import XCTest

@testable import RefrainConfig

/// The default file and docs/config.md cannot drift from the keys Refrain reads.
final class DefaultFileTests: XCTestCase {
  /// A setting line in the default file: `# name = value` or a `[table]` header.
  private static let settingLine = try? NSRegularExpression(pattern: #"^# [a-z_]+ = .+$"#)

  private var documentation: String {
    get throws {
      let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      return try String(contentsOf: root.appendingPathComponent("docs/config.md"), encoding: .utf8)
    }
  }

  private func isSetting(_ line: String) -> Bool {
    let range = NSRange(location: 0, length: (line as NSString).length)
    return Self.settingLine?.firstMatch(in: line, range: range) != nil
  }

  /// The default file with every commented-out setting turned on.
  private var uncommented: String {
    RefrainConfiguration.defaultFileText.split(separator: "\n", omittingEmptySubsequences: false)
      .map { line in isSetting(String(line)) ? String(line.dropFirst(2)) : String(line) }
      .joined(separator: "\n")
  }

  // MARK: - Reading back

  func testTheDefaultFileReadsAsTheDefaults() {
    let result = RefrainConfiguration.parse(RefrainConfiguration.defaultFileText)
    XCTAssertEqual(result.problems, [])
    XCTAssertEqual(result.configuration, RefrainConfiguration())
  }

  func testTheDefaultFileUncommentedReadsAsTheDefaults() {
    let text = uncommented
    XCTAssertNotEqual(text, RefrainConfiguration.defaultFileText)
    let result = RefrainConfiguration.parse(text)
    XCTAssertEqual(result.problems, [])
    XCTAssertEqual(result.configuration, RefrainConfiguration())
  }

  func testEverySettingIsInTheDefaultFileOnceWithItsDefault() {
    let lines = RefrainConfiguration.defaultFileText.split(separator: "\n").map(String.init)
    for key in ConfigKey.all {
      let setting = "# \(key.name) = \(key.defaultValue)"
      XCTAssertEqual(lines.filter { $0 == setting }.count, 1, setting)
      guard let index = lines.firstIndex(of: setting) else { continue }
      XCTAssertEqual(lines[index - 1], "# \(key.summary)", "a one-line description above")
      let header = lines[..<index].last { $0.hasPrefix("[") }
      XCTAssertEqual(header, "[\(key.table)]", "\(key.path) sits in its table")
    }
    for table in ConfigKey.tables {
      XCTAssertTrue(lines.contains("[\(table.name)]"), table.name)
    }
  }

  func testEverySettingLineInTheDefaultFileIsAKnownKey() {
    let settings = RefrainConfiguration.defaultFileText.split(separator: "\n").map(String.init)
      .filter(isSetting)
    XCTAssertEqual(settings.count, ConfigKey.all.count, "descriptions never look like settings")
  }

  func testTheDefaultFileTextIsPlainAndShort() {
    for line in RefrainConfiguration.defaultFileText.split(separator: "\n") {
      XCTAssertTrue(line.isEmpty || line.hasPrefix("#") || line.hasPrefix("["), String(line))
      XCTAssertLessThanOrEqual(line.count, 100, String(line))
    }
  }

  // MARK: - docs/config.md

  func testDocsDescribeEveryKeyWithItsDefault() throws {
    let lines = try documentation.split(separator: "\n").map(String.init)
    for key in ConfigKey.all {
      let row = lines.first { $0.hasPrefix("| `\(key.path)` |") }
      XCTAssertNotNil(row, "docs/config.md has a row for \(key.path)")
      XCTAssertTrue(row?.contains("| `\(key.defaultValue)` |") ?? false, "default of \(key.path)")
    }
    for table in ConfigKey.tables {
      XCTAssertTrue(
        lines.contains { $0.hasPrefix("| `\(table.name)` |") || $0.contains("`[\(table.name)]`") },
        table.name)
    }
  }

  func testDocsNameNoKeyRefrainDoesNotRead() throws {
    let known = Set(ConfigKey.all.map(\.path) + ConfigKey.tables.map(\.name))
    for line in try documentation.split(separator: "\n") where line.hasPrefix("| `") {
      let cell = line.dropFirst(3).prefix { $0 != "`" }
      XCTAssertTrue(known.contains(String(cell)), "docs/config.md documents unknown key \(cell)")
    }
  }
}
