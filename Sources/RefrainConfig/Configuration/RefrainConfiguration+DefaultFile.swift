/// The commented default config.toml that `refrain config --print-defaults` prints.
extension RefrainConfiguration {
  /// A complete config.toml: every key commented out, with its default and one line on it.
  ///
  /// Table headers are live, so removing the `# ` before any one setting is all it takes to
  /// change it. The text, as printed or with every setting uncommented, reads back as the
  /// defaults.
  public static var defaultFileText: String {
    var lines = [
      "# Refrain's configuration: $XDG_CONFIG_HOME/refrain/config.toml",
      "# (~/.config/refrain/config.toml when XDG_CONFIG_HOME is unset).",
      "#",
      "# Every setting is shown with its default, commented out. To change one, remove the",
      "# \"# \" in front of it and edit the value. A mistake never stops Refrain: that key keeps",
      "# its default, and `refrain config --check` says what is wrong and on which line.",
      "# docs/config.md describes every key.",
    ]
    for table in ConfigKey.tables {
      lines += ["", "# \(table.summary)", "[\(table.name)]"]
      for key in ConfigKey.all where key.table == table.name {
        lines += ["# \(key.summary)", "# \(key.name) = \(key.defaultValue)"]
      }
      lines += keyTableNotes[table.name] ?? []
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Explanations and examples under each key-binding table.
  private static let keyTableNotes: [String: [String]] = [
    "keys": [
      "# Key names: letters (G is shift-g), digits, space, enter, esc, tab, shift-tab, up,",
      "# down, left, right, pgup, pgdn, home, end, backspace, delete, ctrl-a … ctrl-z, F1 … F12,",
      "# wheelup, wheeldown (with display.mouse = true).",
      "# Quote names with other characters than letters, digits, - and _. A binding replaces",
      "# the key's standard one; an empty command removes it. `refrain keys` lists them all.",
      "# Example: \"ctrl-d\" = \"pagedown\"",
      "# Example: \"?\" = \"\"",
    ],
    "keys.lists": ["# Example: D = \"delete\""],
    "keys.lyrics": ["# Example: \"ctrl-l\" = \"follow\""],
  ]
}
