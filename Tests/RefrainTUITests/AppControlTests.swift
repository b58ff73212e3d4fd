import Foundation
import RefrainCatalog
import RefrainCore
import RefrainSession
import XCTest

@testable import RefrainTUI

/// Playlist edits typed at the `:` prompt report on the status line (the edits themselves
/// are the session's: SessionPlaylistTests).
final class AppControlTests: XCTestCase {
  func testThePromptReportsOnTheStatusLine() throws {
    let library = try TUIHarness.temporaryLibrary(self)
    let harness = TUIHarness(library: library)
    harness.waitForHome()
    harness.press(":")
    harness.type("playlist create Drive")
    harness.press("enter")
    harness.waitForLibrary()
    XCTAssertEqual(try library.playlists().map(\.name), ["Drive"])
    XCTAssertEqual(harness.app.status?.text, #"{"id":1,"name":"Drive","tracks":0}"#)
    harness.press(":")
    harness.type("playlist delete 7")
    harness.press("enter")
    harness.waitForLibrary()
    XCTAssertTrue(harness.screen().contains("playlist 7 no longer exists"), harness.screen())
  }
}
