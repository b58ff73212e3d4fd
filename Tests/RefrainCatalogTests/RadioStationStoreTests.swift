import RefrainCore
import XCTest

@testable import RefrainCatalog

/// The radio stations kept in the library: names unique whatever their case, listed by
/// name, removed by name.
final class RadioStationStoreTests: XCTestCase {
  func testStationsAreKeptListedByNameAndRemoved() throws {
    let store = try LibraryTestSupport.makeStore(self)
    XCTAssertEqual(try store.stations(), [])
    XCTAssertTrue(
      try store.radio.saveStation(RadioStation(name: "Tones FM", url: "http://127.0.0.1:1/a")))
    XCTAssertTrue(
      try store.radio.saveStation(RadioStation(name: "ambient", url: "/radio/list.pls")))
    XCTAssertEqual(
      try store.stations(),
      [
        RadioStation(name: "ambient", url: "/radio/list.pls"),
        RadioStation(name: "Tones FM", url: "http://127.0.0.1:1/a"),
      ])
    XCTAssertTrue(try store.radio.removeStation(named: "AMBIENT"))
    XCTAssertFalse(try store.radio.removeStation(named: "ambient"))
    XCTAssertEqual(try store.stations().map(\.name), ["Tones FM"])
  }

  func testASecondStationOfTheSameNameInAnyCaseReplacesTheURL() throws {
    let store = try LibraryTestSupport.makeStore(self)
    try store.radio.saveStation(RadioStation(name: "Tones FM", url: "http://127.0.0.1:1/a"))
    XCTAssertFalse(
      try store.radio.saveStation(RadioStation(name: "tones fm", url: "http://127.0.0.1:1/b")))
    XCTAssertEqual(
      try store.stations(), [RadioStation(name: "tones fm", url: "http://127.0.0.1:1/b")])
  }
}
