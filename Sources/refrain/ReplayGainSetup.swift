import Foundation
import RefrainAudio
import RefrainCatalog
import RefrainConfig
import RefrainCore

/// The player's ReplayGain from config.toml: a track's gains come from the file's tags,
/// then from what `refrain scan --replaygain` measured into the library.
enum ReplayGainSetup {
  /// The policy for `configuration`; `library` is the library file measurements are read
  /// from (opened on the player thread at the first lookup, and only if it exists).
  static func policy(
    _ configuration: RefrainConfiguration, library: URL = LibraryStore.defaultFileURL()
  ) -> ReplayGainPolicy {
    guard configuration.replayGain.mode != .off else { return .off }
    let measurements = Measurements(file: library)
    return ReplayGainPolicy(settings: configuration.replayGain) { track in
      if let carried = track.replayGain, !carried.isEmpty { return carried }
      let tagged = ReplayGainPolicy.tags(of: track) ?? ReplayGain()
      guard tagged.trackGain == nil || tagged.albumGain == nil, track.location.isFileURL else {
        return tagged
      }
      return tagged.filling(from: measurements.gain(path: track.location.path))
    }
  }

  /// The library's measurements, opened once on first use.
  private final class Measurements: @unchecked Sendable {
    private let file: URL
    private let lock = NSLock()
    private var store: LibraryStore?
    private var tried = false

    init(file: URL) { self.file = file }

    func gain(path: String) -> ReplayGain? {
      lock.lock()
      if !tried {
        tried = true
        if FileManager.default.fileExists(atPath: file.path) {
          store = try? LibraryStore(fileURL: file)
        }
      }
      let store = self.store
      lock.unlock()
      guard let store else { return nil }
      return ReplayGainScan.measured(path: path, in: store)
    }
  }
}
