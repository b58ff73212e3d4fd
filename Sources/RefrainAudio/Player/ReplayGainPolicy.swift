import Foundation
import RefrainCore
import RefrainTags

/// How the player finds and applies ReplayGain: the settings from `[playback]`, and where a
/// track's values come from.
public struct ReplayGainPolicy: Sendable {
  /// The mode, the preamp and clipping prevention.
  public var settings: ReplayGainSettings
  /// A track's values; called on the player thread when the track is loaded, never on the
  /// UI thread. `nil` or empty plays the track unchanged.
  public var lookup: @Sendable (Track) -> ReplayGain?

  /// Creates a policy.
  public init(settings: ReplayGainSettings, lookup: @escaping @Sendable (Track) -> ReplayGain?) {
    self.settings = settings
    self.lookup = lookup
  }

  /// No gain for any track.
  public static let off = ReplayGainPolicy(settings: ReplayGainSettings()) { _ in nil }

  /// The gains in a local file's tags, whatever its format; `nil` for a stream or a file
  /// that cannot be read.
  public static func tags(of track: Track) -> ReplayGain? {
    guard track.location.isFileURL else { return nil }
    return try? TagFormats.replayGain(of: track.location)
  }

  /// The gain in dB to apply to `track`, or `nil` to play it unchanged.
  func gain(for track: Track) -> Double? {
    guard settings.mode != .off else { return nil }
    return settings.gain(for: lookup(track), withinAlbum: track.withinAlbum ?? false)
  }
}
