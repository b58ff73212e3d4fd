import RefrainCore

/// Drops the terminal's late answers to the start-up graphics probe from the keys.
///
/// When the probe stops waiting before the terminal answered (a slow SSH link), the
/// answers arrive later as input: `ESC [ ? … c` (device attributes) and `ESC _ G … ESC \`
/// (kitty's reply). Read as keys they would quit (Escape) or switch panes (digits). While
/// such an answer is still owed, the filter removes exactly those sequences, each once; any
/// other key passes through untouched, in order.
struct LateAnswerFilter {
  /// Whether the device-attributes answer is still owed.
  private(set) var owesDeviceAttributes: Bool
  /// Whether kitty's reply may still come (the query was sent, no reply was read).
  private(set) var owesKittyReply: Bool
  /// Keys held back because they may be the start of an answer.
  private var held: [Key] = []

  /// A filter for the answers the probe did not read.
  init(owesDeviceAttributes: Bool, owesKittyReply: Bool) {
    self.owesDeviceAttributes = owesDeviceAttributes
    self.owesKittyReply = owesKittyReply
  }

  /// Whether anything is still owed.
  var isActive: Bool { owesDeviceAttributes || owesKittyReply || !held.isEmpty }

  /// The keys of one read with any owed answer taken out; a partial answer of two keys or
  /// more at the end is held until the next read (a lone Escape is the user's, and passes).
  mutating func filter(_ keys: [Key]) -> [Key] {
    guard owesDeviceAttributes || owesKittyReply else {
      defer { held = [] }
      return held + keys
    }
    var out: [Key] = []
    for key in keys {
      held.append(key)
      switch match(held) {
      case .partial: continue
      case .deviceAttributes:
        owesDeviceAttributes = false
        held = []
      case .kittyReply:
        owesKittyReply = false
        held = []
      case .none:
        // Not an answer: the first held key is a real key; look again from the next one.
        out.append(held.removeFirst())
        while !held.isEmpty, match(held) == .none { out.append(held.removeFirst()) }
      }
    }
    if held == [.escape] { out += flush() }
    return out
  }

  /// Gives back whatever is held (the next read did not complete an answer in time).
  mutating func flush() -> [Key] {
    defer { held = [] }
    return held
  }

  private enum Match { case none, partial, deviceAttributes, kittyReply }

  private func match(_ keys: [Key]) -> Match {
    guard keys.first == .escape else { return .none }
    guard keys.count > 1 else { return .partial }
    let rest = keys.dropFirst()
    if owesDeviceAttributes, rest.first == .character("[") {
      // ESC [ ? digits and semicolons, then c.
      guard rest.count > 1 else { return .partial }
      guard rest.dropFirst().first == .character("?") else { return .none }
      for key in rest.dropFirst(2) {
        guard case .character(let c) = key else { return .none }
        if c == "c" { return key == keys.last ? .deviceAttributes : .none }
        guard c.isNumber || c == ";" else { return .none }
      }
      return .partial
    }
    if owesKittyReply, rest.first == .character("_") {
      // ESC _ G … ESC \, bounded so a stray Escape and underscore cannot hold keys forever.
      guard rest.count > 1 else { return .partial }
      guard rest.dropFirst().first == .character("G"), keys.count <= 64 else { return .none }
      if keys.count >= 4, keys[keys.count - 2] == .escape, keys.last == .character("\\") {
        return .kittyReply
      }
      for key in rest.dropFirst(2).dropLast() where key == .escape { return .none }
      if rest.count > 2, keys.last == .escape { return .partial }
      if case .character? = keys.last { return .partial }
      return .none
    }
    return .none
  }
}
