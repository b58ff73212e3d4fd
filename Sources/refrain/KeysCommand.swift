import ArgumentParser
import RefrainCore

/// `refrain keys`: lists every key binding (docs/keys.md is generated from it).
struct KeysCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "keys", abstract: "List every key binding of the full-screen player.")

  @Flag(help: "Print docs/keys.md (Markdown).")
  var markdown = false

  func run() throws {
    let map = KeyMap.standard
    if markdown {
      Console.line(map.markdown())
    } else {
      for binding in map.bindings {
        let key = binding.key.description.padding(toLength: 10, withPad: " ", startingAt: 0)
        Console.line(
          "\(binding.context.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)) \(key) \(binding.command)  — \(binding.help)"
        )
      }
    }
  }
}
