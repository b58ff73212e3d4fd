import Foundation
import RefrainArt
import RefrainCore

/// The covers the full-screen player shows, loaded in the background.
///
/// It guarantees one load per track and size in each slot, and that an answer is applied
/// only while it is still the one the slot wants. Answers come back through ``inbox``, whose
/// descriptor the main loop watches; ``drain()`` applies them on the loop's thread.
final class CoverLoader {
  /// The Player pane's cover.
  var player = CoverSlot()
  /// The cover in the header of the open album's detail view.
  var album = CoverSlot()
  /// Where covers come from; `nil` for none.
  let provider: (any CoverProvider)?
  let inbox = Inbox<CoverLoader>()
  private let log: @Sendable (String) -> Void

  init(provider: (any CoverProvider)?, log: @escaping @Sendable (String) -> Void) {
    self.provider = provider
    self.log = log
  }

  /// Starts loading a cover a frame wanted into `slot`, unless it is loaded or loading
  /// there; `png` asks for PNG bytes (a terminal that shows images) instead of cells.
  func load(
    _ request: CoverSlot.Request, into slot: ReferenceWritableKeyPath<CoverLoader, CoverSlot>,
    png: Bool
  ) {
    guard let provider, request != self[keyPath: slot].request else { return }
    self[keyPath: slot] = CoverSlot(request: request, state: .loading)
    let inbox = inbox
    let log = log
    let target = MainLoopOnly(value: slot)
    Task.detached(executorPreference: BackgroundExecutor.shared) {
      let result: Result<ScaledCover, any Error>
      do {
        result = .success(
          try await provider.cover(for: request.track, fitting: request.box, png: png))
      } catch {
        result = .failure(error)
        log("no cover for \(request.track.displayName): \(error)")
      }
      inbox.post { loader in
        guard loader[keyPath: target.value].request == request else { return }
        switch result {
        case .success(let scaled): loader[keyPath: target.value].state = .ready(scaled)
        case .failure: loader[keyPath: target.value].state = .missing
        }
      }
    }
  }

  /// Applies the answers that arrived.
  func drain() {
    for job in inbox.drain() { job(self) }
  }
}
