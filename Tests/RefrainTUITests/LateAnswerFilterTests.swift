import RefrainCore
import XCTest

@testable import RefrainTUI

/// The start-up probe's late answers are not keys: Escape would quit, digits switch panes.
final class LateAnswerFilterTests: XCTestCase {
  private func keys(_ text: String) -> [Key] {
    text.map { $0 == "\u{1B}" ? .escape : .character($0) }
  }

  func testALateDeviceAttributesAnswerIsDroppedAndTheKeysAroundItPass() {
    var filter = LateAnswerFilter(owesDeviceAttributes: true, owesKittyReply: false)
    XCTAssertEqual(filter.filter(keys("j\u{1B}[?62;22cq")), keys("jq"))
    XCTAssertFalse(filter.isActive, "answered: nothing more is taken out")
    XCTAssertEqual(filter.filter(keys("\u{1B}[?62;22c")), keys("\u{1B}[?62;22c"))
  }

  func testKittysReplyAndTheAnswerSplitOverTwoReadsAreDropped() {
    var filter = LateAnswerFilter(owesDeviceAttributes: true, owesKittyReply: true)
    XCTAssertEqual(filter.filter(keys("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?6")), [])
    XCTAssertTrue(filter.isActive)
    XCTAssertEqual(filter.filter(keys("2;22c2")), keys("2"))
    XCTAssertFalse(filter.isActive)
  }

  func testTheUsersOwnEscapeAndLookalikesPassInOrder() {
    var filter = LateAnswerFilter(owesDeviceAttributes: true, owesKittyReply: true)
    XCTAssertEqual(filter.filter([.escape]), [.escape], "a lone Escape is not held back")
    XCTAssertEqual(filter.filter(keys("\u{1B}[x")), keys("\u{1B}[x"))
    XCTAssertEqual(filter.filter(keys("\u{1B}_q")), keys("\u{1B}_q"))
    XCTAssertEqual(
      filter.filter([.escape, .down, .character("c")]), [.escape, .down, .character("c")])
    XCTAssertTrue(filter.isActive, "still owed")
  }

  func testWhatIsHeldComesBackWhenTheWaitEnds() {
    var filter = LateAnswerFilter(owesDeviceAttributes: true, owesKittyReply: false)
    XCTAssertEqual(filter.filter(keys("\u{1B}[?6")), [])
    XCTAssertEqual(filter.flush(), keys("\u{1B}[?6"))
  }
}
