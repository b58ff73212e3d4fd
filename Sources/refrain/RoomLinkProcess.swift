import Foundation
import RefrainAudio
import RefrainCore
import RefrainSession

/// `refrain-room link`, run beside a player that joins a room: JSON lines in and out over
/// pipes, read without blocking in the player's poll loop.
final class RoomLinkProcess: RoomChannel {
  let name: String
  let follower: RoomFollower
  private let process = Process()
  private let toLink: FileHandle
  private let fromLink: Int32
  private var buffer = [UInt8]()
  private(set) var isOpen = true

  /// Starts the link to the room at `url` for `session`; throws when it cannot be run.
  init(helper: String, url: String, token: String, name member: String, session: Session) throws {
    name = URL(string: url)?.lastPathComponent ?? url
    let base = Self.libraryBase(url)
    follower = RoomFollower(
      session: session,
      trackURL: { path in base.flatMap { Self.trackURL(base: $0, path: path, token: token) } },
      now: { MonotonicClock.now })
    process.executableURL = URL(fileURLWithPath: helper)
    // The token goes through the environment: a command line is readable by every user.
    process.arguments = ["link", url, "--name", member]
    var environment = ProcessInfo.processInfo.environment
    environment["REFRAIN_ROOM_TOKEN"] = token
    process.environment = environment
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    toLink = input.fileHandleForWriting
    fromLink = output.fileHandleForReading.fileDescriptor
    _ = fcntl(fromLink, F_SETFL, fcntl(fromLink, F_GETFL) | O_NONBLOCK)
    signal(SIGPIPE, SIG_IGN)
    try process.run()
  }

  var wakeFileDescriptor: Int32 { isOpen ? fromLink : -1 }

  /// The link's exit status once it has ended (2: the server refused the member).
  var exitStatus: Int32? {
    guard !isOpen else { return nil }
    process.waitUntilExit()
    return process.terminationStatus
  }

  func readLines() -> [String] {
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while isOpen {
      let count = read(fromLink, &chunk, chunk.count)
      if count > 0 {
        buffer.append(contentsOf: chunk[0..<count])
      } else {
        if count == 0 { isOpen = false }
        break
      }
    }
    var lines: [String] = []
    while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
      lines.append(String(decoding: buffer[..<newline], as: UTF8.self))
      buffer.removeSubrange(...newline)
    }
    return lines
  }

  func send(_ request: RoomRequest) {
    guard isOpen else { return }
    toLink.write(Data((request.json + "\n").utf8))
  }

  /// Ends the link (the player is leaving).
  func stop() {
    if process.isRunning { process.terminate() }
  }

  /// `http(s)://HOST:PORT` of a room URL.
  static func libraryBase(_ room: String) -> URL? {
    guard var components = URLComponents(string: room) else { return nil }
    components.scheme = components.scheme?.lowercased() == "wss" ? "https" : "http"
    components.path = ""
    components.query = nil
    return components.url
  }

  /// The URL a library track streams from.
  static func trackURL(base: URL, path: String, token: String) -> URL? {
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "?#%;")
    let encoded = path.split(separator: "/", omittingEmptySubsequences: false)
      .map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0) }
      .joined(separator: "/")
    let query = token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token
    return URL(string: base.absoluteString + "/library/" + encoded + "?token=" + query)
  }
}
