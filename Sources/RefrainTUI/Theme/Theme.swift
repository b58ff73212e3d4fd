import CNcursesw
import CTUIShims
import Foundation

/// Turns cell styles into ncurses attributes and colour pairs.
enum Theme {
  /// The attributes for every style, with colours when the terminal has them.
  ///
  /// `NO_COLOR` (any value) turns colours off; attributes such as bold and reverse stay.
  static func attributes(colors: Bool) -> [Style: (attrs: UInt32, pair: Int32)] {
    let useColors = colors && getenv("NO_COLOR") == nil
    if useColors {
      _ = start_color()
      _ = use_default_colors()
    }
    var table: [Style: (attrs: UInt32, pair: Int32)] = [:]
    for style in Style.allCases {
      let look = look(of: style)
      var pair: Int32 = 0
      if useColors, look.foreground >= 0 || look.background >= 0 {
        pair = Int32(style.rawValue + 1)
        _ = init_pair(Int16(pair), Int16(look.foreground), Int16(look.background))
      }
      table[style] = (
        refrain_attr(
          look.bold ? 1 : 0, look.reverse ? 1 : 0, look.underline ? 1 : 0, look.dim ? 1 : 0), pair
      )
    }
    return table
  }

  private struct Look {
    var foreground: Int32 = -1
    var background: Int32 = -1
    var bold = false
    var reverse = false
    var underline = false
    var dim = false
  }

  private static func look(of style: Style) -> Look {
    switch style {
    case .normal: return Look()
    case .title: return Look(foreground: Int32(COLOR_CYAN), bold: true)
    case .dim: return Look(dim: true)
    case .accent: return Look(foreground: Int32(COLOR_YELLOW))
    case .selected: return Look(reverse: true)
    case .current: return Look(foreground: Int32(COLOR_GREEN), bold: true)
    case .currentWord: return Look(foreground: Int32(COLOR_GREEN), bold: true, underline: true)
    case .status: return Look(reverse: true)
    case .error: return Look(foreground: Int32(COLOR_RED), bold: true)
    case .tabActive: return Look(foreground: Int32(COLOR_CYAN), bold: true, underline: true)
    case .tabInactive: return Look(dim: true)
    case .progress: return Look(foreground: Int32(COLOR_CYAN))
    case .border: return Look(dim: true)
    // Colour alone: no bold, whose escape sequences cost more bytes on every line change.
    case .marker: return Look(foreground: Int32(COLOR_GREEN))
    }
  }
}
