import Foundation
import RefrainArt

/// What the terminal can show, asked before curses takes it over.
public enum GraphicsProbe {
  /// What the kitty query found out.
  public struct KittyAnswer: Sendable, Equatable {
    /// Whether the terminal said OK to kitty's query: it speaks the protocol.
    public var kitty: Bool
    /// Whether the query was sent and the device-attributes answer did not come in time:
    /// the answers may still arrive, as input (see ``LateAnswerFilter``).
    public var answersOwed: Bool

    /// Nothing asked, nothing owed.
    public static let none = KittyAnswer(kitty: false, answersOwed: false)
  }

  /// Whether the terminal answers kitty's graphics query.
  ///
  /// Sends the query and then a primary device-attributes request, which every terminal
  /// answers; reads until that answer or `timeout` seconds. The terminal speaks kitty's
  /// protocol when its OK came back. Keys typed during the wait are lost.
  public static func kittyAnswers(
    input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, timeout: Double = 0.2
  ) -> Bool {
    askKitty(input: input, output: output, timeout: timeout).kitty
  }

  /// Sends kitty's query, like ``kittyAnswers(input:output:timeout:)``, and says too whether
  /// the terminal still owes its answers.
  public static func askKitty(
    input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, timeout: Double = 0.2
  ) -> KittyAnswer {
    guard isatty(input) != 0, isatty(output) != 0 else { return .none }
    var saved = termios()
    guard tcgetattr(input, &saved) == 0 else { return .none }
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
    guard tcsetattr(input, TCSANOW, &raw) == 0 else { return .none }
    defer { tcsetattr(input, TCSANOW, &saved) }
    let query = Array((KittyGraphics.query() + "\u{1B}[c").utf8)
    guard writeAll(query, to: output) else { return .none }
    var answer: [UInt8] = []
    let deadline = monotonicSeconds() + timeout
    while !containsDeviceAttributes(answer) {
      let left = deadline - monotonicSeconds()
      guard left > 0 else { break }
      var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, Int32((left * 1000).rounded(.up))) > 0 else { break }
      var chunk = [UInt8](repeating: 0, count: 256)
      let count = read(input, &chunk, chunk.count)
      guard count > 0 else { break }
      answer += chunk[0..<count]
      if answer.count > 4096 { break }
    }
    let kitty = KittyGraphics.parseReply(answer)?.isOK == true
    return KittyAnswer(kitty: kitty, answersOwed: !containsDeviceAttributes(answer))
  }

  /// Whether tmux (the one this process runs in) passes escape sequences through to the
  /// terminal outside it: `allow-passthrough` on or all.
  public static func tmuxAllowsPassthrough() -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["tmux", "show", "-gv", "allow-passthrough"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return false }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let value = String(decoding: data, as: UTF8.self).trimmingCharacters(
      in: .whitespacesAndNewlines)
    return process.terminationStatus == 0 && (value == "on" || value == "all")
  }

  /// Whether `bytes` hold a primary device-attributes answer (`ESC [ ? … c`).
  static func containsDeviceAttributes(_ bytes: [UInt8]) -> Bool {
    guard
      let start = bytes.indices.first(where: {
        bytes[$0] == 0x1B && $0 + 2 < bytes.count && bytes[$0 + 1] == 0x5B && bytes[$0 + 2] == 0x3F
      })
    else { return false }
    return bytes[(start + 3)...].contains(0x63)  // c
  }

  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }

  private static func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }
}
