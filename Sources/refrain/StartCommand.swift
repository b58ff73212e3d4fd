import ArgumentParser
import Foundation
import RefrainCore

/// `refrain` with no subcommand: starts the player on the demo catalog.
///
/// Until the full-screen player lands, this plays the bundled sample track headlessly.
struct StartCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "start", abstract: "Start the player (the default).", shouldDisplay: false)

  @Option(help: "Audio output: pulse or null.")
  var output: String = "pulse"

  func run() throws {
    guard let sample = ResourceLocator.sampleTrack else {
      throw ValidationError(
        "cannot find Refrain's Resources folder; set REFRAIN_RESOURCES to its path")
    }
    FileHandle.standardError.write(
      Data("Refrain: playing the bundled sample \(sample.lastPathComponent) (Ctrl-C stops)\n".utf8))
    let play = try PlayCommand.parse([sample.path, "--output", output])
    try play.run()
  }
}
