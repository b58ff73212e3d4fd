import Foundation
import RefrainCore

/// Catalog resolution before play: a catalog's track gets a fresh stream URL (previews
/// expire) off the session's thread, then plays as any track does, under the room policy.
extension QueueCommands {
  /// Plays catalog `tracks` as a queue from `index`: their stream URLs are resolved in the
  /// background by ``Session/catalog``, then ``play(_:startAt:position:paused:)`` decides (alone, a
  /// queue; in a room, the room). `then` gets, on the session's thread, what came of it and
  /// why tracks were skipped (`Title: reason`), which are left out of the queue.
  func play(
    _ tracks: [CatalogTrack], startAt index: Int, position: Double = 0, paused: Bool = false,
    then: @escaping (Outcome, _ skipped: [String]) -> Void
  ) {
    guard !tracks.isEmpty else { return then(.failed("nothing playable"), []) }
    session.libraryPart.remember(tracks)
    let catalog = session.catalog
    let inbox = session.inbox
    let reply = SessionOnly(then)
    Task.detached(executorPreference: BackgroundExecutor.shared) {
      var playable: [Track] = []
      var start = 0
      var reasons: [String] = []
      for (position, track) in tracks.enumerated() {
        do {
          var resolved = track
          // Only the track's own catalog can refresh its URL; others keep the one they have.
          if let catalog, track.provider == catalog.name || track.streamURL == nil {
            resolved.streamURL = try await catalog.streamURL(for: track)
          }
          if position == index { start = playable.count }
          if var playableTrack = resolved.playable {
            playableTrack.seeking = catalog?.seeking(for: track)
            playable.append(playableTrack)
          }
        } catch {
          reasons.append("\(track.title): \(error)")
        }
      }
      let queue = playable
      let first = start
      let problems = reasons
      inbox.post { session in
        guard !queue.isEmpty else {
          return reply.value(.failed(problems.first ?? "nothing playable"), problems)
        }
        reply.value(
          session.queueCommands.play(queue, startAt: first, position: position, paused: paused),
          problems)
      }
    }
  }

  /// Plays a list picked on screen (``play(_:startAt:position:paused:then:)``); `then` gets
  /// what came of it. Tracks left out on the way are announced in one error notice.
  func playCatalog(_ list: Command.CatalogList, then: @escaping (Outcome) -> Void) {
    play(list.tracks, startAt: list.start, position: list.position, paused: list.paused) {
      [weak self] outcome, skipped in
      if case .done = outcome, let first = skipped.first {
        self?.session.notify(
          .notice("skipped \(skipped.count) unplayable: \(first)", isError: true))
      }
      then(outcome)
    }
  }

  /// Adds catalog tracks to the end of the queue as ``enqueue(_:)-([Track])`` does, keeping
  /// their catalog identity for likes, playlists and the history.
  func enqueue(_ tracks: [CatalogTrack]) -> Outcome {
    session.libraryPart.remember(tracks)
    return enqueue(tracks.compactMap(\.playable))
  }
}
