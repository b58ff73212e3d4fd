import ArgumentParser
import Foundation
import RefrainAudio
import RefrainCatalog
import RefrainCore
import RefrainTUI

/// `refrain` with no subcommand: the full-screen player.
struct StartCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "start", abstract: "Start the full-screen player (the default).",
    shouldDisplay: false)

  @Option(help: "The catalog to open: demo, local or deezer.")
  var provider: String = "demo"

  @Option(help: "Audio output: pulse, or null (silent, on a real-time clock).")
  var output: String = "pulse"

  func validate() throws {
    guard ["pulse", "null"].contains(output) else {
      throw ValidationError("--output takes pulse or null")
    }
  }

  func run() throws {
    guard isatty(STDOUT_FILENO) != 0 else {
      throw ValidationError("the full-screen player needs a terminal; try `refrain play FILE`")
    }
    let catalog: any CatalogProvider
    do {
      catalog = try makeProvider(name: provider)
    } catch {
      FileHandle.standardError.write(Data("refrain: \(error)\n".utf8))
      throw ExitCode(1)
    }
    var notice: String?
    let audio: any AudioOutput
    if output == "pulse" {
      do {
        try PulseOutput.probe()
        audio = PulseOutput()
      } catch {
        notice = "no audio server: set PULSE_SERVER — playing silently"
        audio = NullOutput()
      }
    } else {
      audio = NullOutput()
    }
    let library: LibraryStore?
    do {
      library = try LibraryStore.openDefault()
    } catch {
      library = nil
      notice = notice ?? "library unavailable: \(error)"
    }
    let engine = PlayerEngine(output: audio)
    let presenter = PlaybackPresenter(player: engine)
    let app = App(
      AppDependencies(
        presenter: presenter, provider: catalog, library: library,
        lyricsLoader: LyricsLoading.makeLoader(), startupNotice: notice))
    // Nothing may write to the terminal while curses owns it.
    let log = ProcessInfo.processInfo.environment["REFRAIN_STDERR_LOG"] ?? "/dev/null"
    if let handle = FileHandle(forWritingAtPath: log) { dup2(handle.fileDescriptor, STDERR_FILENO) }
    MainLoop(app: app, player: engine).run()
    presenter.stop()
    engine.shutdown()
  }
}
