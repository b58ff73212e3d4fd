/// How the Player pane draws the cover (`display.cover_art`).
public enum CoverArtMode: String, Sendable, CaseIterable {
  /// Kitty graphics when the terminal answers the start-up query, iTerm2 images where
  /// `TERM_PROGRAM` names a terminal that has them, half blocks otherwise (and always
  /// inside tmux); the default.
  case auto
  /// Upper half blocks (`▀`) in 24-bit or 256 colours: works in any colour terminal,
  /// inside tmux and over SSH.
  case blocks
  /// The kitty graphics protocol (inside tmux only with `allow-passthrough` on).
  case kitty
  /// iTerm2 inline images.
  case iterm
  /// No picture: the placeholder box.
  case off
}
