import XCTest

@testable import RefrainTUI
import RefrainCatalog

final class PlaceholderTests: XCTestCase {
  func testNothing() {}
}
