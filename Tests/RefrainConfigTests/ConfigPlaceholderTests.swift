import XCTest

@testable import RefrainConfig

/// Placeholder until the configuration tests land.
final class ConfigPlaceholderTests: XCTestCase {
  func testModuleLoads() {
    XCTAssertNotNil(RefrainConfig.self)
  }
}
