/// A key press, as the terminal layer reports it.
///
/// Mouse input (only with `display.mouse = true`) arrives as keys too, so the app never
/// sees the terminal: the wheel as ``wheelUp`` and ``wheelDown``, a left click as
/// ``click(x:y:)``.
public enum Key: Sendable, Hashable, CustomStringConvertible {
  case character(Character)
  case ctrl(Character)
  case up, down, left, right, pageUp, pageDown, home, end
  case enter, backspace, delete, escape, tab, backTab
  case function(Int)
  case resize
  /// The mouse wheel turned away from the user (scrolls up).
  case wheelUp
  /// The mouse wheel turned towards the user (scrolls down).
  case wheelDown
  /// A left click on the cell at column `x`, row `y` (from 0); it has no name to bind.
  case click(x: Int, y: Int)

  /// Parses a key name as the config and docs write it: `j`, `space`, `ctrl-u`, `pgup`, `F1`.
  public init?(name: String) {
    let lower = name.lowercased()
    switch lower {
    case "space": self = .character(" ")
    case "up": self = .up
    case "down": self = .down
    case "left": self = .left
    case "right": self = .right
    case "pgup", "pageup": self = .pageUp
    case "pgdn", "pagedown": self = .pageDown
    case "home": self = .home
    case "end": self = .end
    case "enter", "return": self = .enter
    case "backspace": self = .backspace
    case "delete", "del": self = .delete
    case "esc", "escape": self = .escape
    case "tab": self = .tab
    case "shift-tab", "backtab": self = .backTab
    case "wheelup", "wheel-up": self = .wheelUp
    case "wheeldown", "wheel-down": self = .wheelDown
    default:
      if lower.hasPrefix("ctrl-"), lower.count == 6, let last = lower.last {
        self = .ctrl(last)
      } else if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), (1...12).contains(number)
      {
        self = .function(number)
      } else if name.count == 1, let character = name.first {
        self = .character(character)
      } else {
        return nil
      }
    }
  }

  /// Whether this is mouse input rather than a key.
  public var isMouse: Bool {
    switch self {
    case .wheelUp, .wheelDown, .click: return true
    default: return false
    }
  }

  /// The key's name, as ``init(name:)`` reads it.
  public var description: String {
    switch self {
    case .character(" "): return "space"
    case .character(let character): return String(character)
    case .ctrl(let letter): return "ctrl-\(letter)"
    case .up: return "up"
    case .down: return "down"
    case .left: return "left"
    case .right: return "right"
    case .pageUp: return "pgup"
    case .pageDown: return "pgdn"
    case .home: return "home"
    case .end: return "end"
    case .enter: return "enter"
    case .backspace: return "backspace"
    case .delete: return "delete"
    case .escape: return "esc"
    case .tab: return "tab"
    case .backTab: return "shift-tab"
    case .function(let number): return "F\(number)"
    case .resize: return "resize"
    case .wheelUp: return "wheelup"
    case .wheelDown: return "wheeldown"
    case .click(let x, let y): return "click(\(x),\(y))"
    }
  }
}
