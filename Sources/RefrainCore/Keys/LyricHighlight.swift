/// How the lyrics view marks the line being sung (`display.lyrics_highlight`).
public enum LyricHighlight: String, Sendable, CaseIterable {
  /// The line's text bold in the sung-line colour (with a ▶ beside it when there is no
  /// colour), the default; a line change resends both lines' text, 90–120 bytes.
  case line
  /// Only a coloured ▶ beside the line, for very slow links: a line change sends about
  /// 50 bytes.
  case marker
}
