import Foundation
import RefrainTestSupport
import XCTest

/// `Tests/Fixtures/ranges/range_server.py` serving one folder on 127.0.0.1: files with and
/// without byte ranges, slow answers and cut connections (see the script), and the log of
/// what it was asked.
final class RangeServer {
  private let process: FixtureServerProcess

  /// Starts the server on `folder`.
  init(folder: URL) throws {
    process = try FixtureServerProcess(
      script: "ranges/range_server.py", arguments: [folder.path])
  }

  /// `http://127.0.0.1:PORT` followed by `path`.
  func url(_ path: String) -> URL { process.url(path) }

  /// Stops the server.
  func stop() { process.stop() }

  /// The requests it answered so far, in order: path, Range header and status.
  func log() throws -> [(path: String, range: String?, status: Int)] {
    let data = try Data(contentsOf: url("/_log"))
    let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    return entries.map {
      ($0["path"] as? String ?? "", $0["range"] as? String, $0["status"] as? Int ?? 0)
    }
  }
}

/// Tests that play from a ``RangeServer`` on their class's ``media`` folder: the server is
/// started for each test and stopped after it, and the folder removed after the class.
class RangeServerTestCase: XCTestCase {
  /// The server of the running test.
  var server: RangeServer!

  /// The folder served (made once per class by the subclass).
  class var media: URL { FileManager.default.temporaryDirectory }

  override func setUpWithError() throws {
    server = try RangeServer(folder: Self.media)
  }

  override func tearDown() {
    server.stop()
    super.tearDown()
  }

  override class func tearDown() {
    try? FileManager.default.removeItem(at: media)
    super.tearDown()
  }
}
