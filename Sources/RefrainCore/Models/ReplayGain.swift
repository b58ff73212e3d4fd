import Foundation

/// A track's ReplayGain values: gains in dB against ReplayGain 2's −18 LUFS reference, and
/// peaks as linear sample amplitudes (1.0 is full scale). Any of them may be missing.
public struct ReplayGain: Sendable, Hashable, Codable {
  /// The gain that brings this track to the reference loudness.
  public var trackGain: Double?
  /// The track's highest sample amplitude.
  public var trackPeak: Double?
  /// The gain that brings the track's album to the reference loudness.
  public var albumGain: Double?
  /// The album's highest sample amplitude.
  public var albumPeak: Double?

  enum CodingKeys: String, CodingKey {
    case trackGain = "track_gain"
    case trackPeak = "track_peak"
    case albumGain = "album_gain"
    case albumPeak = "album_peak"
  }

  /// Creates gains; all missing by default.
  public init(
    trackGain: Double? = nil, trackPeak: Double? = nil, albumGain: Double? = nil,
    albumPeak: Double? = nil
  ) {
    self.trackGain = trackGain
    self.trackPeak = trackPeak
    self.albumGain = albumGain
    self.albumPeak = albumPeak
  }

  /// Whether no gain is known (peaks alone change nothing).
  public var isEmpty: Bool { trackGain == nil && albumGain == nil }

  /// These values, with each missing one taken from `other`.
  public func filling(from other: ReplayGain?) -> ReplayGain {
    guard let other else { return self }
    return ReplayGain(
      trackGain: trackGain ?? other.trackGain, trackPeak: trackPeak ?? other.trackPeak,
      albumGain: albumGain ?? other.albumGain, albumPeak: albumPeak ?? other.albumPeak)
  }

  /// The gains in a file's text tags, keys in any case: `REPLAYGAIN_TRACK_GAIN` and the
  /// other three (Vorbis comments, ID3 `TXXX` descriptions, iTunes freeform names), and
  /// Opus's `R128_TRACK_GAIN`/`R128_ALBUM_GAIN`, moved from −23 to −18 LUFS. ReplayGain
  /// tags win over R128 ones; values that do not parse or are absurd are left out.
  public init(fields: [(key: String, value: String)]) {
    self.init()
    var r128Track: Double?
    var r128Album: Double?
    for (key, value) in fields {
      switch key.uppercased() {
      case "REPLAYGAIN_TRACK_GAIN": trackGain = trackGain ?? Self.gain(value)
      case "REPLAYGAIN_TRACK_PEAK": trackPeak = trackPeak ?? Self.peak(value)
      case "REPLAYGAIN_ALBUM_GAIN": albumGain = albumGain ?? Self.gain(value)
      case "REPLAYGAIN_ALBUM_PEAK": albumPeak = albumPeak ?? Self.peak(value)
      case "R128_TRACK_GAIN": r128Track = r128Track ?? Self.r128(value)
      case "R128_ALBUM_GAIN": r128Album = r128Album ?? Self.r128(value)
      default: break
      }
    }
    trackGain = trackGain ?? r128Track
    albumGain = albumGain ?? r128Album
  }

  /// dB from a ReplayGain text such as `-6.20 dB` or `+1.5`; `nil` outside ±60 dB.
  public static func gain(_ text: String) -> Double? {
    var number = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if number.lowercased().hasSuffix("db") {
      number = String(number.dropLast(2)).trimmingCharacters(in: .whitespaces)
    }
    if number.hasPrefix("+") { number.removeFirst() }
    guard let value = Double(number), value.isFinite, abs(value) <= 60 else { return nil }
    return value
  }

  /// A linear peak from text such as `0.988`; `nil` unless above 0 and at most 10.
  public static func peak(_ text: String) -> Double? {
    guard let value = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)),
      value.isFinite, value > 0, value <= 10
    else { return nil }
    return value
  }

  /// dB against −18 LUFS from an Opus R128 gain: a Q7.8 whole number (256 per dB) against
  /// −23 LUFS, so 5 dB louder.
  public static func r128(_ text: String) -> Double? {
    guard let steps = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)),
      (-32768...32767).contains(steps)
    else { return nil }
    return Double(steps) / 256 + 5
  }
}

/// Which ReplayGain value playback applies (`[playback] replaygain`).
public enum ReplayGainMode: String, Sendable, CaseIterable, Codable {
  /// No gain: every file plays as stored.
  case off
  /// Each track's own gain.
  case track
  /// The album's gain, so an album keeps its quiet and loud songs.
  case album
  /// Album gain while the queue plays an album in order; track gain otherwise.
  case auto
}

/// How playback turns a track's ReplayGain values into one gain: the mode, the preamp, and
/// clipping prevention from the stored peak.
public struct ReplayGainSettings: Sendable, Equatable {
  /// Which value applies.
  public var mode: ReplayGainMode
  /// dB added to every gain applied.
  public var preamp: Double
  /// Whether the gain is lowered so that peak × gain stays at or below full scale.
  public var preventClipping: Bool

  /// Creates settings; the default changes nothing.
  public init(mode: ReplayGainMode = .off, preamp: Double = 0, preventClipping: Bool = true) {
    self.mode = mode
    self.preamp = preamp
    self.preventClipping = preventClipping
  }

  /// The gain in dB to apply to a track with `gains`, or `nil` to play it unchanged (mode
  /// off, or no gain known). `withinAlbum` says whether the queue plays the track in its
  /// album's order (the `auto` mode's choice). A missing album gain falls back to the
  /// track's, and the other way round.
  public func gain(for gains: ReplayGain?, withinAlbum: Bool) -> Double? {
    guard let gains else { return nil }
    let album: Bool
    switch mode {
    case .off: return nil
    case .track: album = false
    case .album: album = true
    case .auto: album = withinAlbum
    }
    let chosen: (gain: Double, peak: Double?)
    if album, let gain = gains.albumGain {
      chosen = (gain, gains.albumPeak ?? gains.trackPeak)
    } else if let gain = gains.trackGain {
      chosen = (gain, gains.trackPeak)
    } else if let gain = gains.albumGain {
      chosen = (gain, gains.albumPeak)
    } else {
      return nil
    }
    var result = chosen.gain + preamp
    if preventClipping, let peak = chosen.peak, peak > 0 {
      result = min(result, -20 * log10(peak))
    }
    return result
  }
}
