import Foundation
import RefrainCore

/// A line of text being typed: the search box, the `:` prompt, a playlist name.
struct LineEditor {
  var text = ""

  /// Applies an editing key; returns false when the key is not an editing key.
  mutating func apply(_ key: Key) -> Bool {
    switch key {
    case .character(let character):
      text.append(character)
    case .backspace:
      if !text.isEmpty { text.removeLast() }
    case .ctrl("u"):
      text = ""
    case .ctrl("w"):
      while text.last == " " { text.removeLast() }
      while let last = text.last, last != " " { text.removeLast() }
    default:
      return false
    }
    return true
  }
}

/// The message on the status line.
struct StatusMessage {
  var text: String
  var isError: Bool
  var expires: Double?
}
