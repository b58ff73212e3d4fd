import Foundation
import RefrainCore

/// Long work a front end starts and the user watches: importing the library from Spotify and
/// publishing timed lyrics to LRCLIB. One of each runs at a time; progress comes as
/// ``SessionEvent/progress(_:)`` and the end as a notice.
extension BrowsingPart {
  /// Imports the user's library with `libraryImport` unless an import is running; when it
  /// is done, the library and (for the Spotify catalog) Home are read again.
  func importLibrary(with libraryImport: LibraryImport?) {
    guard let libraryImport else {
      return notify(.notice("importing is not available here", isError: true))
    }
    guard !importRunning else {
      return notify(.notice("an import is already running", isError: false))
    }
    importRunning = true
    notify(.progress("Spotify import: starting…"))
    let inbox = session.inbox
    background(on: inbox) {
      try await libraryImport { progress in
        inbox.post { session in
          guard session.browsingPart.importRunning else { return }
          session.notify(.progress("Spotify import: " + progress.text()))
        }
      }
    } then: { session, result in
      session.browsingPart.importRunning = false
      switch result {
      case .success(let summary):
        session.notify(.notice(summary, isError: false))
        session.notify(.libraryChanged)
        if session.catalog?.name == "spotify" { session.browsingPart.loadHome() }
      case .failure(let error):
        session.notify(.notice("Spotify import: \(error)", isError: true))
      }
    }
  }

  /// What publishing the current track's lyrics would send, as a question to ask the user
  /// first; `nil` after saying in a notice why nothing can be published.
  func publishQuestion(with publisher: LyricsPublishing?) -> (String, Track)? {
    guard let publisher else {
      notify(.notice(session.publishingUnavailable, isError: true))
      return nil
    }
    guard let track = session.playback.queue.current else {
      notify(.notice("nothing is playing", isError: false))
      return nil
    }
    guard !publishing else {
      notify(.notice("already publishing", isError: false))
      return nil
    }
    do {
      return ("Publish \(try publisher.describe(track))? (y/n)", track)
    } catch {
      notify(.notice("\(error)", isError: true))
      return nil
    }
  }

  /// Publishes `track`'s timed lyrics in the background, unless a publish is running.
  func publishLyrics(of track: Track, with publisher: LyricsPublishing?) {
    guard let publisher, !publishing else { return }
    publishing = true
    notify(.progress("publishing to LRCLIB: proving the work…"))
    let inbox = session.inbox
    background(on: inbox) {
      try await publisher.publish(track) { tried in
        inbox.post { session in
          session.notify(.progress("publishing to LRCLIB: proof of work, \(tried) tried"))
        }
      }
    } then: { session, result in
      session.browsingPart.publishing = false
      switch result {
      case .success: session.notify(.notice("published to LRCLIB", isError: false))
      case .failure(let error): session.notify(.notice("\(error)", isError: true))
      }
    }
  }
}
