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

  @Option(help: "The control socket for `refrain ctl` (default: $XDG_RUNTIME_DIR/refrain/socket).")
  var socket: String?

  func validate() throws {
    guard ["pulse", "null"].contains(output) else {
      throw ValidationError("--output takes pulse or null")
    }
  }

  func run() throws {
    let control: ControlServer
    do {
      control = try ControlServer(path: socket ?? UnixSocket.defaultPath())
    } catch {
      FileHandle.standardError.write(Data("refrain: \(error)\n".utf8))
      throw ExitCode(1)
    }
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
    if !FileManager.default.fileExists(atPath: log) {
      FileManager.default.createFile(atPath: log, contents: nil)
    }
    if let handle = FileHandle(forWritingAtPath: log) {
      handle.seekToEndOfFile()
      dup2(handle.fileDescriptor, STDERR_FILENO)
    }
    app.restoreSession()
    let loop = MainLoop(app: app, player: engine)
    loop.watch(control.fileDescriptor) { control.acceptClients(app: app) }
    var lastSave = ProcessInfo.processInfo.systemUptime
    loop.onIteration = {
      control.notifyWatchers(app: app)
      // While playing, save the session every 10 s so a crash loses little.
      let now = ProcessInfo.processInfo.systemUptime
      if presenter.state == .playing, now - lastSave >= 10 {
        app.saveSession()
        lastSave = now
      }
    }
    loop.run()
    app.saveSession()
    presenter.stop()
    engine.shutdown()
  }
}
