import Foundation

/// The iTerm2 inline image sequence (`OSC 1337 ; File=… : base64 BEL`), also understood by
/// WezTerm and others; a pure encoder.
public enum ITermInlineImage {
  /// Shows `png` (an encoded PNG file) at the cursor, `columns × rows` cells, aspect ratio
  /// kept.
  public static func sequence(png: Data, columns: Int, rows: Int) -> String {
    "\u{1B}]1337;File=inline=1;size=\(png.count);width=\(columns);height=\(rows);"
      + "preserveAspectRatio=1:" + png.base64EncodedString() + "\u{07}"
  }
}

/// Wraps escape sequences for tmux, which passes them to the outer terminal only inside a
/// DCS passthrough (and only with `allow-passthrough on`).
public enum TmuxPassthrough {
  /// `ESC P tmux ; ` + `sequence` with every ESC doubled + `ESC \`.
  public static func wrap(_ sequence: String) -> String {
    "\u{1B}Ptmux;" + sequence.replacingOccurrences(of: "\u{1B}", with: "\u{1B}\u{1B}") + "\u{1B}\\"
  }
}

/// How a cover is drawn: as pixels through a graphics protocol, or as half blocks.
public enum GraphicsProtocol: Hashable, Sendable {
  case kitty
  case iTerm
  /// No pixel protocol: half blocks (`HalfBlockCover`) in the colours the terminal has.
  case halfBlocks

  /// Terminals that announce themselves in `TERM_PROGRAM` and show iTerm2 inline images.
  public static let iTermPrograms: Set<String> = ["iTerm.app", "WezTerm", "mintty", "rio"]

  /// The protocol for this terminal.
  ///
  /// - Parameters:
  ///   - environment: the process environment (`TERM_PROGRAM`, `TMUX`).
  ///   - kittyReplied: whether the terminal answered `KittyGraphics.query` with OK (the
  ///     caller sends it and reads the reply).
  ///   - tmuxPassthrough: whether sequences may go through tmux's passthrough; inside tmux
  ///     (`TMUX` set) neither protocol is used without it. Inside tmux, `TERM_PROGRAM` is
  ///     `tmux`, so only a kitty reply can choose a protocol there.
  public static func detect(
    environment: [String: String], kittyReplied: Bool, tmuxPassthrough: Bool
  ) -> GraphicsProtocol {
    let inTmux = !(environment["TMUX"] ?? "").isEmpty
    if inTmux, !tmuxPassthrough { return .halfBlocks }
    if kittyReplied { return .kitty }
    if let program = environment["TERM_PROGRAM"], iTermPrograms.contains(program) { return .iTerm }
    return .halfBlocks
  }
}
