import RefrainArt
import RefrainCore

/// How the terminal shows pictures (the cover), decided once at start-up.
public enum PictureOutput: Sendable, Equatable {
  /// No pictures: the Player pane keeps its placeholder box.
  case none
  /// Upper half blocks in the terminal's colours (24-bit or the 256-colour palette).
  case halfBlocks(TerminalColors)
  /// The kitty graphics protocol; `tmux` wraps every sequence for tmux's passthrough.
  case kitty(tmux: Bool)
  /// iTerm2 inline images; `tmux` as for kitty.
  case iTerm(tmux: Bool)

  /// Whether pictures are sent as encoded images (PNG) rather than cells.
  public var usesImages: Bool {
    switch self {
    case .kitty, .iTerm: return true
    case .none, .halfBlocks: return false
    }
  }

  /// Whether the start-up kitty query is worth sending for `mode`: only when kitty may be
  /// chosen, and never inside tmux for `auto` (half blocks are the rule there).
  public static func shouldQueryKitty(mode: CoverArtMode, environment: [String: String]) -> Bool {
    let inTmux = !(environment["TMUX"] ?? "").isEmpty
    switch mode {
    case .auto: return !inTmux
    case .kitty: return !inTmux
    case .blocks, .iterm, .off: return false
    }
  }

  /// The output for `mode` on this terminal.
  ///
  /// - Parameters:
  ///   - colors: whether the screen is drawn in colour at all (`display.colors`, the theme,
  ///     `NO_COLOR`): without colour there is no cover.
  ///   - reportedColors: terminfo's colour count.
  ///   - kittyReplied: whether the terminal answered the kitty query at start-up.
  ///   - tmuxPassthrough: whether tmux's `allow-passthrough` is on (inside tmux).
  public static func choose(
    mode: CoverArtMode, environment: [String: String], colors: Bool, reportedColors: Int,
    kittyReplied: Bool, tmuxPassthrough: Bool
  ) -> PictureOutput {
    let palette = TerminalColors.detect(environment: environment, reportedColors: reportedColors)
    let blocks: PictureOutput = colors && palette != .none ? .halfBlocks(palette) : .none
    let inTmux = !(environment["TMUX"] ?? "").isEmpty
    switch mode {
    case .off: return .none
    case .blocks: return blocks
    case .kitty:
      if inTmux { return tmuxPassthrough ? .kitty(tmux: true) : blocks }
      return kittyReplied ? .kitty(tmux: false) : blocks
    case .iterm:
      if inTmux { return tmuxPassthrough ? .iTerm(tmux: true) : blocks }
      return .iTerm(tmux: false)
    case .auto:
      switch GraphicsProtocol.detect(
        environment: environment, kittyReplied: kittyReplied, tmuxPassthrough: false)
      {
      case .kitty: return .kitty(tmux: false)
      case .iTerm: return .iTerm(tmux: false)
      case .halfBlocks: return blocks
      }
    }
  }
}
