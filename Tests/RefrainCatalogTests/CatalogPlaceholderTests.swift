import XCTest

@testable import RefrainCatalog

/// Placeholder until the catalog tests land.
final class CatalogPlaceholderTests: XCTestCase {
  func testModuleLoads() {
    XCTAssertNotNil(RefrainCatalog.self)
  }
}
