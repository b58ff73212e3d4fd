import Foundation
import RefrainCore

/// The Spotify import from the full-screen player: it runs in the background while the
/// player keeps playing, shows its progress as a bar on the status line, and refreshes the
/// panes when it is done.
extension App {
  /// Starts an import unless one is running.
  func startLibraryImport() {
    guard let libraryImport else {
      return setStatus("importing is not available here", error: true)
    }
    guard !importRunning else { return setStatus("an import is already running") }
    importRunning = true
    setStatus("Spotify import: starting…", seconds: 30)
    let inbox = inbox
    Task.detached(executorPreference: BackgroundExecutor.shared) {
      do {
        let summary = try await libraryImport { progress in
          inbox.post { app in
            guard app.importRunning else { return }
            app.setStatus("Spotify import: " + progress.text(), seconds: 30)
          }
        }
        inbox.post { app in
          app.importRunning = false
          app.setStatus(summary, seconds: 10)
          app.refreshLibrary()
          if app.provider.name == "spotify" { app.loadHome() }
        }
      } catch {
        let message = "\(error)"
        inbox.post { app in
          app.importRunning = false
          app.setStatus("Spotify import: " + message, error: true, seconds: 10)
        }
      }
    }
  }
}
