import ArgumentParser
import RefrainSubsonic

/// The `refrain` command: the player, and its headless subcommands.
@main
struct Refrain: ParsableCommand {
  /// The release this binary is, for `refrain --version`.
  static let version = "0.2.0-dev"

  static let configuration = CommandConfiguration(
    commandName: "refrain",
    abstract: "A keyboard-driven terminal music player with synchronized lyrics.",
    usage: """
      refrain [--provider <provider>] [--output <output>] [--socket <socket>] \
      [--room <room> --token <token>] [--name <name>]
        refrain <subcommand>
      """,
    discussion: StartCommand.playerHelp,
    version: version,
    subcommands: [
      StartCommand.self, PlayCommand.self, LyricsCommand.self, ScanCommand.self,
      SearchCommand.self, KeysCommand.self, CtlCommand.self, ConfigCommand.self,
      ScrobbleCommand.self, RoomCommand.self, SpotifyCommand.self, SubsonicCommand.self,
      RadioCommand.self,
    ],
    defaultSubcommand: StartCommand.self
  )
}
