import ArgumentParser

/// The `refrain` command: the player, and its headless subcommands.
@main
struct Refrain: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "refrain",
    abstract: "A keyboard-driven terminal music player with synchronized lyrics.",
    subcommands: [
      StartCommand.self, PlayCommand.self, LyricsCommand.self, ScanCommand.self,
      SearchCommand.self, KeysCommand.self, CtlCommand.self, LibraryStressCommand.self,
      ConfigCommand.self,
    ],
    defaultSubcommand: StartCommand.self
  )
}
