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

/// Publishing timed lyrics to LRCLIB from the lyrics view: asks first, then proves the work
/// in the background with its progress on the status line.
extension App {
  /// Asks whether to publish the current track's lyrics, saying what would be sent.
  func askToPublishLyrics() {
    guard let lyricsPublisher else {
      return setStatus("publishing is not available here", error: true)
    }
    guard let track = presenter.queue.current else { return setStatus("nothing is playing") }
    guard !publishing else { return setStatus("already publishing") }
    do {
      let what = try lyricsPublisher.describe(track)
      overlay = .confirm(question: "Publish \(what)? (y/n)", action: .publishLyrics(track))
    } catch {
      setStatus("\(error)", error: true)
    }
  }

  /// Publishes in the background.
  func startPublishing(_ track: Track) {
    guard let lyricsPublisher, !publishing else { return }
    publishing = true
    setStatus("publishing to LRCLIB: proving the work…", seconds: 60)
    let inbox = inbox
    Task.detached(executorPreference: BackgroundExecutor.shared) {
      do {
        try await lyricsPublisher.publish(track) { tried in
          inbox.post { app in
            app.setStatus("publishing to LRCLIB: proof of work, \(tried) tried", seconds: 60)
          }
        }
        inbox.post { app in
          app.publishing = false
          app.setStatus("published to LRCLIB", seconds: 8)
        }
      } catch {
        let message = "\(error)"
        inbox.post { app in
          app.publishing = false
          app.setStatus(message, error: true, seconds: 10)
        }
      }
    }
  }
}
