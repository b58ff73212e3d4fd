import Foundation

/// Why a command line could not be read; the message names what was expected.
public struct CommandParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The one-line reason.
  public let message: String

  /// Creates an error.
  public init(_ message: String) { self.message = message }

  public var description: String { message }
}

/// Reads commands in the form ``Command`` prints: `seek +5`, `volume 50`, `lyrics line 3`.
public enum CommandParser {
  /// Every command word, for help and completion.
  public static let words: [String] = [
    "toggle", "play", "pause", "stop", "next", "prev", "seek", "volume", "shuffle", "repeat",
    "lyrics", "seekmode", "follow", "nudge", "show", "tab", "up", "down", "pageup", "pagedown",
    "top", "bottom", "left", "right", "open", "back", "quit", "search", "help", "prompt", "add",
    "addto", "save", "new", "rename", "delete", "remove", "moveup", "movedown", "playall",
    "queue", "playlist", "status", "import", "translations", "romanize", "find", "chat",
    "room",
  ]

  /// Parses one command line.
  public static func parse(_ line: String) throws(CommandParseError) -> Command {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { throw CommandParseError("empty command") }
    let (head, tail) = splitAtSpace(trimmed)
    let verb = head.lowercased()
    let rest = tail.trimmingCharacters(in: .whitespaces)
    let optionalRest: String? = rest.isEmpty ? nil : rest

    func noArgument(_ command: Command) throws(CommandParseError) -> Command {
      guard rest.isEmpty else { throw CommandParseError("'\(verb)' takes no argument") }
      return command
    }

    switch verb {
    case "toggle": return try noArgument(.togglePlay)
    case "play": return rest.isEmpty ? .play : .playItem(rest)
    case "pause": return try noArgument(.pause)
    case "stop": return try noArgument(.stop)
    case "next": return try noArgument(.next)
    case "prev", "previous": return try noArgument(.previous)
    case "seek": return .seek(try seekTarget(rest))
    case "volume", "vol": return .volume(try volume(rest))
    case "shuffle":
      switch rest.lowercased() {
      case "": return .shuffle
      case "on": return .setShuffle(true)
      case "off": return .setShuffle(false)
      default: throw CommandParseError("expected 'shuffle', 'shuffle on' or 'shuffle off'")
      }
    case "repeat":
      if rest.isEmpty { return .repeat }
      guard let mode = RepeatMode(rawValue: rest.lowercased()) else {
        throw CommandParseError("expected 'repeat' or 'repeat off|all|one'")
      }
      return .setRepeat(mode)
    case "lyrics":
      if rest.isEmpty { return .lyrics }
      let words = rest.split(separator: " ")
      if words == ["publish"] { return .publishLyrics }
      if words == ["publish", "now"] { return .publishLyricsNow }
      if words.first == "sync" {
        if let edit = try syncEdit(words.dropFirst().map(String.init)) { return edit }
        let steps = Command.SyncStep.allCases.map(\.rawValue).joined(separator: "|")
        guard words.count == 2, let step = Command.SyncStep(rawValue: String(words[1])) else {
          throw CommandParseError("expected 'lyrics sync \(steps)'")
        }
        return .lyricsSync(step)
      }
      guard words.count == 2, words[0] == "line", let index = Int(words[1]), index >= 0 else {
        throw CommandParseError("expected 'lyrics', 'lyrics line N' or 'lyrics sync STEP'")
      }
      return .lyricLine(index)
    case "seekmode": return try noArgument(.seekMode)
    case "follow": return try noArgument(.follow)
    case "nudge":
      guard let ms = Int(rest.replacingOccurrences(of: "+", with: "")),
        (-60_000...60_000).contains(ms)
      else {
        throw CommandParseError("expected 'nudge ±MS', e.g. 'nudge +100'")
      }
      return .nudge(ms)
    case "show":
      guard let pane = Command.Pane(rawValue: rest.lowercased()) else {
        let names = Command.Pane.allCases.map(\.rawValue).joined(separator: ", ")
        throw CommandParseError("expected 'show' and one of: \(names)")
      }
      return .show(pane)
    case "tab": return try noArgument(.nextPane)
    case "open": return try noArgument(.open)
    case "back": return try noArgument(.back)
    case "quit", "q": return try noArgument(.quit)
    case "search": return .search(optionalRest)
    case "help": return try noArgument(.help)
    case "prompt": return try noArgument(.prompt)
    case "add": return try noArgument(.add)
    case "addto": return try noArgument(.addToPlaylist)
    case "save": return try noArgument(.save)
    case "new": return .newPlaylist(optionalRest)
    case "rename": return .rename(optionalRest)
    case "delete": return try noArgument(.delete)
    case "remove": return try noArgument(.remove)
    case "moveup": return try noArgument(.moveItemUp)
    case "movedown": return try noArgument(.moveItemDown)
    case "playall": return try noArgument(.playAll)
    case "status": return try noArgument(.status)
    case "import": return try noArgument(.importLibrary)
    case "translations": return try noArgument(.translations)
    case "find": return .findInLyrics(rest.isEmpty ? nil : rest)
    case "romanize": return try noArgument(.romanize)
    case "queue": return try queueEdit(rest)
    case "playlist": return .playlist(try playlistEdit(rest))
    case "chat":
      guard !rest.isEmpty else { throw CommandParseError("expected 'chat TEXT'") }
      return .chat(rest)
    case "room":
      let (action, tail) = splitAtSpace(rest)
      let argument = tail.trimmingCharacters(in: .whitespaces)
      switch action.lowercased() {
      case "leave" where argument.isEmpty: return .room(.leave)
      case "play":
        if let entry = Int(argument), entry >= 0 { return .room(.play(entry: entry)) }
      case "join" where !argument.isEmpty && !argument.contains(" "):
        return .room(.join(url: argument))
      default: break
      }
      throw CommandParseError("expected 'room join URL', 'room leave' or 'room play N'")
    default:
      if let move = Command.Move(rawValue: verb) { return try noArgument(.move(move)) }
      throw CommandParseError("unknown command '\(verb)'")
    }
  }

  /// Reads what follows `queue`: nothing (the list), `add PATH|URL`, `clear`, `remove N`,
  /// `move N M`, `play N` (positions from 1, as the list numbers them).
  static func queueEdit(_ text: String) throws(CommandParseError) -> Command {
    let expected = CommandParseError(
      "expected 'queue', 'queue add PATH|URL', 'queue clear', 'queue remove N', "
        + "'queue move N M' or 'queue play N' (positions from 1)")
    if text.isEmpty { return .queueList }
    let (action, tail) = splitAtSpace(text)
    let argument = tail.trimmingCharacters(in: .whitespaces)
    let numbers = argument.split(separator: " ").map { Int($0) }
    func positions(_ count: Int) throws(CommandParseError) -> [Int] {
      let values = numbers.compactMap { $0 }.filter { (1...1_000_000).contains($0) }
      guard numbers.count == count, values.count == count else { throw expected }
      return values
    }
    switch action.lowercased() {
    case "add" where !argument.isEmpty: return .queueAdd(argument)
    case "clear" where argument.isEmpty: return .queueClear
    case "list" where argument.isEmpty: return .queueList
    case "remove": return .queueRemove(try positions(1)[0])
    case "play": return .queuePlay(try positions(1)[0])
    case "move":
      let values = try positions(2)
      return .queueMove(from: values[0], to: values[1])
    default: throw expected
    }
  }

  /// Reads what follows `playlist`: `list`, `show ID`, `create NAME`, `rename ID NAME`,
  /// `delete ID`, `add ID PATH|URL|current`, `remove ID POS`, `move ID FROM TO`.
  static func playlistEdit(_ text: String) throws(CommandParseError) -> Command.PlaylistEdit {
    let expected = CommandParseError(
      "expected 'playlist list|show ID|create NAME|rename ID NAME|delete ID|add ID PATH|"
        + "remove ID POS|move ID FROM TO'")
    let words = text.unicodeScalars.split(separator: " ", maxSplits: 2).map(String.init)
    guard let action = words.first?.lowercased() else { throw expected }
    let id = words.count > 1 && !words[1].isEmpty ? words[1] : nil
    let tail = words.count > 2 ? words[2].trimmingCharacters(in: .whitespaces) : ""
    func positions(_ count: Int) throws(CommandParseError) -> [Int] {
      let fields = tail.split(separator: " ")
      let values = fields.compactMap { Int($0) }.filter { $0 >= 1 && $0 <= 1_000_000 }
      guard fields.count == count, values.count == count else { throw expected }
      return values
    }
    switch (action, id) {
    case ("list", _) where words.count == 1: return .list
    case ("create", _) where words.count > 1:
      let name = String(text.unicodeScalars.dropFirst(words[0].unicodeScalars.count))
      return .create(name.trimmingCharacters(in: .whitespaces))
    case ("show", let id?) where tail.isEmpty: return .show(id)
    case ("delete", let id?) where tail.isEmpty: return .delete(id)
    case ("rename", let id?) where !tail.isEmpty: return .rename(id, tail)
    case ("add", let id?) where !tail.isEmpty: return .add(id, tail)
    case ("remove", let id?): return .remove(id, try positions(1)[0])
    case ("move", let id?):
      let values = try positions(2)
      return .move(id, from: values[0], to: values[1])
    default: throw expected
    }
  }

  /// Splits at the first space, by Unicode scalar: a combining mark typed after the space
  /// belongs to the argument, as `Command.description` prints it.
  static func splitAtSpace(_ text: String) -> (head: String, tail: String) {
    let scalars = text.unicodeScalars
    guard let space = scalars.firstIndex(of: " ") else { return (text, "") }
    return (String(scalars[..<space]), String(scalars[scalars.index(after: space)...]))
  }

  /// Reads `+5`, `-10`, `42`, `1:23` or `1:02:03` as a seek target.
  static func seekTarget(_ text: String) throws(CommandParseError) -> Command.Seek {
    let expected = CommandParseError("expected 'seek ±SEC', 'seek SEC' or 'seek mm:ss'")
    if text.hasPrefix("+") || text.hasPrefix("-") {
      guard let value = Double(text.dropFirst()), (0...86_400).contains(value) else {
        throw expected
      }
      return .relative(text.hasPrefix("-") ? -value : value)
    }
    let fields = text.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...3).contains(fields.count) else { throw expected }
    var seconds = 0.0
    for (position, field) in fields.enumerated() {
      guard let value = Double(field), value >= 0, value.isFinite else { throw expected }
      if position > 0 && value >= 60 { throw expected }
      seconds = seconds * 60 + value
    }
    guard seconds <= 86_400 else { throw expected }
    return .absolute(seconds)
  }

  /// Reads `nudge LINE ±MS` or `check LINE` after `lyrics sync`; `nil` for the other steps.
  static func syncEdit(_ words: [String]) throws(CommandParseError) -> Command? {
    switch words.first {
    case "nudge":
      guard words.count == 3, let line = Int(words[1]), line >= 0,
        let ms = Int(words[2].replacingOccurrences(of: "+", with: "")), abs(ms) <= 60_000
      else { throw CommandParseError("expected 'lyrics sync nudge LINE ±MS'") }
      return .syncNudge(line: line, ms: ms)
    case "check":
      guard words.count == 2, let line = Int(words[1]), line >= 0 else {
        throw CommandParseError("expected 'lyrics sync check LINE'")
      }
      return .syncCheck(line: line)
    default: return nil
    }
  }

  /// Reads `+5`, `-5` or `50` as a volume change.
  static func volume(_ text: String) throws(CommandParseError) -> Command.Volume {
    let expected = CommandParseError("expected 'volume ±N' or 'volume N' (0 to 100)")
    if text.hasPrefix("+") || text.hasPrefix("-") {
      guard let value = Int(text.dropFirst()), (0...100).contains(value) else { throw expected }
      return .relative(text.hasPrefix("-") ? -value : value)
    }
    guard let value = Int(text), (0...100).contains(value) else { throw expected }
    return .absolute(value)
  }
}
