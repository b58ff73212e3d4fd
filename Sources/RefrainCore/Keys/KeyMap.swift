/// Where a key is pressed: the same key can mean different things in the lyrics view.
public enum KeyContext: String, Sendable, CaseIterable {
  case global, lists, lyrics
}

/// Maps keys to commands: defaults in code, overridable by configuration.
public struct KeyMap: Sendable {
  /// One binding, for lookup and for the help overlay and docs/keys.md.
  public struct Binding: Sendable, Hashable {
    public var key: Key
    public var command: Command
    public var context: KeyContext
    public var help: String
  }

  /// Every binding, in help order.
  public private(set) var bindings: [Binding]

  /// The default bindings.
  public static let standard = KeyMap(bindings: defaults)

  /// Creates a key map.
  public init(bindings: [Binding]) { self.bindings = bindings }

  /// The command for `key` in `context`, falling back to the global bindings.
  public func command(for key: Key, in context: KeyContext) -> Command? {
    if context != .global,
      let binding = bindings.first(where: { $0.key == key && $0.context == context })
    {
      return binding.command
    }
    return bindings.first { $0.key == key && $0.context == .global }?.command
  }

  /// Binds `key` to `command` in `context`, replacing what it did there.
  public mutating func bind(_ key: Key, to command: Command, in context: KeyContext = .global) {
    bindings.removeAll { $0.key == key && $0.context == context }
    bindings.append(
      Binding(key: key, command: command, context: context, help: command.description))
  }

  /// The bindings that apply in `context` (its own, then the global ones), for help.
  public func bindings(in context: KeyContext) -> [Binding] {
    let own = context == .global ? [] : bindings.filter { $0.context == context }
    return own + bindings.filter { $0.context == .global }
  }

  /// docs/keys.md, generated from the key map so the documentation cannot drift.
  public func markdown() -> String {
    var lines = [
      "# Keys", "",
      "Generated from Refrain's key map (`refrain keys --markdown`); do not edit by hand.",
      "Every binding is also a command for the `:` prompt and `refrain ctl`.", "",
      "The mouse is off unless `display.mouse = true` in config.toml (off, the terminal keeps",
      "its own text selection). On, the wheel is bound like a key (`wheelup`, `wheeldown`),",
      "and a left click on a tab shows its pane, on a list row or a lyric line selects it.", "",
    ]
    for context in KeyContext.allCases {
      let title: String
      switch context {
      case .global: title = "Everywhere"
      case .lists: title = "Lists (Home, Search, Library, Queue, details)"
      case .lyrics: title = "Lyrics view"
      }
      lines += ["## \(title)", "", "| key | command | what it does |", "| --- | --- | --- |"]
      for binding in bindings where binding.context == context {
        let key = binding.key.description == "|" ? "\\|" : binding.key.description
        lines.append("| `\(key)` | `\(binding.command)` | \(binding.help) |")
      }
      lines.append("")
    }
    return lines.joined(separator: "\n")
  }

  private static func bind(
    _ name: String, _ command: Command, _ help: String, _ context: KeyContext = .global
  )
    -> Binding
  {
    Binding(key: Key(name: name) ?? .escape, command: command, context: context, help: help)
  }

  private static let defaults: [Binding] =
    Command.Pane.allCases.map { bind($0.tab.key, .show($0), $0.tab.help) } + [
      bind("tab", .nextPane, "next pane"),
      bind("space", .togglePlay, "play / pause"),
      bind("n", .next, "next track"),
      bind("p", .previous, "previous track (restarts after 3 s)"),
      bind("left", .seek(.relative(-5)), "seek back 5 s"),
      bind("right", .seek(.relative(5)), "seek forward 5 s"),
      bind("-", .volume(.relative(-5)), "volume down"),
      bind("=", .volume(.relative(5)), "volume up"),
      bind("+", .save, "save the album / like the track"),
      bind("z", .shuffle, "shuffle on / off"),
      bind("r", .repeat, "repeat: off → all → one"),
      bind("l", .lyrics, "open / close the lyrics view"),
      bind("[", .nudge(-100), "lyrics 100 ms later"),
      bind("]", .nudge(100), "lyrics 100 ms earlier"),
      bind("T", .translations, "translations on / off"),
      bind("t", .romanize, "romanized lyrics on / off"),
      bind("/", .search(nil), "search"),
      bind("?", .help, "help for this pane"),
      bind(":", .prompt, "command prompt"),
      bind("a", .add, "add the selection to the queue"),
      bind("A", .addToPlaylist, "add the selection to a playlist"),
      bind("q", .back, "back; quits on the top level"),
      bind("esc", .back, "back / close"),
      bind("j", .move(.down), "down"),
      bind("down", .move(.down), "down"),
      bind("k", .move(.up), "up"),
      bind("up", .move(.up), "up"),
      bind("pgdn", .move(.pageDown), "page down"),
      bind("pgup", .move(.pageUp), "page up"),
      bind("g", .move(.top), "first item"),
      bind("home", .move(.top), "first item"),
      bind("G", .move(.bottom), "last item"),
      bind("end", .move(.bottom), "last item"),
      bind("wheelup", .move(.up), "scroll up (mouse wheel)"),
      bind("wheeldown", .move(.down), "scroll down (mouse wheel)"),
      bind("enter", .open, "open / play this"),
      bind("P", .playAll, "play all (queue the list)", .lists),
      bind("c", .newPlaylist(nil), "new playlist", .lists),
      bind("R", .rename(nil), "rename the playlist", .lists),
      bind("d", .delete, "delete the playlist (asks first)", .lists),
      bind("x", .remove, "remove from the playlist / queue", .lists),
      bind("J", .moveItemDown, "move the entry down", .lists),
      bind("K", .moveItemUp, "move the entry up", .lists),
      bind(
        "I", .importLibrary, "import your Spotify library", .lists),
      bind("s", .seekMode, "seek mode on / off", .lyrics),
      bind("f", .follow, "follow the current line again", .lyrics),
      bind("enter", .open, "seek to the line (seek mode) or close", .lyrics),
      bind("S", .lyricsSync(.start), "time the lyrics: Space stamps each line", .lyrics),
      bind("W", .lyricsSync(.words), "time the lyrics word by word", .lyrics),
      bind("backspace", .lyricsSync(.undo), "undo the last stamp (timing)", .lyrics),
      bind("w", .lyricsSync(.save), "save the timed lyrics", .lyrics),
      bind("/", .findInLyrics(nil), "find a line of the lyrics", .lyrics),
      bind("P", .publishLyrics, "publish the timed lyrics to LRCLIB (asks first)", .lyrics),
    ]
}
