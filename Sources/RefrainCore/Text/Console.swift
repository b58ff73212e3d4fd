import Foundation

/// The one way Refrain's commands write text to standard output and standard error.
///
/// Every line passes through ``TerminalSanitizer`` first, keeping its newlines and tabs: a
/// title, a lyric, a file name or a server's message inside it cannot move the cursor, clear
/// the screen, set the clipboard (OSC 52) or reorder the line (bidi overrides). JSON lines
/// come from ``JSONOutput``, which escapes those characters, so cleaning leaves them whole.
/// `Tests/EndToEnd/test_console_writes.py` fails on a write to either stream elsewhere.
package enum Console {
  /// Writes `text` and a newline to standard output, cleaned.
  package static func line(_ text: String) {
    write(text + "\n", to: .standardOutput)
  }

  /// Writes `text` and a newline to standard error, cleaned.
  package static func error(_ text: String) {
    write(text + "\n", to: .standardError)
  }

  /// Writes `text` to standard error without a newline (a question waiting for its answer).
  package static func prompt(_ text: String) {
    write(text, to: .standardError)
  }

  /// Shows `text` as the one progress line on standard output (a terminal only): the line is
  /// rewritten in place (carriage return, then erase to its end).
  package static func progress(_ text: String) {
    let clean = TerminalSanitizer.clean(text)
    FileHandle.standardOutput.write(Data(("\r" + clean + "\u{1B}[K").utf8))
  }

  /// Erases the progress line that ``progress(_:)`` drew.
  package static func endProgress() {
    FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8))
  }

  /// The two streams.
  package enum Stream: Sendable {
    case standardOutput, standardError
  }

  /// Writes `text`, cleaned with its newlines and tabs kept, to `stream`.
  package static func write(_ text: String, to stream: Stream) {
    let data = Data(TerminalSanitizer.cleanKeepingLines(text).utf8)
    switch stream {
    case .standardOutput: FileHandle.standardOutput.write(data)
    case .standardError: FileHandle.standardError.write(data)
    }
  }
}
