import Foundation
import XCTest

@testable import RefrainCatalog
@testable import RefrainHTTP
@testable import RefrainLRCLIB

/// LRCLIB's proof of work: the first number whose SHA-256 after the prefix is at most the
/// target.
final class LRCLIBPublisherTests: XCTestCase {
  func testTheProofIsTheFirstNumberUnderTheTarget() throws {
    let target = try XCTUnwrap(
      LRCLIBPublisher.bytes(hex: "00ff" + String(repeating: "ff", count: 30)))
    let nonce = try XCTUnwrap(LRCLIBPublisher.solve(prefix: "refrain", target: target) { _ in })
    XCTAssertFalse(
      target.lexicographicallyPrecedes(Digests.sha256(Array("refrain\(nonce)".utf8))),
      "the proof's hash is at most the target")
    for earlier in 0..<nonce {
      XCTAssertTrue(
        target.lexicographicallyPrecedes(Digests.sha256(Array("refrain\(earlier)".utf8))),
        "\(earlier) is not a proof")
    }
  }

  func testHexIsReadOrRefused() {
    XCTAssertEqual(LRCLIBPublisher.bytes(hex: "00fF10"), [0, 255, 16])
    XCTAssertNil(LRCLIBPublisher.bytes(hex: "0"))
    XCTAssertNil(LRCLIBPublisher.bytes(hex: "zz"))
  }
}
