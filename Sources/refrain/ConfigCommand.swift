import ArgumentParser
import Foundation
import RefrainConfig
import RefrainCore

/// `refrain config`: prints the default configuration file, or checks the user's.
struct ConfigCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "config",
    abstract: "Print the default configuration file, or check yours.",
    discussion: """
      The file is $XDG_CONFIG_HOME/refrain/config.toml (~/.config/refrain/config.toml). \
      `refrain config --print-defaults > ~/.config/refrain/config.toml` starts one.
      """)

  @Flag(help: "Print a complete config.toml with every key commented out at its default.")
  var printDefaults = false

  @Flag(help: "Check the configuration file; the exit status is 1 when anything is wrong.")
  var check = false

  @Flag(help: "Print where the configuration file is read from.")
  var path = false

  @Option(help: "The file to check instead of the usual one.")
  var file: String?

  func validate() throws {
    guard [printDefaults, check, path].filter({ $0 }).count == 1 else {
      throw ValidationError("use one of --print-defaults, --check or --path")
    }
    if file != nil && !check { throw ValidationError("--file goes with --check") }
  }

  func run() throws {
    if printDefaults {
      Console.write(RefrainConfiguration.defaultFileText, to: .standardOutput)
      return
    }
    if path {
      Console.line(ConfigPaths.configFile(environment: ProcessInfo.processInfo.environment).path)
      return
    }
    let result =
      file.map { RefrainConfiguration.load(from: URL(fileURLWithPath: $0)) }
      ?? RefrainConfiguration.load()
    guard result.fileExists else {
      if file != nil {
        Console.line("\(result.file.path): no such file")
        throw ExitCode(1)
      }
      Console.line("\(result.file.path): no configuration file; Refrain uses the defaults")
      return
    }
    guard !result.problems.isEmpty else {
      Console.line("\(result.file.path): OK")
      return
    }
    for problem in result.problems { Console.line("\(problem)") }
    let count = result.problems.count
    Console.line("\(count) problem\(count == 1 ? "" : "s")")
    throw ExitCode(1)
  }
}
