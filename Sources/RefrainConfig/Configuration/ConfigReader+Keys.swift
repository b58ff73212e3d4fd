import RefrainCore
import TOMLKit

/// Reads `[keys]`, `[keys.lists]` and `[keys.lyrics]`: key names mapped to commands.
extension ConfigReader {
  /// Reads one key-binding table; `[keys]` may also hold the `lists` and `lyrics` tables.
  mutating func readKeyTable(_ table: TOMLTable, path: String, context: KeyContext) {
    for (name, value) in entries(of: table, path: path) {
      let entryPath = "\(path).\(name)"
      if let subtable = value.table {
        if context == .global, let inner = ConfigKey.keyTables[entryPath] {
          readKeyTable(subtable, path: entryPath, context: inner)
        } else {
          let tables = ConfigKey.keyTables.keys.filter { $0 != "keys" }.sorted()
          unknown(entryPath, candidates: context == .global ? tables : [])
        }
        continue
      }
      readBinding(name, value, path: entryPath, context: context)
    }
  }

  /// Reads `name = "command"`; an empty command removes the key's binding.
  private mutating func readBinding(
    _ name: String, _ value: any TOMLValueConvertible, path: String, context: KeyContext
  ) {
    guard let key = Key(name: name), key != .resize else {
      problem(
        path,
        "\(Self.quoted(name)) is not a key name; use names like j, space, ctrl-u, pgup or F1 "
          + "(see docs/keys.md)")
      return
    }
    guard let text = value.string else {
      problem(
        path, "must be a command in quotes, like \"seek +5\" (found \(Self.kind(of: value)))")
      return
    }
    let command: Command?
    if text.trimmingCharacters(in: .whitespaces).isEmpty {
      command = nil
    } else {
      do {
        command = try CommandParser.parse(text)
      } catch {
        problem(path, "\(Self.quoted(text)) is not a command: \(error.message)")
        return
      }
    }
    let line = locator.line(of: path) ?? 0
    bindings.append(
      (line, RefrainConfiguration.KeyBinding(key: key, command: command, context: context)))
  }
}
