import Foundation
import RefrainArt
import RefrainCore

/// Loading covers in the background: once per track and size, the answer applied only if
/// it is still the one wanted.
extension App {
  /// Starts loading a cover the last frame wanted into `slot` (the Player pane's, an album
  /// header's), unless it is loaded or loading there.
  func loadCover(_ request: CoverSlot.Request, into slot: ReferenceWritableKeyPath<App, CoverSlot>)
  {
    guard let covers, request != self[keyPath: slot].request else { return }
    self[keyPath: slot] = CoverSlot(request: request, state: .loading)
    let png = pictureOutput.usesImages
    let inbox = inbox
    let log = log
    let target = MainLoopOnly(value: slot)
    Task.detached(executorPreference: BackgroundExecutor.shared) {
      let result: Result<ScaledCover, any Error>
      do {
        result = .success(
          try await covers.cover(for: request.track, fitting: request.box, png: png))
      } catch {
        result = .failure(error)
      }
      if case .failure(let error) = result {
        log("no cover for \(request.track.displayName): \(error)")
      }
      inbox.post { app in
        guard app[keyPath: target.value].request == request else { return }
        switch result {
        case .success(let scaled): app[keyPath: target.value].state = .ready(scaled)
        case .failure: app[keyPath: target.value].state = .missing
        }
      }
    }
  }
}
