import XCTest

@testable import RefrainRoom

/// The room server's connection budget: waiting connections capped overall and per address,
/// every connection within the descriptors left after the reserve.
final class ConnectionBudgetTests: XCTestCase {
  func testLimitsFitTheDescriptorLimitAfterTheReserve() {
    let fitted = ConnectionLimits().fitted(toDescriptors: 1024)
    XCTAssertEqual(fitted.maxConnections, 960)
    XCTAssertEqual(fitted.maxPending, 128)
    let tiny = ConnectionLimits().fitted(toDescriptors: 70)
    XCTAssertEqual(tiny.maxConnections, 6)
    XCTAssertEqual(tiny.maxPending, 6, "never more waiting than connections")
    XCTAssertEqual(tiny.maxPendingPerAddress, 6)
  }

  func testWaitingConnectionsAreCappedPerAddressAndSigningInFreesTheirPlace() {
    var limits = ConnectionLimits()
    limits.maxPending = 3
    limits.maxPendingPerAddress = 2
    limits.maxConnections = 4
    let budget = ConnectionBudget(limits: limits)
    XCTAssertNil(budget.admit(from: "127.0.0.2"))
    XCTAssertNil(budget.admit(from: "127.0.0.2"))
    XCTAssertEqual(
      budget.admit(from: "127.0.0.2"), "2 connections from this address are already waiting")
    XCTAssertNil(budget.admit(from: "127.0.0.1"), "another address still gets in")
    XCTAssertEqual(
      budget.admit(from: "127.0.0.3"), "3 connections are already waiting to sign in")
    budget.signedIn(from: "127.0.0.1")
    XCTAssertNil(budget.admit(from: "127.0.0.3"), "a member who signed in waits no more")
    XCTAssertEqual(
      budget.admit(from: "127.0.0.4"), "the room server holds 4 connections already")
    budget.closed(from: "127.0.0.2", pending: true)
    XCTAssertEqual(budget.counts.live, 3)
    XCTAssertEqual(budget.counts.pending, 2)
    budget.closed(from: "127.0.0.1", pending: false)
    XCTAssertEqual(budget.counts.pending, 2, "a signed-in member's close frees no waiting place")
    XCTAssertNil(budget.admit(from: "127.0.0.2"))
  }
}
