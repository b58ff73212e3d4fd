import Foundation
import RefrainCore
import RefrainSession

/// Command lines on stdin for the headless front ends (`refrain play --events` and
/// `refrain room join --events`): read without blocking in the front end's poll loop, split
/// at newlines, and parsed with ``CommandParser``, the language of `refrain ctl` and the
/// `:` prompt.
final class HeadlessInput {
  /// The longest command line; a longer one is dropped with a warning.
  static let lineLimit = 65_536

  /// Whether stdin is still read (it is not without `--events`, or once it closed).
  private(set) var isOpen: Bool
  private var buffer = [UInt8]()

  /// Reads stdin when `open` (with `--events`).
  init(open: Bool) { isOpen = open }

  /// What to poll: stdin while it is open.
  var pollDescriptors: [pollfd] {
    isOpen ? [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)] : []
  }

  /// Reads what stdin has and returns its complete lines, trimmed, empty ones left out.
  /// At the end of input, ``isOpen`` turns false.
  func readLines(warn: (String) -> Void) -> [String] {
    var chunk = [UInt8](repeating: 0, count: 4096)
    let count = read(STDIN_FILENO, &chunk, chunk.count)
    guard count > 0 else {
      if count == 0 || (errno != EAGAIN && errno != EINTR) { isOpen = false }
      return []
    }
    buffer.append(contentsOf: chunk[0..<count])
    var lines: [String] = []
    while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
      let line = String(decoding: buffer[..<newline], as: UTF8.self)
      buffer.removeSubrange(...newline)
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if !trimmed.isEmpty { lines.append(trimmed) }
    }
    if buffer.count > Self.lineLimit {
      buffer.removeAll()
      warn("a command line longer than 64 KiB was dropped")
    }
    return lines
  }

  /// Reads what stdin has and parses its complete lines; a line that does not parse is
  /// reported with `warn` (the reason and the line) and left out.
  func readCommands(warn: (String) -> Void) -> [Command] {
    readLines(warn: warn).compactMap { line in
      do {
        return try Self.command(line)
      } catch {
        warn("\(error) in '\(line)'")
        return nil
      }
    }
  }

  /// The outcome's message, after saying on stderr (with `warn`) why a command was not
  /// carried out: its reason, or that it belongs to the full-screen player, not `frontEnd`.
  static func message(
    of outcome: Outcome, for command: Command, in frontEnd: String, warn: (String) -> Void
  ) -> String? {
    switch outcome {
    case .done(let message): return message
    case .failed(let reason): warn(reason)
    case .notForSession:
      warn("'\(command)' works in the full-screen player, not in `\(frontEnd)`")
    }
    return nil
  }

  /// Parses a line, with the older words kept as aliases: `resume` (play), `line N`
  /// (lyrics line N) and `play N` (room play N).
  static func command(_ line: String) throws(CommandParseError) -> Command {
    try CommandParser.parse(expandingAliases(line))
  }

  /// The older words of the headless front ends, in today's language.
  static func expandingAliases(_ text: String) -> String {
    let words = text.split(separator: " ", omittingEmptySubsequences: true)
    switch (words.first?.lowercased(), words.count) {
    case ("resume", 1): return "play"
    case ("line", 2): return "lyrics line \(words[1])"
    case ("play", 2) where Int(words[1]) != nil: return "room play \(words[1])"
    default: return text
    }
  }
}
